import Common
import CommonTesting
import Foundation
import Testing

/// The IATA BCBP examples (Resolution 792 Implementation Guide) read back to the values the guide
/// gives for them; the values below are the guide's, written out as facts.
@Suite struct BCBPImplementationGuideExampleTests {
  /// Mandatory items only, one leg.
  @Test func mandatoryItemsOnly() throws {
    let text = "M1DESMARAIS/LUC       EABC123 YULFRAAC 0834 326J001A0025 100"
    let pass = try BCBPParser.parse(text).pass
    #expect(pass.passengerName == "DESMARAIS/LUC")
    #expect(pass.passengerDisplayName == "LUC DESMARAIS")
    #expect(pass.electronicTicketIndicator == "E")
    #expect(pass.version == nil)
    #expect(pass.legs.count == 1)
    let leg = pass.legs[0]
    #expect(leg.pnr == "ABC123")
    #expect(leg.from == "YUL" && leg.to == "FRA")
    #expect(leg.carrier == "AC" && leg.flightNumber == "0834" && leg.flightDisplay == "AC 834")
    #expect(leg.dayOfYear == 326)
    #expect(leg.compartment == "J")
    #expect(leg.seat == "001A" && leg.seatDisplay == "1A")
    #expect(leg.checkInSequence == "0025" && leg.sequenceDisplay == "25")
    #expect(leg.passengerStatus == "1")
    #expect(pass.securityType == nil)
    #expect(try pass.encoded() == text)
  }

  /// One leg, every item, security data.
  @Test func oneLegAllItems() throws {
    let text =
      "M1DESMARAIS/LUC       EAB12C3 YULFRAAC 0834 326J003A0027 167>5321WW1325BAC 0014123456002001412346700100141234789012A0141234567890 1AC AC 1234567890123    4PCYLX58Z^108ABCDEFGH"
    let pass = try BCBPParser.parse(text).pass
    #expect(pass.version == "5")
    #expect(pass.passengerDescription == "1")
    #expect(pass.checkInSource == "W" && pass.issuanceSource == "W")
    #expect(pass.issueDate == "1325")
    #expect(pass.documentType == "B" && pass.issuer == "AC")
    #expect(pass.baggageTag == "0014123456002")
    #expect(pass.firstNonConsecutiveBaggageTag == "0014123467001")
    #expect(pass.secondNonConsecutiveBaggageTag == "0014123478901")
    let leg = pass.legs[0]
    #expect(leg.pnr == "AB12C3" && leg.seat == "003A" && leg.checkInSequence == "0027")
    #expect(leg.airlineNumericCode == "014" && leg.documentSerialNumber == "1234567890")
    #expect(leg.ticketNumber == "0141234567890")
    #expect(leg.selecteeIndicator == "" && leg.internationalDocumentationVerification == "1")
    #expect(leg.marketingCarrier == "AC" && leg.frequentFlyerAirline == "AC")
    #expect(leg.frequentFlyerNumber == "1234567890123")
    #expect(leg.idAdIndicator == "" && leg.freeBaggageAllowance == "4PC" && leg.fastTrack == "Y")
    #expect(leg.airlineData == "LX58Z")
    #expect(pass.securityType == "1" && pass.securityData == "ABCDEFGH")
    #expect(try pass.encoded() == text)
  }

  /// One leg, some conditional items (an empty unique block).
  @Test func oneLegSomeItems() throws {
    let text =
      "M1GRANDMAIRE/MELANIE  EABC123 GVACDGAF 0123 339C002F0025 130>5002A0571234567890  AF AF 1234567890123456    Y^108ABCDEFGH"
    let pass = try BCBPParser.parse(text).pass
    #expect(pass.passengerName == "GRANDMAIRE/MELANIE")
    #expect(pass.version == "5" && pass.issueDate == "" && pass.passengerDescription == "")
    let leg = pass.legs[0]
    #expect(leg.from == "GVA" && leg.to == "CDG" && leg.flightDisplay == "AF 123" && leg.dayOfYear == 339)
    #expect(leg.compartment == "C" && leg.seatDisplay == "2F")
    #expect(leg.airlineNumericCode == "057" && leg.documentSerialNumber == "1234567890")
    #expect(leg.internationalDocumentationVerification == "" && leg.marketingCarrier == "AF")
    #expect(leg.frequentFlyerNumber == "1234567890123456")
    #expect(leg.freeBaggageAllowance == "" && leg.fastTrack == "Y")
    #expect(pass.securityData == "ABCDEFGH")
  }

