// `account`: the Account feature on its own, on the embedded backend.
import Account
import Backend
import Common
import CommonUI
import Foundation

// The store opens only when a command runs (never for --help or a usage error).
let environment: AccountEnvironment.Factory = { context in
  let backend = try BackendServices(dataDirectory: context.dataDirectory)
  return AccountEnvironment(
    accounts: backend.accountService, cards: backend.cardService, reservations: backend.reservationService)
}
let root = AccountCommands.root(name: "account", environment: environment)
let tool = CommandLineTool(
  root: root.openingInteractiveApp { context in
    [try AccountScreens.feature(context: context, environment: environment)]
  }, travellerLanguage: BackendServices.travellerLanguage)
exit(tool.run(arguments: Array(CommandLine.arguments.dropFirst())))
