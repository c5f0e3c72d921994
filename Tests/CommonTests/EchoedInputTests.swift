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

  /// #14: messages echoed a 100,000-character input in full, and a bidirectional override could
  /// show the rest of a message backwards.
  @Test func longInput_isEchoedAsAPrefixWithItsLength_bidiControlsEscaped() {
    let long = String(repeating: "x", count: 100_000)
    #expect(EchoedInput.quoted(long) == "\"" + String(repeating: "x", count: 40) + "…\" (100,000 characters)")
    #expect(EchoedInput.escaped("a\u{202E}b\u{2067}c") == #"a\u{202E}b\u{2067}c"#)
    // Every error, however it was worded, is bounded.
    let service = ServiceError.invalid("unknown_place", "unknown place \"\(long)\": expected an IATA code")
    #expect(service.message.count < 120)
    #expect(service.message.hasSuffix("…\" (100,000 characters): expected an IATA code"))
    let usage = CLIError.usage("unknown command \"\(long)\"")
    #expect(usage.message.count < 120)
    let raw = ServiceError.invalid("x", "bad \"a\u{1B}[2Jb\u{202E}c\"\nnext line")
    #expect(raw.message == "bad \"a\\u{1B}[2Jb\\u{202E}c\"\nnext line")
    #expect(ServiceError.invalid("x", "plain \"short\" text").message == "plain \"short\" text")
    let unquoted = ServiceError.invalid("x", String(repeating: "y", count: 5000))
    #expect(unquoted.message.count < 2100)
  }

  @Test func passengerMessage_echoesTheNameEscaped() {
    do {
      _ = try PassengerName(parsing: "Ada\u{1B}]0;pwn\u{7} Lovelace")
      Issue.record("expected invalid_passenger")
    } catch let error as ServiceError {
      #expect(error.code == "invalid_passenger")
      #expect(error.message.hasPrefix(#"invalid --passenger "Ada\u{1B}]0;pwn\u{7} Lovelace": the name contains"#))
      #expect(!error.message.unicodeScalars.contains { $0.properties.generalCategory == .control })
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test(arguments: ["Ada \u{1B}[2JLovelace", "1 2", "", "Ada Lovelace\u{7}", "Ada \u{202E}ecalevoL"])
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

  /// #14: a mononym was refused although airlines book mononymous travellers; a 100-letter name
  /// was refused as "expected Given Family" without naming the limit; a right-to-left override
  /// was accepted.
  @Test func nameRule_mononymsLengthAndBidiControls() throws {
    let single = try PassengerName(parsing: " Suharto ")
    #expect(single == PassengerName(given: "", family: "Suharto"))
    #expect(single.description == "Suharto")
    #expect(PassengerName.problem(in: String(repeating: "a", count: 80)) == nil)
    let long = String(repeating: "a", count: 50) + " " + String(repeating: "b", count: 50)
    #expect(PassengerName.problem(in: long) == .tooLong(101))
    do {
      _ = try PassengerName(parsing: long)
      Issue.record("expected invalid_passenger")
    } catch let error as ServiceError {
      #expect(error.message.contains("the name is 101 characters long: use at most 80"))
      #expect(error.message.count < 200)  // the input is echoed as a short prefix
    }
    #expect(PassengerName.problem(in: "Ada \u{202E}ecalevoL") == .invisible("\u{202E}"))
    #expect(PassengerName.problem(in: "Ada\u{2066} Lovelace") == .invisible("\u{2066}"))
    #expect(PassengerName.problem(in: "Ada Lovelace2") == .notALetter("2"))
    #expect(PassengerName.problem(in: "   ") == .missing)
    #expect(PassengerName.problem(in: "Zoë O'Brien-Łukasz 李") == nil)
    #expect(
      PassengerName.formProblem("Ada \u{202E}x", whose: "the guest's")
        == "The guest's name \"Ada \\u{202E}x\" contains an invisible control character (U+202E): type the name as on the passport."
    )
  }

  @Test func driverRule_acceptsWhatPassengersAccept() throws {
    let name = try PassengerName(parsing: "  Ada  King-Noel Lovelace ", option: "driver", code: "invalid_driver")
    #expect(name.description == "Ada King-Noel Lovelace")
  }
}
