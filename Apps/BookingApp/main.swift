// `booking`: the Flights feature on its own (embedded backend, or a travel-server with --server).
import Backend
import Barcodes
import Booking
import Common
import CommonUI
import Foundation
import Remote

let services = BookingServices(
  flights: { context -> any FlightSearching in
    if let remote = RemoteWiring(context) { return remote.flights }
    return try FlightsWiring.search(context: context)
  },
  booking: { context -> any FlightBooking in
    if let remote = RemoteWiring(context) { return remote.flights }
    return try FlightsWiring.booking(context: context)
  },
  status: FlightsWiring.status(context:),
  checkIn: { try BackendServices(dataDirectory: $0.dataDirectory).checkInService }, barcodeScanner: ZXingScanner(),
  radar: FlightsWiring.radar(context:))
let root = BookingCommands.root(name: "booking", services: services)
let tool = CommandLineTool(
  root: root.openingInteractiveApp { context in
    let session =
      try RemoteWiring(context)?.accountSession()
      ?? BackendServices.accountSession(dataDirectory: context.dataDirectory)
    return [try BookingScreens.feature(services: services, session: session, context: context)]
  }, travellerLanguage: BackendServices.travellerLanguage)
exit(tool.run(arguments: Array(CommandLine.arguments.dropFirst())))
