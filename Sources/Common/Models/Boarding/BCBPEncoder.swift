import Foundation

/// Writes a ``BoardingPass`` as BCBP text, strictly (standards.md §1.5): every field is checked
/// against its item's width and content, text fields are blank-padded on the right, sizes are
/// upper-case hexadecimal, and only printable ASCII (U+0020–U+007E) is written.
///
/// Conditional blocks are written up to their last non-blank item (the size field tells a reader
/// how many items follow); a leg's airline data follows a complete repeated block.
public enum BCBPEncoder {
  /// The BCBP text of `pass`.
  /// - Throws: ``BCBPError`` naming the item and where it would have been written, when a field
  ///   is too long, has the wrong characters, or the pass has no leg or more than four.
  public static func encode(_ pass: BoardingPass) throws -> String {
    var out: [UInt8] = []
    out.reserveCapacity(160 + pass.legs.count * 90)
    try write(pass, into: &out, signing: false)
    return String(decoding: out, as: UTF8.self)
  }

  /// The text a signature covers: the pass up to (not including) the security section.
  /// - Throws: as ``encode(_:)``.
  public static func signedText(_ pass: BoardingPass) throws -> String {
    var out: [UInt8] = []
    try write(pass, into: &out, signing: true)
    return String(decoding: out, as: UTF8.self)
  }

  private static func write(_ pass: BoardingPass, into out: inout [UInt8], signing: Bool) throws {
    guard (1...BoardingPass.legLimit).contains(pass.legs.count) else {
      throw BCBPError(
        item: .numberOfLegs, position: 2,
        reason: "a pass holds 1 to \(BoardingPass.legLimit) legs, this one has \(pass.legs.count)")
    }
    out.append(UInt8(ascii: "M"))
    out.append(UInt8(ascii: "0") + UInt8(pass.legs.count))
    guard !pass.passengerName.isEmpty else {
      throw BCBPError(item: .passengerName, position: 3, reason: "the passenger name is empty")
    }
    try text(pass.passengerName, .passengerName, into: &out)
    try text(pass.electronicTicketIndicator, .electronicTicket, into: &out)
    // The unique block starts after leg 1's 37 characters, '>', the version and its size.
    let unique = try uniqueBlock(pass, at: out.count + 37 + 5)
    if pass.version == nil {
      let hasConditional = !unique.isEmpty || pass.legs.contains { !repeatedIsBlank($0) || !$0.airlineData.isEmpty }
      if hasConditional {
        throw BCBPError(
          item: .version, position: out.count + 38 + 1,
          reason: "conditional items are given but no version number: set item 9 (e.g. \(BoardingPass.currentVersion))")
      }
    }
    for (index, leg) in pass.legs.enumerated() {
      let legStart = out.count
      try mandatory(leg, into: &out)
      var conditional: [UInt8] = []
      // 1-based position of the leg's first conditional character (after item 6).
      let conditionalStart = out.count + 3
      if index == 0, let version = pass.version {
        conditional.append(UInt8(ascii: ">"))
        guard version.utf8.count == 1, let byte = version.utf8.first, isPrintable(byte) else {
          throw BCBPError(
            item: .version, position: conditionalStart + 1, reason: "expected one character, found \"\(version)\"")
        }
        conditional.append(byte)
        conditional += hex(unique.count)
        conditional += unique
      }
      conditional += try repeatedBlock(leg, at: conditionalStart + conditional.count)
      guard conditional.count <= 255 else {
        throw BCBPError(
          item: .variableSize, position: legStart + 36,
          reason: "leg \(index + 1) has \(conditional.count) characters of conditional data: at most 255 (FF) fit")
      }
      out += hex(conditional.count)
      out += conditional
    }
    guard !signing, let type = pass.securityType else { return }
    let start = out.count + 1
    guard type.utf8.count == 1, let typeByte = type.utf8.first, isPrintable(typeByte) else {
      throw BCBPError(item: .securityType, position: start + 1, reason: "expected one character, found \"\(type)\"")
    }
    let data = Array(pass.securityData.utf8)
    guard data.count <= 255 else {
      throw BCBPError(
        item: .securityData, position: start + 4, reason: "\(data.count) characters: at most 255 (FF) fit")
    }
    if let bad = data.firstIndex(where: { !isPrintable($0) }) {
      throw BCBPError(
        item: .securityData, position: start + 4 + bad, reason: "only printable ASCII is allowed")
    }
    out.append(UInt8(ascii: "^"))
    out.append(typeByte)
    out += hex(data.count)
    out += data
  }

