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
  status: { context -> any FlightStatusService in
    if let remote = RemoteWiring(context) { return remote.flightStatus(clock: context.clock) }
    return try FlightsWiring.status(context: context)
  },
  checkIn: { context -> any CheckInService in
    if let remote = RemoteWiring(context) { return remote.checkIn }
    return try BackendServices(dataDirectory: context.dataDirectory).checkInService(on: context.clock)
  }, barcodeScanner: ZXingScanner(),
  homeAirport: { context in
    RemoteWiring(context).map { $0.homeAirport() } ?? FlightsWiring.homeAirport(context: context)
  },
  radar: FlightsWiring.radar(context:))
let root = BookingCommands.root(name: "booking", services: services)
let tool = CommandLineTool(
  root: root.openingInteractiveApp { context in
    let session =
      try RemoteWiring(context)?.accountSession()
      ?? BackendServices.accountSession(dataDirectory: context.dataDirectory)
    return [try BookingScreens.feature(services: services, session: session, context: context)].withChat(
      try RemoteWiring(context)?.chatService ?? BackendServices(dataDirectory: context.dataDirectory).chatService,
      dataDirectory: context.dataDirectory, session: session)
  }, travellerLanguage: BackendServices.travellerLanguage)
exit(tool.run(arguments: Array(CommandLine.arguments.dropFirst())))
