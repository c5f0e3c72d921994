import Foundation

/// An IATA Bar Coded Boarding Pass (BCBP, Resolution 792), format `M`: the text that PDF417,
/// Aztec, QR and Data Matrix codes on boarding passes carry.
///
/// Fields keep their raw encoded values (fixed width in the text, here without the trailing blanks
/// that pad them): the flight number `0834`, the seat `001A`, the check-in sequence `0025`, the
/// issue date `6225` (last digit of the year, then the day of the year). A blank or absent
/// conditional item is `""`; ``legs`` has 1–4 legs. ``BCBPEncoder`` writes the text (strict:
/// every field checked, sizes computed in upper-case hexadecimal), ``BCBPParser`` reads it (strict
/// or lenient). Item numbers and widths follow the IATA BCBP Implementation Guide (standards.md §1).
///
/// JSON: the fields by name, camelCase; legs in order.
public struct BoardingPass: Hashable, Sendable, Codable {
  /// The version this app writes (item 9): the current version of Resolution 792.
  public static let currentVersion = "8"
  /// Legs a pass can hold (item 5: `1`–`4`).
  public static let legLimit = 4

  /// Item 11: `SURNAME/GIVEN NAMES TITLE`, at most 20 characters (see ``BCBPName``).
  public var passengerName: String
  /// Item 253: `E` for an electronic ticket (blank on some carriers' passes).
  public var electronicTicketIndicator: String
  /// Item 9: the version of the conditional section (`8`), nil when the pass has none.
  public var version: String?
  /// Item 15: passenger description (`0` adult, `1` male, `2` female, `3` child, `4` infant, …).
  public var passengerDescription: String
  /// Item 12: source of check-in (`W` web, `K` kiosk, `M` mobile, `O` airport agent, …).
  public var checkInSource: String
  /// Item 14: source of boarding-pass issuance (same codes, plus `X` transfer kiosk).
  public var issuanceSource: String
  /// Item 22: date of issue, last digit of the year + day of the year (`6225`), or blank.
  public var issueDate: String
  /// Item 16: document type, `B` boarding pass or `I` itinerary receipt.
  public var documentType: String
  /// Item 21: airline designator of the boarding-pass issuer (`AC`).
  public var issuer: String
  /// Item 23: baggage tag licence plate(s): tag type, airline numeric code, serial, count.
  public var baggageTag: String
  /// Item 31: first non-consecutive baggage tag licence plate.
  public var firstNonConsecutiveBaggageTag: String
  /// Item 32: second non-consecutive baggage tag licence plate.
  public var secondNonConsecutiveBaggageTag: String
  /// The legs (flights), 1–4.
  public var legs: [Leg]
  /// Item 28: type of security data, nil when the pass has no security section (item 25 `^`).
  public var securityType: String?
  /// Item 30: the security data (a signature).
  public var securityData: String

  public init(
    passengerName: String, electronicTicketIndicator: String = "E", version: String? = BoardingPass.currentVersion,
    passengerDescription: String = "", checkInSource: String = "", issuanceSource: String = "",
    issueDate: String = "", documentType: String = "", issuer: String = "", baggageTag: String = "",
    firstNonConsecutiveBaggageTag: String = "", secondNonConsecutiveBaggageTag: String = "", legs: [Leg],
    securityType: String? = nil, securityData: String = ""
  ) {
    self.passengerName = passengerName
    self.electronicTicketIndicator = electronicTicketIndicator
    self.version = version
    self.passengerDescription = passengerDescription
    self.checkInSource = checkInSource
    self.issuanceSource = issuanceSource
    self.issueDate = issueDate
    self.documentType = documentType
    self.issuer = issuer
    self.baggageTag = baggageTag
    self.firstNonConsecutiveBaggageTag = firstNonConsecutiveBaggageTag
    self.secondNonConsecutiveBaggageTag = secondNonConsecutiveBaggageTag
    self.legs = legs
    self.securityType = securityType
    self.securityData = securityData
  }