  private static func mandatory(_ leg: BoardingPass.Leg, into out: inout [UInt8]) throws {
    try text(leg.pnr, .pnr, into: &out)
    try letters(leg.from, .from, into: &out)
    try letters(leg.to, .to, into: &out)
    guard (2...3).contains(leg.carrier.utf8.count), leg.carrier.utf8.allSatisfy(isAlphanumeric) else {
      throw BCBPError(
        item: .carrier, position: out.count + 1,
        reason: "expected a 2- or 3-character airline designator, found \"\(leg.carrier)\"")
    }
    try text(leg.carrier, .carrier, into: &out)
    let flight = Array(leg.flightNumber.utf8)
    guard flight.count == 4 || flight.count == 5, flight.prefix(4).allSatisfy(isDigit),
      flight.count == 4 || isUpperLetter(flight[4])
    else {
      throw BCBPError(
        item: .flightNumber, position: out.count + 1,
        reason: "expected four digits with leading zeros and an optional letter (0834), found \"\(leg.flightNumber)\"")
    }
    try text(leg.flightNumber, .flightNumber, into: &out)
    guard (1...366).contains(leg.dayOfYear) else {
      throw BCBPError(
        item: .dateOfFlight, position: out.count + 1, reason: "expected a day of the year 1–366, found \(leg.dayOfYear)"
      )
    }
    out += digits(leg.dayOfYear, width: 3)
    guard leg.compartment.utf8.count == 1, leg.compartment.utf8.allSatisfy(isUpperLetter) else {
      throw BCBPError(
        item: .compartment, position: out.count + 1, reason: "expected one letter, found \"\(leg.compartment)\"")
    }
    try text(leg.compartment, .compartment, into: &out)
    guard validSeat(Array(leg.seat.utf8)) else {
      throw BCBPError(
        item: .seat, position: out.count + 1,
        reason: "expected a three-digit row and a letter (023C), letters (INF) or blank, found \"\(leg.seat)\"")
    }
    try text(leg.seat, .seat, into: &out)
    guard validSequence(Array(leg.checkInSequence.utf8)) else {
      throw BCBPError(
        item: .sequence, position: out.count + 1,
        reason: "expected four digits and an optional letter (0025) or blank, found \"\(leg.checkInSequence)\"")
    }
    try text(leg.checkInSequence, .sequence, into: &out)
    guard leg.passengerStatus.utf8.count == 1, leg.passengerStatus.utf8.allSatisfy(isAlphanumeric) else {
      throw BCBPError(
        item: .passengerStatus, position: out.count + 1,
        reason: "expected one letter or digit, found \"\(leg.passengerStatus)\"")
    }
    try text(leg.passengerStatus, .passengerStatus, into: &out)
  }

  private static func uniqueBlock(_ pass: BoardingPass, at position: Int) throws -> [UInt8] {
    let values = [
      pass.passengerDescription, pass.checkInSource, pass.issuanceSource, pass.issueDate, pass.documentType,
      pass.issuer, pass.baggageTag, pass.firstNonConsecutiveBaggageTag, pass.secondNonConsecutiveBaggageTag,
    ]
    if !pass.issueDate.isEmpty {
      let bytes = Array(pass.issueDate.utf8)
      guard bytes.count == 4, bytes.allSatisfy(isDigit), let day = Int(pass.issueDate.dropFirst()), (1...366) ~= day
      else {
        throw BCBPError(
          item: .issueDate, position: position,
          reason: "expected the year's last digit and a day of the year 001–366 (6225), found \"\(pass.issueDate)\"")
      }
    }
    return try block(values, BCBPItem.uniqueItems, at: position)
  }

  private static func repeatedIsBlank(_ leg: BoardingPass.Leg) -> Bool {
    repeatedValues(leg).allSatisfy(\.isEmpty)
  }

  private static func repeatedValues(_ leg: BoardingPass.Leg) -> [String] {
    [
      leg.airlineNumericCode, leg.documentSerialNumber, leg.selecteeIndicator,
      leg.internationalDocumentationVerification, leg.marketingCarrier, leg.frequentFlyerAirline,
      leg.frequentFlyerNumber, leg.idAdIndicator, leg.freeBaggageAllowance, leg.fastTrack,
    ]
  }

  private static func repeatedBlock(_ leg: BoardingPass.Leg, at position: Int) throws -> [UInt8] {
    let values = repeatedValues(leg)
    let airline = Array(leg.airlineData.utf8)
    if let bad = airline.firstIndex(where: { !isPrintable($0) }) {
      throw BCBPError(
        item: .airlineData, position: position + 2 + BCBPItem.repeatedBlockLimit + bad,
        reason: "only printable ASCII is allowed")
    }
    if values.allSatisfy(\.isEmpty) && airline.isEmpty { return [] }
    // Airline data follows a complete repeated block.
    let body = try block(values, BCBPItem.repeatedItems, at: position + 2, full: !airline.isEmpty)
    return hex(body.count) + body + airline
  }

