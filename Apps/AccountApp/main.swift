// `account`: the Account feature on its own.
import Account
import Common
import Foundation

let tool = CommandLineTool(root: AccountCommands.root(name: "account"))
exit(tool.run(arguments: Array(CommandLine.arguments.dropFirst())))
