// `travel`: the assembled app; each feature's commands mounted under its noun.
import Account
import Backend
import Booking
import CarRental
import Common
import Foundation
import Hotel

let hotelEnvironment = HotelEnvironment(service: { try HotelBackend.service(dataDirectory: $0.dataDirectory) })
// The store opens only when an account command runs (never for --help or a usage error).
let accountEnvironment: AccountEnvironment.Factory = { context in
  let backend = try BackendServices(dataDirectory: context.dataDirectory)
  return AccountEnvironment(
    accounts: backend.accountService, cards: backend.cardService, reservations: backend.reservationService)
}

let root = Command(
  name: "travel",
  summary: "A travel app: flights, hotels, rental cars, your account and trips.",
  subcommands: [
    BookingCommands.root(
      services: BookingServices(flights: FlightsWiring.search(context:), booking: FlightsWiring.booking(context:))
    )
    .renamed("flights", summary: "Search and book flights."),
    HotelCommands.root(environment: hotelEnvironment).renamed("hotels", summary: "Search and book hotels."),
    CarRentalCommands.root(environment: CarRentalEnvironment(service: CarRentalWiring.service(context:)))
      .renamed("cars", summary: "Search and book rental cars."),
    AccountCommands.root(environment: accountEnvironment)
      .renamed("account", summary: "Sign up, sign in, profile, preferences, cards."),
    AccountCommands.trips(environment: accountEnvironment)
      .renamed("trips", summary: "Your trips: list, show, cancel, export to a calendar."),
  ]
)
exit(CommandLineTool(root: root).run(arguments: Array(CommandLine.arguments.dropFirst())))
