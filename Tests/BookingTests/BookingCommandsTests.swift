import Common
import Testing

@testable import Booking

@Suite struct BookingCommandsTests {
  @Test func help_saysPlainlyWhichCommandsExist() {
    let console = Console.capturing()
    let status = CommandLineTool(root: BookingCommands.root()).run(
      arguments: ["--help"], environment: [:], console: console)
    #expect(status == 0)
    #expect(console.output.hasPrefix("USAGE: booking"))
    #expect(console.output.contains("This version has no"))
  }

  @Test func unknownCommand_exitsTwo() {
    let console = Console.capturing()
    let status = CommandLineTool(root: BookingCommands.root()).run(
      arguments: ["nonsense"], environment: [:], console: console)
    #expect(status == 2)
    #expect(console.errorOutput.contains("nonsense"))
  }
}
