import Foundation
import Testing

@testable import Common

@Suite struct SecretInputTests {
  @Test func scriptedInput_readsOneLinePerSecretWithoutPrompting() throws {
    let console = Console.capturing(input: ["correct horse battery\r", "4242424242424242"])
    #expect(!SecretInput.readsFromTerminal(console: console))
    #expect(try SecretInput.read(prompt: "Password: ", console: console) == "correct horse battery")
    #expect(try SecretInput.read(prompt: "Card number: ", console: console) == "4242424242424242")
    #expect(try SecretInput.read(prompt: "CVC: ", console: console) == nil)
    #expect(console.output.isEmpty)
    #expect(console.errorOutput.isEmpty)
  }
}
