import Common
import Foundation

/// A random-number generator with a seed (SplitMix64), so that property tests and benchmarks see
/// the same "random" values on every run.
public struct SeededRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Random boarding passes for property tests and benchmarks: random names (Latin, accented,
/// Nordic, German, hyphenated, long), 1–4 legs, airports, carriers, flight numbers with and
/// without suffix, seats (rows 1–99, letters A–K without I), check-in sequences, statuses, every
/// conditional item, with or without a security section, and dates from mid-December 2027 to
/// January 2029 (across two new years and the leap day of 2028).
public enum BoardingPassSamples {
  /// A random pass and the dates it encodes: the issue date and each leg's flight date.
  public struct Sample: Sendable {
    public var pass: BoardingPass
    public var issued: LocalDate
    public var flightDates: [LocalDate]
  }

  static let givenNames = [
    "Ada", "Luc", "Mélanie", "Zoë", "Jürgen", "Åsa", "Søren", "Ægir", "Björk", "François", "José María",
    "Anne-Sophie", "Siobhán", "Łukasz", "Chloé", "Maximilian Alexander", "Þóra", "Dvořák", "Li", "O", "Grace",
    "Hélène", "Ngozi", "Kai", "Émile",
  ]
  static let familyNames = [
    "Lovelace", "Desmarais", "Grandmaire", "Müller", "Ødegaard", "Strauß", "O'Brien", "García Márquez",
    "Nordmann", "Wojciechowski-Kowalczyk", "Hopper", "Ng", "Papadopoulos", "Van der Berg", "Çelik",
    "Sánchez", "Å", "Babbage", "Yılmaz", "Ferreira",
  ]
  static let airports = [
    "SFO", "JFK", "LHR", "CDG", "FRA", "YUL", "GVA", "ZRH", "NRT", "SYD", "DXB", "SIN", "GRU", "JNB", "OSL",
    "DTW", "ORD", "ATL", "HND", "MEX",
  ]
  static let carriers = ["AC", "AF", "LH", "UA", "BA", "QF", "3U", "U2", "NH", "EK", "LX", "SK", "DL", "9W"]
  static let seatLetters = Array("ABCDEFGHJK")
  static let compartments = ["F", "J", "C", "W", "Y", "M", "B"]
  static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
  static let base64 = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")

  /// `count` samples from `seed`.
  public static func make(count: Int, seed: UInt64) -> [Sample] {
    var random = SeededRandom(seed: seed)
    return (0..<count).map { _ in sample(&random) }
  }

  /// One random sample.
  public static func sample(_ random: inout SeededRandom) -> Sample {
    let start = LocalDate(year: 2027, month: 12, day: 15)!
    let issued = start.adding(days: Int.random(in: 0...400, using: &random))
    let legCount = Int.random(in: 1...4, using: &random)
    var date = issued.adding(days: Int.random(in: 0...20, using: &random))
    var dates: [LocalDate] = []
    var legs: [BoardingPass.Leg] = []
    let pnr = String((0..<6).map { _ in alphabet.randomElement(using: &random)! })
    var from = airports.randomElement(using: &random)!
    let withConditional = Int.random(in: 0..<10, using: &random) > 0
    for index in 0..<legCount {
      var to = airports.randomElement(using: &random)!
      while to == from { to = airports.randomElement(using: &random)! }
      let carrier = carriers.randomElement(using: &random)!
      let number = Int.random(in: 1...9999, using: &random)
      let suffix =
        Int.random(in: 0..<8, using: &random) == 0 ? String(alphabet.prefix(26).randomElement(using: &random)!) : ""
      var leg = BoardingPass.Leg(
        pnr: Int.random(in: 0..<5, using: &random) == 0 ? pnr + "X" : pnr, from: from, to: to, carrier: carrier,
        flightNumber: String(format: "%04d", number) + suffix, dayOfYear: BCBPDates.dayOfYear(date),
        compartment: compartments.randomElement(using: &random)!,
        seat: Int.random(in: 0..<12, using: &random) == 0
          ? ""
          : String(format: "%03d", Int.random(in: 1...99, using: &random))
            + String(seatLetters.randomElement(using: &random)!),
        checkInSequence: String(format: "%04d", Int.random(in: 1...9999, using: &random)),
        passengerStatus: ["0", "1", "3", "4"].randomElement(using: &random)!)
      if withConditional && (index == 0 || Int.random(in: 0..<4, using: &random) > 0) {
        leg.airlineNumericCode = String(format: "%03d", Int.random(in: 1...999, using: &random))
        leg.documentSerialNumber = String(format: "%010ld", Int.random(in: 0...9_999_999_999, using: &random))
        leg.selecteeIndicator = ["", "0", "1", "3"].randomElement(using: &random)!
        leg.internationalDocumentationVerification = ["", "0", "1", "2"].randomElement(using: &random)!
        leg.marketingCarrier = carrier
        if Int.random(in: 0..<3, using: &random) == 0 {
          leg.frequentFlyerAirline = carrier
          leg.frequentFlyerNumber = String(
            (0..<Int.random(in: 6...16, using: &random)).map { _ in
              alphabet.randomElement(using: &random)!
            })
        }
        leg.freeBaggageAllowance = ["", "1PC", "2PC", "20K", "23K", "40L"].randomElement(using: &random)!
        leg.fastTrack = ["", "Y", "N"].randomElement(using: &random)!
        if Int.random(in: 0..<4, using: &random) == 0 {
          leg.airlineData = String(
            (0..<Int.random(in: 1...12, using: &random)).map { _ in
              alphabet.randomElement(using: &random)!
            })
        }
      }
      legs.append(leg)
      dates.append(date)
      from = to
      date = date.adding(days: Int.random(in: 0...2, using: &random))
    }
    let given = givenNames.randomElement(using: &random)!
    let family = familyNames.randomElement(using: &random)!
    var pass = BoardingPass(
      passengerName: BCBPName.field(given: given, family: family),
      electronicTicketIndicator: "E", version: withConditional ? BoardingPass.currentVersion : nil, legs: legs)
    if withConditional {
      pass.passengerDescription = ["0", "1", "2", "3"].randomElement(using: &random)!
      pass.checkInSource = ["W", "M", "K", "O"].randomElement(using: &random)!
      pass.issuanceSource = ["W", "M", "K", "O"].randomElement(using: &random)!
      pass.issueDate = BCBPDates.issueDateField(issued)
      pass.documentType = "B"
      pass.issuer = legs[0].carrier
      if Int.random(in: 0..<3, using: &random) == 0 {
        pass.baggageTag =
          "0" + String(format: "%03d", Int.random(in: 1...999, using: &random))
          + String(format: "%06d", Int.random(in: 0...999_999, using: &random)) + "001"
      }
    }
    if Int.random(in: 0..<3, using: &random) > 0 {
      pass.securityType = "4"
      pass.securityData = String(
        (0..<Int.random(in: 64...100, using: &random)).map { _ in
          base64.randomElement(using: &random)!
        })
    }
    return Sample(pass: pass, issued: issued, flightDates: dates)
  }
}
