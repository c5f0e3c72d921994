// `account`: the Account feature on its own, on the embedded backend or a travel-server (--server).
import Account
import Backend
import Barcodes
import Common
import CommonUI
import Foundation
import Remote

// The store opens only when a command runs (never for --help or a usage error).
let environment: AccountEnvironment.Factory = { context in
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
let root = AccountCommands.root(name: "account", environment: environment)
let tool = CommandLineTool(
  root: root.openingInteractiveApp { context in
    let session =
      try RemoteWiring(context)?.accountSession()
      ?? BackendServices.accountSession(dataDirectory: context.dataDirectory)
    return [try AccountScreens.feature(context: context, environment: environment, session: session)].withChat(
      try RemoteWiring(context)?.chatService ?? BackendServices(dataDirectory: context.dataDirectory).chatService,
      dataDirectory: context.dataDirectory, session: session)
  }, travellerLanguage: BackendServices.travellerLanguage)
exit(tool.run(arguments: Array(CommandLine.arguments.dropFirst())))