  /// Two legs, every item.
  @Test func twoLegsAllItems() throws {
    let text =
      "M2DESMARAIS/LUC       EAB12C3 YULFRAAC 0834 326J003A0027 167>5321WW1325BAC 0014123456002001412346700100141234789012A0141234567890 1AC AC 1234567890123    4PCYLX58ZDEF456 FRAGVALH 3664 327C012C0002 12E2A0140987654321 1AC AC 1234567890123    3PCNWQ^108ABCDEFGH"
    let pass = try BCBPParser.parse(text).pass
    #expect(pass.legs.count == 2)
    let second = pass.legs[1]
    #expect(second.pnr == "DEF456" && second.from == "FRA" && second.to == "GVA")
    #expect(second.flightDisplay == "LH 3664" && second.dayOfYear == 327 && second.compartment == "C")
    #expect(second.seatDisplay == "12C" && second.sequenceDisplay == "2" && second.passengerStatus == "1")
    #expect(second.ticketNumber == "0140987654321")
    #expect(second.freeBaggageAllowance == "3PC" && second.fastTrack == "N" && second.airlineData == "WQ")
    #expect(try pass.encoded() == text)
  }

  /// Two legs, some items on each.
  @Test func twoLegsSomeItems() throws {
    let text =
      "M2GRANDMAIRE/MELANIE  EABC123 GVACDGAF 0123 339C002F0025 130>5002A0571234567890  AF AF 1234567890123456    YDEF456 CDGDTWNW 0049 339F001A0002 12C2A012098765432101                       2PC ^108ABCDEFGH"
    let pass = try BCBPParser.parse(text).pass
    #expect(pass.legs.map(\.flightDisplay) == ["AF 123", "NW 49"])
    let second = pass.legs[1]
    #expect(second.from == "CDG" && second.to == "DTW" && second.seatDisplay == "1A")
    #expect(second.airlineNumericCode == "012" && second.documentSerialNumber == "0987654321")
    #expect(second.selecteeIndicator == "0" && second.internationalDocumentationVerification == "1")
    #expect(second.marketingCarrier == "" && second.frequentFlyerNumber == "")
    #expect(second.freeBaggageAllowance == "2PC" && second.fastTrack == "")
  }

  /// standards.md's worked example: the encoder writes exactly this text from its fields.
  @Test func workedExample_encodesFromItsFields() throws {
    var pass = BoardingPass(
      passengerName: "NORDMANN/KARI MS", version: "6", passengerDescription: "2", checkInSource: "W",
      issuanceSource: "W", issueDate: "6151", documentType: "B", issuer: "AF", baggageTag: "0057123456001",
      legs: [
        BoardingPass.Leg(
          pnr: "X7KQ2P", from: "OSL", to: "CDG", carrier: "AF", flightNumber: "1275", dayOfYear: 152,
          compartment: "Y", seat: "023C", checkInSequence: "0045", passengerStatus: "1", airlineNumericCode: "057",
          documentSerialNumber: "2412345678", internationalDocumentationVerification: "0", marketingCarrier: "AF",
          frequentFlyerAirline: "AF", frequentFlyerNumber: "1234567890", freeBaggageAllowance: "1PC", fastTrack: "N")
      ])
    pass.securityType = "1"
    pass.securityData = "SIGDATA1"
    #expect(
      try pass.encoded()
        == "M1NORDMANN/KARI MS    EX7KQ2P OSLCDGAF 1275 152Y023C0045 148>6182WW6151BAF 00571234560012A0572412345678 0AF AF 1234567890       1PCN^108SIGDATA1"
    )
  }
}

@Suite struct BCBPRoundTripTests {
  /// Thousands of random passes: the encoder's text parses (strictly) back to the same pass, and
  /// the dates come back from the issue date or a reference date.
  @Test func randomPasses_encodeThenParse_giveEveryFieldBack() throws {
    for sample in BoardingPassSamples.make(count: 4_000, seed: 17) {
      let text = try sample.pass.encoded()
      #expect(text.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E })
      let parsed = try BCBPParser.parse(text)
      #expect(parsed.pass == sample.pass, "\(text)")
      #expect(parsed.quirks.isEmpty)
      let lenient = try BCBPParser.parse(text, mode: .lenient)
      #expect(lenient.pass == sample.pass && lenient.quirks.isEmpty, "\(text)")
      // Dates: from the issue date when there is one (any reference in the decade), else from a
      // reference within a few months of the flight.
      let reference =
        sample.pass.issueDate.isEmpty ? sample.flightDates[0].adding(days: -100) : sample.issued.adding(days: 1_200)
      #expect(parsed.pass.flightDates(reference: reference) == sample.flightDates.map { Optional($0) }, "\(text)")
    }
  }
}