  /// One flight of the pass: the 37 mandatory characters and the leg's conditional items.
  public struct Leg: Hashable, Sendable, Codable {
    /// Item 7: the operating carrier's record locator (PNR), up to 7 characters.
    public var pnr: String
    /// Item 26: from city airport code (IATA).
    public var from: String
    /// Item 38: to city airport code (IATA).
    public var to: String
    /// Item 42: operating carrier designator (`AC`, `3U`, or a 3-letter code).
    public var carrier: String
    /// Item 43: flight number, four digits with leading zeros and an optional suffix letter (`0834`).
    public var flightNumber: String
    /// Item 46: date of flight as the day of the year, 1–366, local at departure (no year).
    public var dayOfYear: Int
    /// Item 71: compartment code (`F`, `J`, `C`, `W`, `Y`, …).
    public var compartment: String
    /// Item 104: seat, a three-digit row and a letter (`023C`), blank, or text such as `INF`.
    public var seat: String
    /// Item 107: check-in sequence number, four digits and an optional letter (`0025`), or blank.
    public var checkInSequence: String
    /// Item 117: passenger status (`0` not checked in, `1` checked in, …).
    public var passengerStatus: String
    /// Item 142: airline numeric code of the ticket (`014`).
    public var airlineNumericCode: String
    /// Item 143: document form and serial number (10 digits); with item 142 the 13-digit ticket number.
    public var documentSerialNumber: String
    /// Item 18: selectee indicator (US screening).
    public var selecteeIndicator: String
    /// Item 108: international documentation verification (`0` not required, `1` required, `2` done).
    public var internationalDocumentationVerification: String
    /// Item 19: marketing carrier designator.
    public var marketingCarrier: String
    /// Item 20: frequent-flyer airline designator.
    public var frequentFlyerAirline: String
    /// Item 236: frequent-flyer number, up to 16 characters.
    public var frequentFlyerNumber: String
    /// Item 89: ID/AD indicator (staff and industry-discount travel; blank for normal fares).
    public var idAdIndicator: String
    /// Item 118: free baggage allowance (`20K` kilos, `40L` pounds, `2PC` pieces).
    public var freeBaggageAllowance: String
    /// Item 254: fast track, `Y`, `N` or blank.
    public var fastTrack: String
    /// Item 4: for individual airline use, free format (what remains of the leg's conditional data).
    public var airlineData: String

    public init(
      pnr: String, from: String, to: String, carrier: String, flightNumber: String, dayOfYear: Int,
      compartment: String, seat: String, checkInSequence: String, passengerStatus: String,
      airlineNumericCode: String = "", documentSerialNumber: String = "", selecteeIndicator: String = "",
      internationalDocumentationVerification: String = "", marketingCarrier: String = "",
      frequentFlyerAirline: String = "", frequentFlyerNumber: String = "", idAdIndicator: String = "",
      freeBaggageAllowance: String = "", fastTrack: String = "", airlineData: String = ""
    ) {
      self.pnr = pnr
      self.from = from
      self.to = to
      self.carrier = carrier
      self.flightNumber = flightNumber
      self.dayOfYear = dayOfYear
      self.compartment = compartment
      self.seat = seat
      self.checkInSequence = checkInSequence
      self.passengerStatus = passengerStatus
      self.airlineNumericCode = airlineNumericCode
      self.documentSerialNumber = documentSerialNumber
      self.selecteeIndicator = selecteeIndicator
      self.internationalDocumentationVerification = internationalDocumentationVerification
      self.marketingCarrier = marketingCarrier
      self.frequentFlyerAirline = frequentFlyerAirline
      self.frequentFlyerNumber = frequentFlyerNumber
      self.idAdIndicator = idAdIndicator
      self.freeBaggageAllowance = freeBaggageAllowance
      self.fastTrack = fastTrack
      self.airlineData = airlineData
    }

    /// The flight as people read it: the carrier and the number without leading zeros (`AC 834`).
    public var flightDisplay: String {
      let digits = flightNumber.prefix { $0.isASCII && $0.isNumber }
      let suffix = flightNumber.dropFirst(digits.count)
      let number = Int(digits).map(String.init) ?? String(digits)
      return "\(carrier) \(number)\(suffix)"
    }

