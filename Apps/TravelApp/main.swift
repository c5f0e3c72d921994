// `travel`: the assembled app; each feature's commands mounted under its noun.
import Account
import Backend
import Booking
import CarRental
import Common
import CommonUI
import Foundation
import Hotel

let hotelEnvironment = HotelEnvironment(service: { try HotelBackend.service(dataDirectory: $0.dataDirectory) })
// The store opens only when an account command runs (never for --help or a usage error).
let accountEnvironment: AccountEnvironment.Factory = { context in
  let backend = try BackendServices(dataDirectory: context.dataDirectory)
  return AccountEnvironment(
    accounts: backend.accountService, cards: backend.cardService, reservations: backend.reservationService)
}

let flightServices = BookingServices(
  flights: FlightsWiring.search(context:), booking: FlightsWiring.booking(context:),
  status: FlightsWiring.status(context:))
let flights = BookingCommands.root(services: flightServices)
  .renamed("flights", summary: "Search and book flights.")
let hotels = HotelCommands.root(environment: hotelEnvironment).renamed("hotels", summary: "Search and book hotels.")
let carEnvironment = CarRentalEnvironment(service: CarRentalWiring.service(context:))
let cars = CarRentalCommands.root(environment: carEnvironment)
  .renamed("cars", summary: "Search and book rental cars.")
let account = AccountCommands.root(environment: accountEnvironment)
  .renamed("account", summary: "Sign up, sign in, profile, preferences, cards.")

let root = Command(
  name: "travel",
  summary: "A travel app: flights, hotels, rental cars, your account and trips.",
  subcommands: [
    flights, hotels, cars, account,
    AccountCommands.trips(environment: accountEnvironment)
      .renamed("trips", summary: "Your trips: list, show, cancel, export to a calendar."),
  ]
)
// No command on a terminal: the interactive app, one tab per feature, opening on Flights.
let app = root.openingInteractiveApp { context in
  // Who pays in a booking screen (every tab): the session and cards of the context's store.
  let payer = try BackendServices.bookingAccount(dataDirectory: context.dataDirectory)
  return [
    try BookingScreens.feature(services: flightServices, account: payer, context: context),
    try HotelScreens.feature(environment: hotelEnvironment, context: context, account: payer),
    try CarRentalScreens.feature(environment: carEnvironment, context: context, account: payer),
    try AccountScreens.feature(context: context, environment: accountEnvironment),
  ]
}
exit(
  CommandLineTool(root: app, travellerLanguage: BackendServices.travellerLanguage).run(
    arguments: Array(CommandLine.arguments.dropFirst())))
