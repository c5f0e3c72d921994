// `car-rental`: the Cars feature on its own (embedded backend, or a travel-server with --server).
import Backend
import CarRental
import Common
import CommonUI
import Foundation
import Remote

let environment = CarRentalEnvironment(service: { context -> any CarRentalService in
  if let remote = RemoteWiring(context) { return remote.cars }
  return try CarRentalWiring.service(context: context)
})
let root = CarRentalCommands.root(name: "car-rental", environment: environment)
let tool = CommandLineTool(
  root: root.openingInteractiveApp { context in
    let session =
      try RemoteWiring(context)?.accountSession()
      ?? BackendServices.accountSession(dataDirectory: context.dataDirectory)
    return [try CarRentalScreens.feature(environment: environment, context: context, session: session)].withChat(
      try RemoteWiring(context)?.chatService ?? BackendServices(dataDirectory: context.dataDirectory).chatService,
      dataDirectory: context.dataDirectory, session: session)
  }, travellerLanguage: BackendServices.travellerLanguage)
exit(tool.run(arguments: Array(CommandLine.arguments.dropFirst())))
