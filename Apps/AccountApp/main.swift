// `account`: the Account feature on its own, on the embedded backend.
import Account
import Backend
import Barcodes
import Common
import CommonUI
import Foundation

// The store opens only when a command runs (never for --help or a usage error).
let environment: AccountEnvironment.Factory = { context in
  let backend = try BackendServices(dataDirectory: context.dataDirectory)
  return AccountEnvironment(
    accounts: backend.accountService, cards: backend.cardService, reservations: backend.reservationService,
    checkIn: backend.checkInService, barcodes: ZintRenderer())
}
let root = AccountCommands.root(name: "account", environment: environment)
let tool = CommandLineTool(
  root: root.openingInteractiveApp { context in
    let session = try BackendServices.accountSession(dataDirectory: context.dataDirectory)
    return [try AccountScreens.feature(context: context, environment: environment, session: session)]
  })
exit(tool.run(arguments: Array(CommandLine.arguments.dropFirst())))
