// `car-rental`: the Cars feature on its own.
import Backend
import CarRental
import Common
import CommonUI
import Foundation

let environment = CarRentalEnvironment(service: CarRentalWiring.service(context:))
let root = CarRentalCommands.root(name: "car-rental", environment: environment)
let tool = CommandLineTool(
  root: root.openingInteractiveApp { context in
    let payer = try BackendServices.bookingAccount(dataDirectory: context.dataDirectory)
    return [try CarRentalScreens.feature(environment: environment, context: context, account: payer)]
  }, travellerLanguage: BackendServices.travellerLanguage)
exit(tool.run(arguments: Array(CommandLine.arguments.dropFirst())))
