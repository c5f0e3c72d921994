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
    let session = try BackendServices.accountSession(dataDirectory: context.dataDirectory)
    return [try HotelScreens.feature(environment: environment, context: context, session: session)]
  })
exit(tool.run(arguments: Array(CommandLine.arguments.dropFirst())))
