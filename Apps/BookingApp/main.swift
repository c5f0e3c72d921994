// `booking`: the Flights feature on its own.
import Booking
import Common
import Foundation

let tool = CommandLineTool(root: BookingCommands.root(name: "booking"))
exit(tool.run(arguments: Array(CommandLine.arguments.dropFirst())))