@Suite struct BCBPDatesTests {
  @Test func issueDate_lastDigitAndDayOfYear() throws {
    #expect(BCBPDates.issueDateField(LocalDate("2026-01-01")!) == "6001")
    #expect(BCBPDates.issueDateField(LocalDate("2028-12-31")!) == "8366")
    #expect(BCBPDates.issueDate("8366", reference: LocalDate("2031-06-01")!) == LocalDate("2028-12-31"))
    #expect(BCBPDates.issueDate("6225", reference: LocalDate("2029-12-31")!) == LocalDate("2026-08-13"))
    // Day 366 of a year ending in 7 exists in no nearby year.
    #expect(BCBPDates.issueDate("7366", reference: LocalDate("2027-06-01")!) == nil)
    #expect(BCBPDates.issueDate("6000", reference: LocalDate("2026-06-01")!) == nil)
    #expect(BCBPDates.issueDate("", reference: LocalDate("2026-06-01")!) == nil)
  }

  @Test func flightDate_fromTheIssueDate_crossesTheNewYear() {
    let issued = LocalDate("2027-12-30")!
    #expect(
      BCBPDates.flightDate(dayOfYear: 364, issueDate: issued, reference: .init(daysSinceEpoch: 0))
        == LocalDate("2027-12-30"))
    #expect(
      BCBPDates.flightDate(dayOfYear: 2, issueDate: issued, reference: .init(daysSinceEpoch: 0))
        == LocalDate("2028-01-02"))
    // 2028 is a leap year: day 60 is 29 February, day 366 is 31 December.
    #expect(
      BCBPDates.flightDate(dayOfYear: 60, issueDate: issued, reference: .init(daysSinceEpoch: 0))
        == LocalDate("2028-02-29"))
    #expect(
      BCBPDates.flightDate(dayOfYear: 366, issueDate: issued, reference: .init(daysSinceEpoch: 0))
        == LocalDate("2028-12-31"))
    // Issued in 2028 for day 366: 2028 has it.
    #expect(
      BCBPDates.flightDate(dayOfYear: 366, issueDate: LocalDate("2028-12-01"), reference: .init(daysSinceEpoch: 0))
        == LocalDate("2028-12-31"))
    // Issued in 2029: neither 2029 nor 2030 has a day 366.
    #expect(
      BCBPDates.flightDate(dayOfYear: 366, issueDate: LocalDate("2029-12-01"), reference: .init(daysSinceEpoch: 0))
        == nil)
  }

  @Test func flightDate_withoutIssueDate_isNearestToTheReference() {
    let newYearsEve = LocalDate("2027-12-31")!
    #expect(BCBPDates.flightDate(dayOfYear: 1, issueDate: nil, reference: newYearsEve) == LocalDate("2028-01-01"))
    #expect(BCBPDates.flightDate(dayOfYear: 365, issueDate: nil, reference: newYearsEve) == LocalDate("2027-12-31"))
    #expect(
      BCBPDates.flightDate(dayOfYear: 366, issueDate: nil, reference: LocalDate("2029-01-10")!)
        == LocalDate("2028-12-31"))
    #expect(BCBPDates.flightDate(dayOfYear: 366, issueDate: nil, reference: LocalDate("2026-06-10")!) == nil)
  }

  @Test func names_areTransliteratedAsOnPassports() {
    #expect(BCBPName.field(given: "Jürgen", family: "Strauß") == "STRAUSS/JUERGEN")
    #expect(BCBPName.field(given: "Søren Åsa", family: "Ødegaard") == "OEDEGAARD/SOEREN AAS")  // cut at 20
    #expect(BCBPName.field(given: "Anne-Sophie", family: "O'Brien") == "OBRIEN/ANNE SOPHIE")
    #expect(BCBPName.field(given: "Łukasz", family: "Dvořák") == "DVORAK/LUKASZ")
    #expect(BCBPName.field(given: "Maximilian Alexander", family: "Wojciechowski") == "WOJCIECHOWSKI/MAXIMI")
  }
}

