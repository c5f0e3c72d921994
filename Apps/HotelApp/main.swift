// `hotel`: the Hotels feature on its own.
import Common
import Foundation
import Hotel

let tool = CommandLineTool(root: HotelCommands.root(name: "hotel"))
exit(tool.run(arguments: Array(CommandLine.arguments.dropFirst())))
