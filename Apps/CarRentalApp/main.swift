// `car-rental`: the Cars feature on its own.
import CarRental
import Common
import Foundation

let tool = CommandLineTool(root: CarRentalCommands.root(name: "car-rental"))
exit(tool.run(arguments: Array(CommandLine.arguments.dropFirst())))
