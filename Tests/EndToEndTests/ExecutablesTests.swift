import CommonTesting
import Foundation
import Testing

/// Runs each built product as a user would.
@Suite struct ExecutablesTests {
  static let products = ["travel", "booking", "hotel", "car-rental", "account"]

  @Test(arguments: products)
  func help_printsUsageAndExitsZero(product: String) throws {
    let result = try ProductRunner().run(product, ["--help"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("USAGE: \(product)"))
    #expect(result.stderr.isEmpty)
  }

  @Test(arguments: products)
  func version_printsTheVersion(product: String) throws {
    let result = try ProductRunner().run(product, ["--version"])
    #expect(result.status == 0)
    #expect(result.stdout == "\(product) 0.1.0\n")
  }

  @Test(arguments: products)
  func unknownOption_exitsTwoWithAMessageOnStderr(product: String) throws {
    let result = try ProductRunner().run(product, ["--bogus"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("unknown option \"--bogus\""))
  }

  @Test func noTerminal_noCommand_printsHelp() throws {
    let result = try ProductRunner().run("travel", [])
    #expect(result.status == 0)
    #expect(result.stdout.contains("COMMANDS:"))
    #expect(result.stdout.contains("flights"))
  }
}
