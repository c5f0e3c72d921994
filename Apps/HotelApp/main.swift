// `hotel`: the Hotels feature on its own.
import Backend
import Common
import CommonUI
import Foundation
import Hotel

let environment = HotelEnvironment(service: { try HotelBackend.service(dataDirectory: $0.dataDirectory) })
let root = HotelCommands.root(name: "hotel", environment: environment)
let tool = CommandLineTool(
  root: root.openingInteractiveApp { context in
    let payer = try BackendServices.bookingAccount(dataDirectory: context.dataDirectory)
    return [try HotelScreens.feature(environment: environment, context: context, account: payer)]
  }, travellerLanguage: BackendServices.travellerLanguage)
exit(tool.run(arguments: Array(CommandLine.arguments.dropFirst())))
