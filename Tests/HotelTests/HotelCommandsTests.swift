import Common
import Testing

@testable import Hotel

@Suite struct HotelCommandsTests {
  @Test func help_saysPlainlyWhichCommandsExist() {
    let console = Console.capturing()
    let status = CommandLineTool(root: HotelCommands.root()).run(
      arguments: ["--help"], environment: [:], console: console)
    #expect(status == 0)
    #expect(console.output.hasPrefix("USAGE: hotel"))
    #expect(console.output.contains("This version has no"))
  }

  @Test func unknownCommand_exitsTwo() {
    let console = Console.capturing()
    let status = CommandLineTool(root: HotelCommands.root()).run(
      arguments: ["nonsense"], environment: [:], console: console)
    #expect(status == 2)
    #expect(console.errorOutput.contains("nonsense"))
  }
}
