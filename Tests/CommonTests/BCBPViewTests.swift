import Common
import CommonTesting
import Foundation
import Testing

/// ``BCBPView`` against the parser it replaced (``ReferenceBCBPParser``, the code of main 7c21699):
/// on valid passes every field read from the view is the old parser's, and so is every quirk; on
/// malformed text the view and ``BCBPParser/parse(_:mode:)`` refuse with the same error (item,
/// position, reason), in strict and lenient mode.
@Suite struct BCBPViewTests {
  /// Passes of the Implementation Guide's shapes and the lenient quirks (see BCBPParserTests).
  static let corpus = [
    "M1DESMARAIS/LUC       EABC123 YULFRAAC 0834 326J001A0025 100",
    "M1DESMARAIS/LUC       EAB12C3 YULFRAAC 0834 326J003A0027 167>5321WW1325BAC 0014123456002001412346700100141234789012A0141234567890 1AC AC 1234567890123    4PCYLX58Z^108ABCDEFGH",
    "M1GRANDMAIRE/MELANIE  EABC123 GVACDGAF 0123 339C002F0025 130>5002A0571234567890  AF AF 1234567890123456    Y^108ABCDEFGH",
    "M2DESMARAIS/LUC       EAB12C3 YULFRAAC 0834 326J003A0027 167>5321WW1325BAC 0014123456002001412346700100141234789012A0141234567890 1AC AC 1234567890123    4PCYLX58ZDEF456 FRAGVALH 3664 327C012C0002 12E2A0140987654321 1AC AC 1234567890123    3PCNWQ^108ABCDEFGH",
    "M1DESMARAIS/LUC        ABC123 YULFRAAC 0834 326J001A0025 100",
    "M1DESMARAIS/LUC      EABC123 YULFRAAC 0834 326J001A0025 100",
    "M1DESMARAIS/LUC       EABC123 YULFRAAC 834 326J001A0025 100",
    "M1DESMARAIS/LUC       EABC123 YULFRAAC  834 326J001A0025 100",
    "M1DESMARAIS/LUC       EABC123 YULFRAAC 0834 326J001A0025 14D",
    "M1GRANDMAIRE/MELANIE  EABC123 GVACDGAF 0123 339C002F0025 100>5002A0571234567890  AF AF 1234567890123456    Y^108ABCDEFGH",
    "M2DESMARAIS/LUC       EAB12C3 YULFRAAC 0834 326J003A0027 169>5321WW1325BAC 0014123456002001412346700100141234789012A0141234567890 1AC AC 1234567890123    4PCYLX58ZDEF456 FRAGVALH 3664 327C012C0002 12E2A0140987654321 1AC AC 1234567890123    3PCNWQ^108ABCDEFGH",
    "M2DESMARAIS/LUC       EABC123 YULFRAAC 0834 326J001A0025 100" + String(repeating: " ", count: 35) + "00",
    "M1DESMARAIS/LUC       EABC123 YULFRAAC 0834 326J001A0025 100\r\n",
    "M1DESMARAIS/LUC       EAB12C3 YULFRAAC 0834 326J003A0027 167>5321WW9999BAC 0014123456002001412346700100141234789012A0141234567890 1AC AC 1234567890123    4PCYLX58Z^108ABCDEFGH",
    "M1DESMARAIS/LUC       EAB12C3 YULFRAAC 0834 326J003A0027 167>5321WW1325BAC 0014123456002001412346700100141234789012A0141234567890 1AC AC 1234567890123    4PCYLX58Z^1",
    "M1DESMARAIS/LUC       EABC123 YULFRAAC 0834 326J001A0025 10a0123456789ab",
  ]

  /// The fields of a pass by name, read one by one from the view's accessors.
  static func fields(_ view: BCBPView) -> [String: String] {
    var fields = [
      "passengerName": view.passengerName, "electronicTicketIndicator": view.electronicTicketIndicator,
      "version": view.version ?? "nil", "passengerDescription": view.passengerDescription,
      "checkInSource": view.checkInSource, "issuanceSource": view.issuanceSource, "issueDate": view.issueDate,
      "documentType": view.documentType, "issuer": view.issuer, "baggageTag": view.baggageTag,
      "firstNonConsecutiveBaggageTag": view.firstNonConsecutiveBaggageTag,
      "secondNonConsecutiveBaggageTag": view.secondNonConsecutiveBaggageTag,
      "securityType": view.securityType ?? "nil", "securityData": view.securityData, "legs": "\(view.legs.count)",
    ]
    for (index, leg) in view.legs.enumerated() {
      let values = [
        leg.pnr, leg.from, leg.to, leg.carrier, leg.flightNumber, "\(leg.dayOfYear)", leg.compartment, leg.seat,
        leg.checkInSequence, leg.passengerStatus, leg.airlineNumericCode, leg.documentSerialNumber,
        leg.selecteeIndicator, leg.internationalDocumentationVerification, leg.marketingCarrier,
        leg.frequentFlyerAirline, leg.frequentFlyerNumber, leg.idAdIndicator, leg.freeBaggageAllowance,
        leg.fastTrack, leg.airlineData,
      ]
      for (number, value) in values.enumerated() { fields["leg\(index).\(number)"] = value }
    }
    return fields
  }

