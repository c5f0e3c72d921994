// `hotel`: the Hotels feature on its own.
import Backend
import Common
import Foundation
import Hotel

let environment = HotelEnvironment(service: { try HotelBackend.service(dataDirectory: $0.dataDirectory) })
let tool = CommandLineTool(root: HotelCommands.root(name: "hotel", environment: environment))
exit(tool.run(arguments: Array(CommandLine.arguments.dropFirst())))
