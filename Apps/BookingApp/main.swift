// `booking`: the Flights feature on its own.
import Backend
import Barcodes
import Booking
import Common
import CommonUI
import Foundation

let services = BookingServices(
  flights: FlightsWiring.search(context:), booking: FlightsWiring.booking(context:),
  status: FlightsWiring.status(context:),
  checkIn: { try BackendServices(dataDirectory: $0.dataDirectory).checkInService }, barcodeScanner: ZXingScanner())
let root = BookingCommands.root(name: "booking", services: services)
let tool = CommandLineTool(
  root: root.openingInteractiveApp { context in
    let session = try BackendServices.accountSession(dataDirectory: context.dataDirectory)
    return [try BookingScreens.feature(services: services, session: session, context: context)]
  })
exit(tool.run(arguments: Array(CommandLine.arguments.dropFirst())))