  /// The same fields of a pass the old parser built.
  static func fields(_ pass: BoardingPass) -> [String: String] {
    var fields = [
      "passengerName": pass.passengerName, "electronicTicketIndicator": pass.electronicTicketIndicator,
      "version": pass.version ?? "nil", "passengerDescription": pass.passengerDescription,
      "checkInSource": pass.checkInSource, "issuanceSource": pass.issuanceSource, "issueDate": pass.issueDate,
      "documentType": pass.documentType, "issuer": pass.issuer, "baggageTag": pass.baggageTag,
      "firstNonConsecutiveBaggageTag": pass.firstNonConsecutiveBaggageTag,
      "secondNonConsecutiveBaggageTag": pass.secondNonConsecutiveBaggageTag,
      "securityType": pass.securityType ?? "nil", "securityData": pass.securityData, "legs": "\(pass.legs.count)",
    ]
    for (index, leg) in pass.legs.enumerated() {
      let values = [
        leg.pnr, leg.from, leg.to, leg.carrier, leg.flightNumber, "\(leg.dayOfYear)", leg.compartment, leg.seat,
        leg.checkInSequence, leg.passengerStatus, leg.airlineNumericCode, leg.documentSerialNumber,
        leg.selecteeIndicator, leg.internationalDocumentationVerification, leg.marketingCarrier,
        leg.frequentFlyerAirline, leg.frequentFlyerNumber, leg.idAdIndicator, leg.freeBaggageAllowance,
        leg.fastTrack, leg.airlineData,
      ]
      for (number, value) in values.enumerated() { fields["leg\(index).\(number)"] = value }
    }
    return fields
  }

  static func outcome<T>(_ body: () throws -> T) -> Result<T, BCBPError> {
    do {
      return .success(try body())
    } catch let error as BCBPError {
      return .failure(error)
    } catch {
      Issue.record("not a BCBPError: \(error)")
      return .failure(BCBPError(item: nil, position: 0, reason: "\(error)"))
    }
  }

