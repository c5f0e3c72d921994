// `booking`: the Flights feature on its own.
import Backend
import Booking
import Common
import Foundation

let services = BookingServices(flights: FlightsWiring.search(context:), booking: FlightsWiring.booking(context:))
let tool = CommandLineTool(root: BookingCommands.root(name: "booking", services: services))
exit(tool.run(arguments: Array(CommandLine.arguments.dropFirst())))
