import Foundation

/// One item (field) of a BCBP: its number in the IATA Implementation Guide, its name and its width
/// in characters (0 for the variable-size items 4 and 30).
public struct BCBPItem: Hashable, Sendable, CustomStringConvertible {
  public let number: Int
  public let name: String
  public let width: Int
  /// Whether the item is numeric (right-justified with leading zeros) rather than text.
  public let isNumeric: Bool

  init(_ number: Int, _ name: String, _ width: Int, numeric: Bool = false) {
    self.number = number
    self.name = name
    self.width = width
    self.isNumeric = numeric
  }

  /// `item 26 (from city airport code)`.
  public var description: String { "item \(number) (\(name))" }

  // MARK: Mandatory, unique
  public static let formatCode = BCBPItem(1, "format code", 1)
  public static let numberOfLegs = BCBPItem(5, "number of legs encoded", 1, numeric: true)
  public static let passengerName = BCBPItem(11, "passenger name", 20)
  public static let electronicTicket = BCBPItem(253, "electronic ticket indicator", 1)

  // MARK: Mandatory, repeated (37 characters per leg)
  public static let pnr = BCBPItem(7, "operating carrier PNR code", 7)
  public static let from = BCBPItem(26, "from city airport code", 3)
  public static let to = BCBPItem(38, "to city airport code", 3)
  public static let carrier = BCBPItem(42, "operating carrier designator", 3)
  public static let flightNumber = BCBPItem(43, "flight number", 5)
  public static let dateOfFlight = BCBPItem(46, "date of flight (day of year)", 3, numeric: true)
  public static let compartment = BCBPItem(71, "compartment code", 1)
  public static let seat = BCBPItem(104, "seat number", 4)
  public static let sequence = BCBPItem(107, "check-in sequence number", 5)
  public static let passengerStatus = BCBPItem(117, "passenger status", 1)
  public static let variableSize = BCBPItem(6, "field size of variable size field", 2)

  /// The mandatory items of a leg, in order (37 characters).
  public static let legItems: [BCBPItem] = [
    pnr, from, to, carrier, flightNumber, dateOfFlight, compartment, seat, sequence, passengerStatus, variableSize,
  ]

  // MARK: Conditional, unique (leg 1 only)
  public static let versionBeginning = BCBPItem(8, "beginning of version number", 1)
  public static let version = BCBPItem(9, "version number", 1)
  public static let uniqueSize = BCBPItem(10, "field size of following structured message - unique", 2)
  public static let passengerDescription = BCBPItem(15, "passenger description", 1)
  public static let checkInSource = BCBPItem(12, "source of check-in", 1)
  public static let issuanceSource = BCBPItem(14, "source of boarding pass issuance", 1)
  public static let issueDate = BCBPItem(22, "date of issue of boarding pass", 4, numeric: true)
  public static let documentType = BCBPItem(16, "document type", 1)
  public static let issuer = BCBPItem(21, "airline designator of boarding pass issuer", 3)
  public static let baggageTag = BCBPItem(23, "baggage tag licence plate number(s)", 13)
  public static let firstBaggageTag = BCBPItem(31, "1st non-consecutive baggage tag licence plate number", 13)
  public static let secondBaggageTag = BCBPItem(32, "2nd non-consecutive baggage tag licence plate number", 13)

  /// The items of the unique block, in order (at most 50 characters).
  public static let uniqueItems: [BCBPItem] = [
    passengerDescription, checkInSource, issuanceSource, issueDate, documentType, issuer, baggageTag,
    firstBaggageTag, secondBaggageTag,
  ]

  // MARK: Conditional, repeated (every leg)
  public static let repeatedSize = BCBPItem(17, "field size of following structured message - repeated", 2)
  public static let airlineNumericCode = BCBPItem(142, "airline numeric code", 3, numeric: true)
  public static let documentSerial = BCBPItem(143, "document form/serial number", 10)
  public static let selectee = BCBPItem(18, "selectee indicator", 1)
  public static let documentVerification = BCBPItem(108, "international documentation verification", 1)
  public static let marketingCarrier = BCBPItem(19, "marketing carrier designator", 3)
  public static let frequentFlyerAirline = BCBPItem(20, "frequent flyer airline designator", 3)
  public static let frequentFlyerNumber = BCBPItem(236, "frequent flyer number", 16)
  public static let idAd = BCBPItem(89, "ID/AD indicator", 1)
  public static let baggageAllowance = BCBPItem(118, "free baggage allowance", 3)
  public static let fastTrack = BCBPItem(254, "fast track", 1)
  public static let airlineData = BCBPItem(4, "for individual airline use", 0)

  /// The items of the repeated block, in order (at most 42 characters).
  public static let repeatedItems: [BCBPItem] = [
    airlineNumericCode, documentSerial, selectee, documentVerification, marketingCarrier, frequentFlyerAirline,
    frequentFlyerNumber, idAd, baggageAllowance, fastTrack,
  ]

  // MARK: Security
  public static let securityBeginning = BCBPItem(25, "beginning of security data", 1)
  public static let securityType = BCBPItem(28, "type of security data", 1)
  public static let securityLength = BCBPItem(29, "length of security data", 2)
  public static let securityData = BCBPItem(30, "security data", 0)

  /// The widest the unique block can be (items 15 … 32).
  public static let uniqueBlockLimit = uniqueItems.reduce(0) { $0 + $1.width }
  /// The widest the repeated block can be (items 142 … 254).
  public static let repeatedBlockLimit = repeatedItems.reduce(0) { $0 + $1.width }
}

/// Why a BCBP text is not a valid boarding pass: the item and the character position where the
/// problem is (1-based, counted from the `M`), what was found and what the standard accepts.
///
/// `message` reads `item 26 (from city airport code) at characters 31–33: expected three letters
/// A–Z, found "Y1L"`.
public struct BCBPError: Error, Hashable, Sendable, LocalizedError, CustomStringConvertible {
  /// The item at fault (nil for the text as a whole, e.g. its length).
  public var item: BCBPItem?
  /// The first character concerned, 1-based.
  public var position: Int
  /// What was wrong, without the item and position.
  public var reason: String

  public init(item: BCBPItem?, position: Int, reason: String) {
    self.item = item
    self.position = position
    self.reason = reason
  }

  /// The whole message: item, position, reason.
  public var message: String {
    let place = item.map { "\($0) at character \(position)" } ?? "at character \(position)"
    return "\(place): \(reason)"
  }

  public var description: String { message }
  public var errorDescription: String? { message }
}

/// A deviation from the standard that the lenient parser accepted (real airlines print such
/// passes), with where it is (1-based character position) and what was assumed.
public struct BCBPQuirk: Hashable, Sendable, Codable, CustomStringConvertible {
  public enum Kind: String, Hashable, Sendable, Codable {
    /// Item 253 blank (or another letter) instead of `E`.
    case blankElectronicTicketIndicator
    /// A field one character too short or too long, so the fields after it are shifted.
    case shiftedFields
    /// The text ends before what its size fields announce (cut after the mandatory items).
    case cutShort
    /// A field size (item 6, 10 or 17) that disagrees with the data that follows.
    case sizeMismatch
    /// A leg whose mandatory items are all blank: skipped.
    case emptyLeg
    /// Lower-case letters in a hexadecimal size, or blanks or characters after the pass.
    case other
  }

  public var kind: Kind
  /// The first character concerned, 1-based.
  public var position: Int
  /// What was found and what the parser assumed.
  public var message: String

  public init(_ kind: Kind, position: Int, message: String) {
    self.kind = kind
    self.position = position
    self.message = message
  }

  public var description: String { "character \(position): \(message)" }
}