    /// The seat without the row's leading zeros (`023C` → `23C`); text seats (`INF`) as they are.
    public var seatDisplay: String {
      let digits = seat.prefix { $0.isASCII && $0.isNumber }
      guard !digits.isEmpty, let row = Int(digits) else { return seat }
      return "\(row)\(seat.dropFirst(digits.count))"
    }

    /// The check-in sequence number without leading zeros (`0025` → `25`).
    public var sequenceDisplay: String {
      let digits = checkInSequence.prefix { $0.isASCII && $0.isNumber }
      guard !digits.isEmpty, let number = Int(digits) else { return checkInSequence }
      return "\(number)\(checkInSequence.dropFirst(digits.count))"
    }

    /// Items 142 + 143: the 13-digit ticket number, when both are present.
    public var ticketNumber: String? {
      airlineNumericCode.isEmpty || documentSerialNumber.isEmpty ? nil : airlineNumericCode + documentSerialNumber
    }
  }

  /// The name as people read it: `Luc Desmarais` from `DESMARAIS/LUC` (title kept as written).
  public var passengerDisplayName: String {
    let parts = passengerName.split(separator: "/", maxSplits: 1).map(String.init)
    guard parts.count == 2 else { return passengerName }
    let given = parts[1].trimmingCharacters(in: .whitespaces)
    return given.isEmpty ? parts[0] : "\(given) \(parts[0])"
  }
}

/// The passenger name of a boarding pass (item 11): `SURNAME/GIVEN NAMES`, upper-case printable
/// ASCII, cut at 20 characters.
public enum BCBPName {
  /// `SURNAME/GIVEN` for `given` and `family` names in any script the ICAO rules cover: letters
  /// are transliterated as on machine-readable passports (ICAO Doc 9303 Part 3: `Ä` → `AE`,
  /// `Ö` → `OE`, `Ü` → `UE`, `ß` → `SS`, `Å` → `AA`, `Æ` → `AE`, `Ø` → `OE`, `Þ` → `TH`, other
  /// accents dropped), then upper-cased; hyphens become blanks, apostrophes and periods go; the
  /// result is cut at 20 characters.
  public static func field(given: String, family: String) -> String {
    let name = "\(ascii(family))/\(ascii(given))"
    return String(name.prefix(20)).trimmingTrailingBlanks()
  }

  /// `text` in upper-case ASCII letters and single blanks (see ``field(given:family:)``).
  public static func ascii(_ text: String) -> String {
    var result = ""
    for character in text.uppercased() {
      switch character {
      case "Ä", "Æ": result += "AE"
      case "Ö", "Ø", "Œ": result += "OE"
      case "Ü": result += "UE"
      case "Å": result += "AA"
      case "ẞ": result += "SS"
      case "Þ": result += "TH"
      case "Ð", "Đ": result += "D"
      case "Ł": result += "L"
      case "Ħ": result += "H"
      case "Ŋ": result += "N"
      case "Ŧ": result += "T"
      case "-", " ", "\t":
        if !result.isEmpty && !result.hasSuffix(" ") { result += " " }
      default:
        let folded = String(character).applyingTransform(.toLatin, reverse: false) ?? String(character)
        let plain = (folded.applyingTransform(.stripDiacritics, reverse: false) ?? folded).uppercased()
        for scalar in plain.unicodeScalars where ("A"..."Z").contains(scalar) || scalar == "ß" {
          result += scalar == "ß" ? "SS" : String(scalar)
        }
      }
    }
    return result.trimmingCharacters(in: .whitespaces)
  }
}

extension String {
  /// The string without trailing blanks (U+0020 only: the padding of fixed-width fields).
  func trimmingTrailingBlanks() -> String {
    var end = endIndex
    while end > startIndex, self[index(before: end)] == " " { end = index(before: end) }
    return String(self[..<end])
  }
}