@Suite struct BCBPMalformedInputTests {
  static let valid =
    "M2DESMARAIS/LUC       EAB12C3 YULFRAAC 0834 326J003A0027 167>5321WW1325BAC 0014123456002001412346700100141234789012A0141234567890 1AC AC 1234567890123    4PCYLX58ZDEF456 FRAGVALH 3664 327C012C0002 12E2A0140987654321 1AC AC 1234567890123    3PCNWQ^108ABCDEFGH"

  func error(_ text: String, mode: BCBPParser.Mode = .strict) -> BCBPError? {
    do {
      _ = try BCBPParser.parse(text, mode: mode)
      return nil
    } catch let error as BCBPError {
      return error
    } catch {
      Issue.record("unexpected error \(error)")
      return nil
    }
  }

  @Test func everyTruncation_isAClearErrorInStrictMode() {
    let characters = Array(Self.valid)
    // Cut just before "^", the text is a whole pass without security data.
    let complete = characters.firstIndex(of: "^")!
    #expect(error(String(characters.prefix(complete))) == nil)
    for length in 0..<characters.count where length != complete {
      let cut = String(characters.prefix(length))
      let failure = error(cut)
      #expect(failure != nil, "\(length)")
      #expect(failure?.message.contains("character") == true)
      // Lenient mode reads or refuses; it never crashes.
      _ = try? BCBPParser.parse(cut, mode: .lenient)
    }
  }

  @Test func legCounts_zeroAndFive_areRefused() {
    let zero = error("M0" + Self.valid.dropFirst(2))
    #expect(zero?.item == .numberOfLegs && zero?.position == 2)
    #expect(zero?.message == "item 5 (number of legs encoded) at character 2: expected 1 to 4 legs, found \"0\"")
    #expect(error("M5" + Self.valid.dropFirst(2))?.item == .numberOfLegs)
    #expect(error("M5" + Self.valid.dropFirst(2), mode: .lenient)?.item == .numberOfLegs)
  }

  @Test func nonASCII_namesTheCharacter() {
    let text = "M1MÜLLER/ANNA         EABC123 YULFRAAC 0834 326J001A0025 100"
    let failure = error(text)
    #expect(failure?.position == 4)
    #expect(failure?.message.contains("U+00DC \"Ü\" is not printable ASCII") == true, "\(String(describing: failure))")
    #expect(error("M1DESMARAIS/LUC\u{0}      EABC123 YULFRAAC 0834 326J001A0025 100")?.position == 16)
  }

  @Test func sizeFieldPastTheEnd_namesItAndWhere() {
    let text = "M1DESMARAIS/LUC       EABC123 YULFRAAC 0834 326J001A0025 1FF>5"
    let failure = error(text)
    #expect(failure?.item == .variableSize)
    #expect(failure?.position == 59)
    #expect(failure?.message.contains("announces 255 (0xFF) characters") == true, "\(String(describing: failure))")
    let unique = error("M1DESMARAIS/LUC       EABC123 YULFRAAC 0834 326J001A0025 106>532WW")
    #expect(unique?.item == .uniqueSize, "\(String(describing: unique))")
    let security = error("M1DESMARAIS/LUC       EABC123 YULFRAAC 0834 326J001A0025 100^140AB")
    #expect(security?.item == .securityLength && security?.position == 63, "\(String(describing: security))")
  }