  /// `values` written as `items` up to the last non-blank one (all of them when `full`).
  private static func block(_ values: [String], _ items: [BCBPItem], at position: Int, full: Bool = false) throws
    -> [UInt8]
  {
    let last = full ? values.count - 1 : (values.lastIndex { !$0.isEmpty } ?? -1)
    var out: [UInt8] = []
    guard last >= 0 else { return out }
    for index in 0...last {
      let item = items[index]
      if item.isNumeric && !values[index].isEmpty && !values[index].utf8.allSatisfy(isDigit) {
        throw BCBPError(
          item: item, position: position + out.count, reason: "expected digits, found \"\(values[index])\"")
      }
      try text(values[index], item, into: &out, offset: position - 1)
    }
    return out
  }

  /// Writes `value` left-justified in `item.width` characters.
  private static func text(_ value: String, _ item: BCBPItem, into out: inout [UInt8], offset: Int = 0) throws {
    let bytes = Array(value.utf8)
    guard bytes.count <= item.width else {
      throw BCBPError(
        item: item, position: offset + out.count + 1,
        reason: "\"\(value)\" has \(value.count) characters: at most \(item.width) fit")
    }
    if let bad = bytes.firstIndex(where: { !isPrintable($0) }) {
      throw BCBPError(
        item: item, position: offset + out.count + 1 + bad,
        reason: "only printable ASCII is allowed, found \"\(value)\"")
    }
    out += bytes
    out += repeatElement(UInt8(ascii: " "), count: item.width - bytes.count)
  }

  private static func letters(_ value: String, _ item: BCBPItem, into out: inout [UInt8]) throws {
    guard value.utf8.count == 3, value.utf8.allSatisfy(isUpperLetter) else {
      throw BCBPError(
        item: item, position: out.count + 1, reason: "expected a three-letter IATA code, found \"\(value)\"")
    }
    out += Array(value.utf8)
  }

  static func hex(_ value: Int) -> [UInt8] {
    let digits = Array("0123456789ABCDEF".utf8)
    return [digits[(value >> 4) & 0xF], digits[value & 0xF]]
  }

  static func digits(_ value: Int, width: Int) -> [UInt8] {
    var out = [UInt8](repeating: UInt8(ascii: "0"), count: width)
    var rest = value
    for index in stride(from: width - 1, through: 0, by: -1) {
      out[index] = UInt8(ascii: "0") + UInt8(rest % 10)
      rest /= 10
    }
    return out
  }

  // MARK: Character classes (shared with the parser)

  @inline(__always) static func isPrintable(_ byte: UInt8) -> Bool { byte >= 0x20 && byte <= 0x7E }
  @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
  @inline(__always) static func isUpperLetter(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }
  @inline(__always) static func isAlphanumeric(_ byte: UInt8) -> Bool { isDigit(byte) || isUpperLetter(byte) }

  /// `023C`, `INF`, or blank.
  static func validSeat<C: Collection>(_ seat: C) -> Bool where C.Element == UInt8 {
    guard let first = seat.first, seat.contains(where: { $0 != 0x20 }) else { return true }
    var digits = 0
    var index = seat.startIndex
    while index != seat.endIndex, isDigit(seat[index]) {
      digits += 1
      seat.formIndex(after: &index)
    }
    if digits == 3, index != seat.endIndex, isUpperLetter(seat[index]), seat.count == 4 { return true }
    return isUpperLetter(first) && seat.allSatisfy { isUpperLetter($0) || $0 == 0x20 }
  }

  /// `0025`, `0025A`, or blank.
  static func validSequence<C: Collection>(_ sequence: C) -> Bool where C.Element == UInt8 {
    if sequence.allSatisfy({ $0 == 0x20 }) { return true }
    guard sequence.count >= 4, sequence.prefix(4).allSatisfy(isDigit) else { return false }
    guard let fifth = sequence.dropFirst(4).first else { return true }
    return isAlphanumeric(fifth) || fifth == 0x20
  }
}

extension BoardingPass {
  /// The BCBP text of this pass (``BCBPEncoder/encode(_:)``).
  /// - Throws: ``BCBPError`` for a field that does not fit the standard.
  public func encoded() throws -> String { try BCBPEncoder.encode(self) }
}
