// `car-rental`: the Cars feature on its own.
import Backend
import CarRental
import Common
import Foundation

let environment = CarRentalEnvironment(service: CarRentalWiring.service(context:))
let tool = CommandLineTool(root: CarRentalCommands.root(name: "car-rental", environment: environment))
exit(tool.run(arguments: Array(CommandLine.arguments.dropFirst())))