  @Test func badFields_nameTheItemAndPosition() {
    let base = Array("M1DESMARAIS/LUC       EABC123 YULFRAAC 0834 326J001A0025 100")
    func with(_ position: Int, _ text: String) -> String {
      var copy = base
      copy.replaceSubrange((position - 1)..<(position - 1 + text.count), with: Array(text))
      return String(copy)
    }
    #expect(error(with(1, "X"))?.item == .formatCode)
    #expect(
      error(with(31, "Y1L"))?.message
        == "item 26 (from city airport code) at character 31: expected a three-letter IATA airport code, found \"Y1L\"")
    #expect(error(with(40, "AB"))?.item == .flightNumber)
    #expect(error(with(45, "367"))?.item == .dateOfFlight)
    #expect(error(with(45, "000"))?.item == .dateOfFlight)
    #expect(error(with(48, "1"))?.item == .compartment)
    #expect(error(with(49, "01AA"))?.item == .seat)
    #expect(error(with(53, "00X5"))?.item == .sequence)
    #expect(error(with(59, "0G"))?.item == .variableSize)
    #expect(error(with(23, " "))?.item == .electronicTicket)
    #expect(error(base.map(String.init).joined() + "XYZ")?.item == .securityBeginning)
  }

  @Test func controlCharacters_anywhere_nameTheirPosition() {
    let base = Array("M1DESMARAIS/LUC       EABC123 YULFRAAC 0834 326J001A0025 100".utf8)
    // Every position, so that the fast all-printable check and the search for the culprit agree.
    for position in 1...base.count {
      for byte: UInt8 in [0x00, 0x09, 0x1F, 0x7F] {
        var copy = base
        copy[position - 1] = byte
        let failure = error(String(decoding: copy, as: UTF8.self))
        #expect(failure?.position == position, "\(position) 0x\(String(byte, radix: 16))")
        #expect(failure?.message.contains("is not printable ASCII") == true)
      }
    }
  }

  @Test func issueDateNotADate_namesItsPosition() {
    // Leg 1 with a unique block: passenger description 1, check-in and issuance W, issue date
    // (characters 68–71), document type B, issuer AC.
    func pass(_ issue: String) -> String {
      "M1DESMARAIS/LUC       EABC123 YULFRAAC 0834 326J001A0025 10F>50B1WW\(issue)BAC "
    }
    #expect(error(pass("6225")) == nil)
    #expect(error(pass("6366")) == nil)
    for bad in ["6400", "6000", "6A25", "62 5", "X225"] {
      let failure = error(pass(bad))
      #expect(failure?.item == .issueDate && failure?.position == 68, "\(bad): \(String(describing: failure))")
    }
    let blank = try? BCBPParser.parse(pass("    "))
    #expect(blank?.pass.issueDate == "")
    let lenient = try? BCBPParser.parse(pass("6400"), mode: .lenient)
    #expect(lenient?.pass.issueDate == "")
    #expect(lenient?.quirks.map(\.position) == [68])
  }

  @Test func seatsAndSequences_ofEveryForm() throws {
    let base = Array("M1DESMARAIS/LUC       EABC123 YULFRAAC 0834 326J001A0025 100")
    func with(seat: String, sequence: String) -> String {
      var copy = base
      copy.replaceSubrange(48..<52, with: Array(seat))
      copy.replaceSubrange(52..<57, with: Array(sequence))
      return String(copy)
    }
    for (seat, read) in [("023C", "023C"), ("INF ", "INF"), ("    ", ""), ("STBY", "STBY")] {
      #expect(try BCBPParser.parse(with(seat: seat, sequence: "0025 ")).pass.legs[0].seat == read, "\(seat)")
    }
    for seat in ["23C ", "0234", "1A  ", "023c", " 23C"] {
      #expect(error(with(seat: seat, sequence: "0025 "))?.item == .seat, "\(seat)")
    }
    for (sequence, read) in [("0025 ", "0025"), ("0025A", "0025A"), ("     ", "")] {
      #expect(
        try BCBPParser.parse(with(seat: "023C", sequence: sequence)).pass.legs[0].checkInSequence == read, "\(sequence)"
      )
    }
    for sequence in ["25   ", "002A ", "0025a", " 0025"] {
      #expect(error(with(seat: "023C", sequence: sequence))?.item == .sequence, "\(sequence)")
    }
  }

  /// Random damage to valid passes (changed, removed and inserted characters, any byte): every
  /// outcome is a pass or a BCBPError, in both modes.
  @Test func randomDamage_neverCrashes() {
    var random = SeededRandom(seed: 99)
    let samples = BoardingPassSamples.make(count: 300, seed: 5).compactMap { try? $0.pass.encoded() }
    let pool = Array(" 0123456789ABCDEFXYZ>^/abcé\u{0}\u{7F}")
    for text in samples {
      for _ in 0..<10 {
        var characters = Array(text)
        for _ in 0..<Int.random(in: 1...4, using: &random) {
          let index = Int.random(in: 0..<characters.count, using: &random)
          switch Int.random(in: 0..<3, using: &random) {
          case 0: characters[index] = pool.randomElement(using: &random)!
          case 1: characters.remove(at: index)
          default: characters.insert(pool.randomElement(using: &random)!, at: index)
          }
          if characters.isEmpty { break }
        }
        let damaged = String(characters)
        for mode in [BCBPParser.Mode.strict, .lenient] {
          do {
            _ = try BCBPParser.parse(damaged, mode: mode)
          } catch is BCBPError {
          } catch {
            Issue.record("\(damaged): \(error)")
          }
        }
      }
    }
  }
}

