// `booking`: the Flights feature on its own.
import Backend
import Booking
import Common
import CommonUI
import Foundation

let services = BookingServices(
  flights: FlightsWiring.search(context:), booking: FlightsWiring.booking(context:),
  status: FlightsWiring.status(context:))
let root = BookingCommands.root(name: "booking", services: services)
let tool = CommandLineTool(
  root: root.openingInteractiveApp { context in
    let payer = try BackendServices.bookingAccount(dataDirectory: context.dataDirectory)
    return [try BookingScreens.feature(services: services, account: payer, context: context)]
  }, travellerLanguage: BackendServices.travellerLanguage)
exit(tool.run(arguments: Array(CommandLine.arguments.dropFirst())))
