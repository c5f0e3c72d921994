// `travel-agent`: the travel agents' console (embedded backend, or a travel-server with --server).
import Agency
import Backend
import Common
import CommonUI
import Foundation
import Remote

let environment = AgencyEnvironment(console: { context -> any AgentConsoleService in
  if let remote = RemoteWiring(context) { return remote.agentConsole }
  return try BackendServices(dataDirectory: context.dataDirectory).agentConsoleService
})
let root = AgencyCommands.root(environment: environment).openingInteractiveApp { context in
  [try AgencyScreens.feature(environment: environment, context: context)]
}
exit(CommandLineTool(root: root).run(arguments: Array(CommandLine.arguments.dropFirst())))
