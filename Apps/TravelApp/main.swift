// `travel`: the assembled app; each feature's commands mounted under its noun.
import Account
import Backend
import Barcodes
import Booking
import CarRental
import Common
import CommonUI
import Foundation
import Hotel
import Remote

// Every service: a travel-server when the context names one (--server, TRAVEL_SERVER), else the embedded backend.
let hotelEnvironment = HotelEnvironment(service: { context -> any HotelService in
  if let remote = RemoteWiring(context) { return remote.hotels }
  return try HotelBackend.service(dataDirectory: context.dataDirectory)
})
// The store opens only when an account command runs (never for --help or a usage error).
let accountEnvironment: AccountEnvironment.Factory = { context in
  if let remote = RemoteWiring(context) {
    return AccountEnvironment(
      accounts: remote.accounts, cards: remote.accounts, reservations: remote.accounts, checkIn: remote.checkIn,
      barcodes: ZintRenderer(), live: remote.live, flightStatus: remote.flightStatus(clock: context.clock))
  }
  let backend = try BackendServices(dataDirectory: context.dataDirectory)
  return AccountEnvironment(
    accounts: backend.accountService, cards: backend.cardService, reservations: backend.reservationService,
    checkIn: backend.checkInService(on: context.clock), barcodes: ZintRenderer(),
    live: StoreLiveUpdates(services: backend),
    flightStatus: try FlightsWiring.status(context: context))
}

let flightServices = BookingServices(
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
let flights = BookingCommands.root(services: flightServices)
  .renamed("flights", summary: "Search and book flights.")
let hotels = HotelCommands.root(environment: hotelEnvironment).renamed("hotels", summary: "Search and book hotels.")
let carEnvironment = CarRentalEnvironment(service: { context -> any CarRentalService in
  if let remote = RemoteWiring(context) { return remote.cars }
  return try CarRentalWiring.service(context: context)
})
let cars = CarRentalCommands.root(environment: carEnvironment)
  .renamed("cars", summary: "Search and book rental cars.")
let account = AccountCommands.root(environment: accountEnvironment)
  .renamed("account", summary: "Sign up, sign in, profile, preferences, cards.")

// The chat with a travel agent: `travel chat …` and the sheet over every tab (Ctrl-T).
let chat: ChatCommands.Factory = { context in
  try RemoteWiring(context)?.chatService ?? BackendServices(dataDirectory: context.dataDirectory).chatService
}
let root = Command(
  name: "travel",
  summary: "A travel app: flights, hotels, rental cars, your account and trips.",
  subcommands: [
    flights, hotels, cars, account,
    AccountCommands.trips(environment: accountEnvironment)
      .renamed("trips", summary: "Your trips: list, show, cancel, export, check in, boarding passes."),
    ChatCommands.group(service: chat),
  ]
)
// No command on a terminal: the interactive app, one tab per feature, opening on Flights.
let app = root.openingInteractiveApp { context in
  // The one session every tab and the header follow (who pays in a booking screen, the Account tab).
  let session =
    try RemoteWiring(context)?.accountSession() ?? BackendServices.accountSession(dataDirectory: context.dataDirectory)
  return [
    try BookingScreens.feature(services: flightServices, session: session, context: context),
    try HotelScreens.feature(environment: hotelEnvironment, context: context, session: session),
    try CarRentalScreens.feature(environment: carEnvironment, context: context, session: session),
    try AccountScreens.feature(context: context, environment: accountEnvironment, session: session),
  ].withChat(try chat(context), dataDirectory: context.dataDirectory, session: session)
}
exit(
  CommandLineTool(root: app, travellerLanguage: BackendServices.travellerLanguage).run(
    arguments: Array(CommandLine.arguments.dropFirst())))
