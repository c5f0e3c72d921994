// `hotel`: the Hotels feature on its own (embedded backend, or a travel-server with --server).
import Backend
import Common
import CommonUI
import Foundation
import Hotel
import Remote

let environment = HotelEnvironment(service: { context -> any HotelService in
  if let remote = RemoteWiring(context) { return remote.hotels }
  return try HotelBackend.service(dataDirectory: context.dataDirectory)
})
let root = HotelCommands.root(name: "hotel", environment: environment)
let tool = CommandLineTool(
  root: root.openingInteractiveApp { context in
    let session =
      try RemoteWiring(context)?.accountSession()
      ?? BackendServices.accountSession(dataDirectory: context.dataDirectory)
    return [try HotelScreens.feature(environment: environment, context: context, session: session)].withChat(
      try RemoteWiring(context)?.chatService ?? BackendServices(dataDirectory: context.dataDirectory).chatService,
      dataDirectory: context.dataDirectory, session: session)
  }, travellerLanguage: BackendServices.travellerLanguage)
exit(tool.run(arguments: Array(CommandLine.arguments.dropFirst())))