  /// Reads `text` in `mode` with the view, the parser and the old parser, and checks they agree.
  /// Returns whether the text was a pass.
  @discardableResult
  static func expectSame(_ text: String, mode: BCBPParser.Mode, references: [LocalDate] = []) -> Bool {
    let old = outcome { try ReferenceBCBPParser.parse(text, mode: mode) }
    let view = outcome { try BCBPView(text, mode: mode) }
    let parsed = outcome { try BCBPParser.parse(text, mode: mode) }
    switch (old, view, parsed) {
    case (.failure(let expected), .failure(let viewError), .failure(let parseError)):
      #expect(viewError == expected, "\(mode) \(text.debugDescription)")
      #expect(parseError == expected, "\(mode) \(text.debugDescription)")
      #expect(viewError.message == expected.message)
      return false
    case (.success(let expected), .success(let view), .success(let parsed)):
      #expect(fields(view) == fields(expected.pass), "\(mode) \(text.debugDescription)")
      #expect(view.quirks == expected.quirks, "\(mode) \(text.debugDescription)")
      #expect(view.pass == expected.pass)
      #expect(parsed == expected)
      for (index, leg) in view.legs.enumerated() { #expect(leg.leg == expected.pass.legs[index]) }
      // Dates: the integer reading of item 22 and the flight dates are the old ones.
      if let (digit, day) = view.issueDateDigits {
        #expect(expected.pass.issueDate == "\(digit)" + String(format: "%03d", day))
      } else {
        #expect(
          ReferenceBCBPParser.issueDate(expected.pass.issueDate, reference: LocalDate(year: 2028, month: 1, day: 1)!)
            == nil)
      }
      for reference in references {
        #expect(
          view.issueDate(reference: reference)
            == ReferenceBCBPParser.issueDate(expected.pass.issueDate, reference: reference))
        let dates = ReferenceBCBPParser.flightDates(expected.pass, reference: reference)
        #expect(view.legs.indices.map { view.flightDate(leg: $0, reference: reference) } == dates, "\(text)")
        #expect(expected.pass.flightDates(reference: reference) == dates)
      }
      return true
    default:
      Issue.record("\(mode) \(text.debugDescription): old \(old), view \(view), parse \(parsed)")
      return false
    }
  }

  static let references = [
    LocalDate(year: 2027, month: 12, day: 31)!, LocalDate(year: 2028, month: 2, day: 29)!,
    LocalDate(year: 2029, month: 6, day: 1)!, LocalDate(year: 2035, month: 1, day: 1)!,
  ]

  @Test func corpus_readsAsTheOldParserDid() {
    for text in Self.corpus {
      for mode in [BCBPParser.Mode.strict, .lenient] { Self.expectSame(text, mode: mode, references: Self.references) }
    }
  }

  /// Random valid passes (1–4 legs, every conditional item, signatures; dates across two new years
  /// and a leap day): every field from the view is the old parser's, in both modes.
  @Test func randomPasses_readAsTheOldParserDid() throws {
    for sample in BoardingPassSamples.make(count: 2_000, seed: 2_026) {
      let text = try sample.pass.encoded()
      #expect(Self.expectSame(text, mode: .strict, references: [sample.issued]))
      #expect(Self.expectSame(text, mode: .lenient))
      // The view's flight dates are the sample's.
      let view = try BCBPView(text)
      let reference =
        sample.pass.issueDate.isEmpty ? sample.flightDates[0].adding(days: -100) : sample.issued.adding(days: 1_200)
      #expect(view.legs.indices.map { view.flightDate(leg: $0, reference: reference) } == sample.flightDates)
    }
  }

  /// Damaged passes (characters changed, removed, inserted; cut anywhere; sizes, legs and the
  /// electronic-ticket flag altered; control and non-ASCII characters): the view refuses with the
  /// old error (item, position, reason) or reads what the old parser read, quirks included.
  @Test func malformedPasses_refusedWithTheSameMessage() throws {
    var random = SeededRandom(seed: 792)
    let texts = try BoardingPassSamples.make(count: 200, seed: 11).map { try $0.pass.encoded() } + Self.corpus
    let pool = Array(" 0123456789ABCDEFXYZ>^/abcé\u{0}\u{7F}\n")
    var refused = 0
    var read = 0
    for text in texts {
      var variants: [String] = []
      let characters = Array(text)
      for _ in 0..<8 {
        var damaged = characters
        for _ in 0..<Int.random(in: 1...3, using: &random) where !damaged.isEmpty {
          let index = Int.random(in: 0..<damaged.count, using: &random)
          switch Int.random(in: 0..<3, using: &random) {
          case 0: damaged[index] = pool.randomElement(using: &random)!
          case 1: damaged.remove(at: index)
          default: damaged.insert(pool.randomElement(using: &random)!, at: index)
          }
        }
        variants.append(String(damaged))
      }
      variants.append(String(characters.prefix(Int.random(in: 0..<characters.count, using: &random))))
      variants.append("M0" + characters.dropFirst(2))
      variants.append("M5" + characters.dropFirst(2))
      variants.append(String(characters.prefix(22)) + " " + characters.dropFirst(23))
      variants.append(text + "  ")
      for variant in variants {
        for mode in [BCBPParser.Mode.strict, .lenient] {
          if Self.expectSame(variant, mode: mode) { read += 1 } else { refused += 1 }
        }
      }
    }
    // Both outcomes are exercised.
    #expect(refused > 1_000 && read > 1_000, "\(refused) refused, \(read) read")
  }

  /// A view of a pass, its fields read without building a BoardingPass.
  @Test func view_readsFieldsOnAccess() throws {
    let view = try BCBPParser.view(Self.corpus[3])
    #expect(view.legs.count == 2)
    #expect(view.passengerName == "DESMARAIS/LUC")
    #expect(view.legs[1].from == "FRA" && view.legs[1].to == "GVA" && view.legs[1].flightNumber == "3664")
    #expect(view.legs[1].dayOfYear == 327)
    #expect(view.issueDateDigits?.yearDigit == 1 && view.issueDateDigits?.dayOfYear == 325)
    #expect(
      view.issueDate(reference: LocalDate(year: 2021, month: 6, day: 1)!) == LocalDate(year: 2021, month: 11, day: 21))
    #expect(
      view.flightDate(leg: 1, reference: LocalDate(year: 2021, month: 6, day: 1)!)
        == LocalDate(year: 2021, month: 11, day: 23))
    #expect(view.securityType == "1" && view.securityData == "ABCDEFGH")
    #expect(view.quirks.isEmpty && view.mode == .strict)
  }
}
