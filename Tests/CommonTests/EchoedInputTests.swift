import Foundation
import Testing

@testable import Common

/// Input echoed in messages is escaped (QA: `invalid --passenger "Ada^[]0;pwn^G Lovelace"` set the
/// terminal's title), and the one name rule serves passengers, guests and drivers.
@Suite struct EchoedInputTests {
  @Test func controlCharacters_areEscaped_theRestKept() {
    #expect(EchoedInput.escaped("Ada \u{1B}]0;pwn\u{7} Lovelace") == #"Ada \u{1B}]0;pwn\u{7} Lovelace"#)
    #expect(EchoedInput.escaped("a\nb\tc\u{7F}\u{9B}\u{2028}") == #"a\u{A}b\u{9}c\u{7F}\u{9B}\u{2028}"#)
    #expect(EchoedInput.escaped("Zoë O'Brien-Łukasz 李") == "Zoë O'Brien-Łukasz 李")
    #expect(EchoedInput.quoted("Ada\u{1B}") == #""Ada\u{1B}""#)
  }

  @Test func passengerMessage_echoesTheNameEscaped() {
    do {
      _ = try PassengerName(parsing: "Ada\u{1B}]0;pwn\u{7} Lovelace")
      Issue.record("expected invalid_passenger")
    } catch let error as ServiceError {
      #expect(error.code == "invalid_passenger")
      #expect(error.message.hasPrefix(#"invalid --passenger "Ada\u{1B}]0;pwn\u{7} Lovelace": expected"#))
      #expect(!error.message.unicodeScalars.contains { $0.properties.generalCategory == .control })
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test(arguments: ["Ada \u{1B}[2JLovelace", "1 2", "Ada", "", "Ada Lovelace\u{7}"])
  func driverRule_isThePassengerRule(_ name: String) {
    do {
      _ = try PassengerName(parsing: name, option: "driver", code: "invalid_driver")
      Issue.record("expected invalid_driver for \(name.debugDescription)")
    } catch let error as ServiceError {
      #expect(error.code == "invalid_driver")
      #expect(error.message.hasPrefix("invalid --driver \""))
      #expect(!error.message.unicodeScalars.contains { $0.properties.generalCategory == .control })
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test func driverRule_acceptsWhatPassengersAccept() throws {
    let name = try PassengerName(parsing: "  Ada  King-Noel Lovelace ", option: "driver", code: "invalid_driver")
    #expect(name.description == "Ada King-Noel Lovelace")
  }
}