@Suite struct BCBPLenientTests {
  func lenient(_ text: String) throws -> BCBPParseResult { try BCBPParser.parse(text, mode: .lenient) }

  @Test func blankElectronicTicketFlag_isAQuirk() throws {
    let text = "M1DESMARAIS/LUC        ABC123 YULFRAAC 0834 326J001A0025 100"
    #expect(throws: BCBPError.self) { try BCBPParser.parse(text) }
    let result = try lenient(text)
    #expect(result.pass.electronicTicketIndicator == "")
    #expect(result.quirks.map(\.kind) == [.blankElectronicTicketIndicator])
    #expect(result.quirks.first?.position == 23)
  }

  @Test func nameOneCharacterShort_shiftsTheLeg() throws {
    let text = "M1DESMARAIS/LUC      EABC123 YULFRAAC 0834 326J001A0025 100"
    #expect(throws: BCBPError.self) { try BCBPParser.parse(text) }
    let result = try lenient(text)
    #expect(result.pass.passengerName == "DESMARAIS/LUC")
    #expect(result.pass.legs[0].from == "YUL" && result.pass.legs[0].seat == "001A")
    #expect(result.quirks.map(\.kind) == [.shiftedFields])
  }

  @Test func flightNumberOneCharacterShort_shiftsWhatFollows() throws {
    // "834 " instead of "0834 ": the date, seat and sizes are one character early.
    let text = "M1DESMARAIS/LUC       EABC123 YULFRAAC 834 326J001A0025 100"
    let result = try lenient(text)
    let leg = result.pass.legs[0]
    #expect(leg.flightNumber == "834" && leg.dayOfYear == 326 && leg.seat == "001A" && leg.checkInSequence == "0025")
    #expect(result.quirks.map(\.kind) == [.shiftedFields])
    #expect(result.quirks.first?.message.contains("item 43 (flight number) is 4 characters instead of 5") == true)
  }

  @Test func passCutShortAfterTheMandatoryItems() throws {
    let text = "M1DESMARAIS/LUC       EABC123 YULFRAAC 0834 326J001A0025 14D"
    #expect(throws: BCBPError.self) { try BCBPParser.parse(text) }
    let result = try lenient(text)
    #expect(result.pass.legs[0].seat == "001A" && result.pass.version == nil)
    #expect(result.quirks.map(\.kind) == [.cutShort])
  }

  @Test func sizeThatSaysNothingFollows_butDataDoes() throws {
    let text =
      "M1GRANDMAIRE/MELANIE  EABC123 GVACDGAF 0123 339C002F0025 100>5002A0571234567890  AF AF 1234567890123456    Y^108ABCDEFGH"
    #expect(throws: BCBPError.self) { try BCBPParser.parse(text) }
    let result = try lenient(text)
    #expect(result.quirks.map(\.kind) == [.sizeMismatch])
    #expect(result.pass.legs[0].airlineNumericCode == "057" && result.pass.securityData == "ABCDEFGH")
  }

  @Test func sizeOffByTwo_findsTheNextLeg() throws {
    // Leg 1's item 6 says 0x69 instead of 0x67: leg 2 is found where it starts.
    let text =
      "M2DESMARAIS/LUC       EAB12C3 YULFRAAC 0834 326J003A0027 169>5321WW1325BAC 0014123456002001412346700100141234789012A0141234567890 1AC AC 1234567890123    4PCYLX58ZDEF456 FRAGVALH 3664 327C012C0002 12E2A0140987654321 1AC AC 1234567890123    3PCNWQ^108ABCDEFGH"
    #expect(throws: BCBPError.self) { try BCBPParser.parse(text) }
    let result = try lenient(text)
    #expect(result.pass.legs.count == 2 && result.pass.legs[1].flightDisplay == "LH 3664")
    #expect(result.pass.legs[0].airlineData == "LX58Z")
    #expect(result.quirks.map(\.kind) == [.sizeMismatch])
  }

  @Test func emptyLeg_isSkipped() throws {
    let text = "M2DESMARAIS/LUC       EABC123 YULFRAAC 0834 326J001A0025 100" + String(repeating: " ", count: 35) + "00"
    #expect(throws: BCBPError.self) { try BCBPParser.parse(text) }
    let result = try lenient(text)
    #expect(result.pass.legs.count == 1)
    #expect(result.quirks.map(\.kind) == [.emptyLeg])
    #expect(result.quirks.first?.position == 61)
  }
}
