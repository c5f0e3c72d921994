import Foundation

/// What ``BCBPParser`` read: the pass, and in lenient mode the deviations it accepted.
public struct BCBPParseResult: Hashable, Sendable {
  public var pass: BoardingPass
  /// The quirks tolerated, in text order (always empty in strict mode).
  public var quirks: [BCBPQuirk]

  public init(pass: BoardingPass, quirks: [BCBPQuirk] = []) {
    self.pass = pass
    self.quirks = quirks
  }
}

/// Reads BCBP text (IATA Resolution 792, format `M`, versions 1–8) by walking its size fields, as
/// the standard asks (never by the version number or by blanks).
///
/// - **Strict** (``Mode/strict``): the standard. Every mandatory item is checked (three-letter
///   airports, four-digit flight numbers, a day of the year 001–366, seat `023C`, …), every size
///   must match what follows, the text must end exactly after the last leg or the security data.
///   The first problem throws a ``BCBPError`` naming the item and the 1-based character position.
/// - **Lenient** (``Mode/lenient``, for scanning real passes): accepts what real airlines print
///   and reports each deviation as a ``BCBPQuirk``: a blank or odd electronic-ticket flag, a field
///   one character short or long so that the fields after it are shifted (detected by where the
///   airports, date, seat and sizes fit), a pass cut short after the mandatory items, a size field
///   that disagrees with what follows (the next leg or the security data is found where it really
///   starts), an empty leg (skipped). Text that cannot be a pass at all still throws.
///
/// Neither mode looks at a clock: dates stay days of the year (see ``BCBPDates``).
public enum BCBPParser {
  public enum Mode: String, Hashable, Sendable, Codable {
    case strict
    case lenient
  }

  /// The mandatory part: 23 unique characters, then 37 per leg.
  static let headerLength = 23
  static let legLength = 37

  /// Parses `text`.
  /// - Throws: ``BCBPError`` with the item and 1-based character position of the first problem
  ///   (strict), or of what cannot be recovered (lenient): not printable ASCII, shorter than the
  ///   60 characters of a one-leg pass, no `M`, 0 or more than 4 legs, a size field pointing past
  ///   the end (strict), ….
  public static func parse(_ text: String, mode: Mode = .strict) throws -> BCBPParseResult {
    try BCBPView(text, mode: mode).parseResult
  }

  /// Reads `text` into a validated view (see ``BCBPView``): the checks of ``parse(_:mode:)``, no
  /// field decoded.
  /// - Throws: as ``parse(_:mode:)``, the same errors.
  public static func view(_ text: String, mode: Mode = .strict) throws -> BCBPView {
    try BCBPView(text, mode: mode)
  }

  /// Validates the contiguous UTF-8 `bytes` of `text` and records where its fields are.
  static func layout(of text: String, bytes: UnsafeBufferPointer<UInt8>, mode: Mode) throws -> (BCBPLayout, [BCBPQuirk])
  {
    var reader = Reader(bytes, mode: mode)
    switch try reader.run() {
    case .success: return (reader.layout, reader.quirks)
    case .nonASCII(let offset): throw ReadOutcome.nonASCIIError(text, byteOffset: offset)
    }
  }
}

/// The outcome of reading bytes: a result, or a problem at a byte offset to be turned into a
/// character position (only non-ASCII text has offsets that differ).
private enum ReadOutcome {
  case success
  case nonASCII(byteOffset: Int)

  static func nonASCIIError(_ text: String, byteOffset offset: Int) -> BCBPError {
    let prefix = text.utf8.prefix(offset)
    let position = String(decoding: prefix, as: UTF8.self).count + 1
    let character = text.dropFirst(position - 1).first.map(String.init) ?? "?"
    let scalar = character.unicodeScalars.first.map { String($0.value, radix: 16, uppercase: true) } ?? "?"
    let shown =
      character.unicodeScalars.allSatisfy { $0.properties.generalCategory != .control } ? " \"\(character)\"" : ""
    return BCBPError(
      item: nil, position: position,
      reason:
        "U+\(String(repeating: "0", count: max(0, 4 - scalar.count)))\(scalar)\(shown) is not printable ASCII: a boarding pass holds only characters U+0020–U+007E"
    )
  }
}

private struct Reader {
  let bytes: UnsafeBufferPointer<UInt8>
  let mode: BCBPParser.Mode
  var count: Int
  var quirks: [BCBPQuirk] = []
  /// Where the fields are, filled as the text is read.
  var layout = BCBPLayout()

  init(_ bytes: UnsafeBufferPointer<UInt8>, mode: BCBPParser.Mode) {
    self.bytes = bytes
    self.mode = mode
    count = bytes.count
  }

  var lenient: Bool { mode == .lenient }

  // MARK: Helpers

  @inline(__always) func byte(_ index: Int) -> UInt8 { bytes[index] }

  /// The field `[start, start + width)` without trailing blanks (for messages: the view decodes
  /// the pass's fields).
  func field(_ start: Int, _ width: Int) -> String { BCBPLayout.field(bytes, start, min(count, start + width)) }

  @inline(__always) func hexDigit(_ byte: UInt8) -> Int? {
    switch byte {
    case 0x30...0x39: Int(byte - 0x30)
    case 0x41...0x46: Int(byte - 0x41 + 10)
    case 0x61...0x66: Int(byte - 0x61 + 10)
    default: nil
    }
  }

  /// The two-character hexadecimal size at `index` (upper case; lower case is a quirk), or nil.
  mutating func hexSize(at index: Int, item: @autoclosure () -> BCBPItem) throws -> Int {
    guard index + 2 <= count else {
      throw BCBPError(
        item: item(), position: index + 1, reason: "the text ends at character \(count) before this two-character size")
    }
    let high = byte(index)
    let low = byte(index + 1)
    guard let h = hexDigit(high), let l = hexDigit(low) else {
      throw BCBPError(
        item: item(), position: index + 1,
        reason: "expected two hexadecimal digits 00–FF, found \"\(field(index, 2))\"")
    }
    if high >= 0x61 || low >= 0x61 {
      guard lenient else {
        throw BCBPError(
          item: item(), position: index + 1, reason: "hexadecimal sizes are upper case, found \"\(field(index, 2))\"")
      }
      quirks.append(
        BCBPQuirk(.other, position: index + 1, message: "\(item()) is written in lower case (\"\(field(index, 2))\")"))
    }
    return h << 4 | l
  }

  // MARK: Run

  mutating func run() throws -> ReadOutcome {
    if lenient {
      // Scanners and copy-paste add line ends; they are not part of the pass.
      var end = count
      while end > 0, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
      if end < count {
        quirks.append(BCBPQuirk(.other, position: end + 1, message: "line end after the pass ignored"))
        count = end
      }
    }
    // All printable (eight bytes at a time), else the first character that is not.
    for index in 0..<(Self.allPrintable(bytes, count) ? 0 : count) where !BCBPEncoder.isPrintable(bytes[index]) {
      if bytes[index] >= 0x80 { return .nonASCII(byteOffset: index) }
      throw BCBPError(
        item: nil, position: index + 1,
        reason:
          "control character 0x\(String(format: "%02X", bytes[index])) is not printable ASCII: a boarding pass holds only characters U+0020–U+007E"
      )
    }
    // Lenient: a name or a field one character short makes a one-leg pass of 59 characters.
    let minimum = BCBPParser.headerLength + BCBPParser.legLength - (lenient ? 1 : 0)
    guard count >= minimum else {
      throw BCBPError(
        item: nil, position: max(1, count),
        reason:
          "the text has \(count) characters: a pass has at least 60 (23 for the passenger and 37 for the first leg)"
      )
    }
    guard byte(0) == UInt8(ascii: "M") else {
      throw BCBPError(
        item: .formatCode, position: 1,
        reason: "expected M (the only format of Resolution 792), found \"\(field(0, 1))\"")
    }
    let legsByte = byte(1)
    guard BCBPEncoder.isDigit(legsByte), (1...4).contains(legsByte - 0x30) else {
      throw BCBPError(
        item: .numberOfLegs, position: 2, reason: "expected 1 to 4 legs, found \"\(field(1, 1))\"")
    }
    let legCount = Int(legsByte - 0x30)

    // Leg 1 normally starts at 24; a field one character short or long inside it, or a name of
    // 19 or 21 characters, shifts what follows (lenient).
    var legStart = BCBPParser.headerLength
    var firstLayout = LegLayout.standard
    if lenient && !plausibleLeg(at: legStart) && !isBlankLeg(at: legStart) {
      if let start = realignFirstLeg() {
        legStart = start
      } else if let layout = realignLeg(at: legStart, number: 1) {
        firstLayout = layout
      }
    }
    let nameEnd = legStart - 1
    layout.count = Int32(count)
    layout.nameEnd = Int32(nameEnd)
    let ticket = byte(nameEnd)
    if ticket != UInt8(ascii: "E") {
      let found = ticket == 0x20 ? "blank" : "\"\(field(nameEnd, 1))\""
      guard lenient else {
        throw BCBPError(item: .electronicTicket, position: nameEnd + 1, reason: "expected E, found \(found)")
      }
      quirks.append(
        BCBPQuirk(
          .blankElectronicTicketIndicator, position: nameEnd + 1,
          message: "\(BCBPItem.electronicTicket) is \(found) instead of E"))
    }

    var position = legStart
    var legIndex = 0
    while legIndex < legCount {
      if lenient && legIndex > 0 && (position >= count || byte(position) == UInt8(ascii: "^")) {
        quirks.append(
          BCBPQuirk(
            .cutShort, position: position + 1,
            message: "item 5 announces \(legCount) legs but the text holds \(legIndex)"))
        break
      }
      var legLayout = LegLayout.standard
      if legIndex == 0 {
        legLayout = firstLayout
      } else if lenient, !isBlankLeg(at: position), let fixed = realignLeg(at: position, number: legIndex + 1) {
        legLayout = fixed
      }
      guard position + BCBPParser.legLength + legLayout.shift <= count else {
        throw BCBPError(
          item: .pnr, position: position + 1,
          reason:
            "the text ends at character \(count), inside the 37 mandatory characters of leg \(legIndex + 1) of \(legCount)"
        )
      }
      if lenient && isBlankLeg(at: position) {
        quirks.append(
          BCBPQuirk(.emptyLeg, position: position + 1, message: "leg \(legIndex + 1) is blank: skipped"))
        let size = (try? hexSize(at: position + 35, item: .variableSize)) ?? 0
        position += BCBPParser.legLength + size
        legIndex += 1
        continue
      }
      try mandatoryLeg(at: position, layout: legLayout, number: legIndex + 1)
      var leg = BCBPLayout.Leg(start: position, cut: legLayout.cut, shift: legLayout.shift)
      let sizeIndex = position + legLayout.offset(10)
      let declared = try hexSize(at: sizeIndex, item: .variableSize)
      let conditionalStart = sizeIndex + 2
      var conditionalEnd = conditionalStart + declared
      let isLast = legIndex == legCount - 1
      conditionalEnd = try checkedEnd(
        declared: conditionalEnd, start: conditionalStart, sizeIndex: sizeIndex, leg: legIndex + 1, isLast: isLast)
      try conditional(&leg, first: legIndex == 0, from: conditionalStart, to: conditionalEnd, leg: legIndex + 1)
      layout.append(leg)
      position = conditionalEnd
      legIndex += 1
    }
    if layout.legCount == 0 {
      throw BCBPError(item: .numberOfLegs, position: 2, reason: "no leg holds a flight")
    }
    try security(from: position)
    return .success
  }

  // MARK: Mandatory items of a leg

  /// Where the 11 mandatory items of a leg start relative to the leg, when one of them is one
  /// character short (`shift` −1) or long (+1) from item `cut` on.
  struct LegLayout: Equatable {
    static let widths = [7, 3, 3, 3, 5, 3, 1, 4, 5, 1, 2]
    static let starts = [0, 7, 10, 13, 16, 21, 24, 25, 29, 34, 35]
    static let standard = LegLayout(cut: 11, shift: 0)
    /// The first item that moved.
    var cut: Int
    var shift: Int
    func offset(_ item: Int) -> Int { Self.starts[item] + (item >= cut ? shift : 0) }
    func width(_ item: Int) -> Int { Self.widths[item] + (item == cut - 1 ? shift : 0) }
  }

  /// Whether item `item` of a leg at `start` with `layout` looks right (the lenient parser's test
  /// of where fields are: airports are letters, the date digits, the size hexadecimal, …).
  func plausible(_ item: Int, at start: Int, _ layout: LegLayout) -> Bool {
    let offset = start + layout.offset(item)
    let width = LegLayout.widths[item]
    guard offset >= 0, offset + width <= count else { return false }
    let slice = UnsafeBufferPointer(rebasing: bytes[offset..<(offset + width)])
    switch item {
    case 1, 2: return slice.allSatisfy(BCBPEncoder.isUpperLetter)
    case 3:
      return BCBPEncoder.isAlphanumeric(slice[0]) && BCBPEncoder.isAlphanumeric(slice[1])
        && (slice[2] == 0x20 || BCBPEncoder.isAlphanumeric(slice[2]))
    case 4:
      // Lenient: a number written without its leading zeros (" 834").
      let leading = slice.prefix(4).allSatisfy { BCBPEncoder.isDigit($0) || (lenient && $0 == 0x20) }
      return leading && BCBPEncoder.isDigit(slice[3]) && (slice[4] == 0x20 || BCBPEncoder.isUpperLetter(slice[4]))
    case 5:
      guard slice.allSatisfy(BCBPEncoder.isDigit) else { return false }
      let day = Int(slice[0] - 0x30) * 100 + Int(slice[1] - 0x30) * 10 + Int(slice[2] - 0x30)
      return (1...366).contains(day)
    case 6: return BCBPEncoder.isUpperLetter(slice[0])
    case 7: return BCBPEncoder.validSeat(slice)
    case 8: return BCBPEncoder.validSequence(slice)
    case 9: return BCBPEncoder.isAlphanumeric(slice[0]) || (lenient && slice[0] == 0x20)
    case 10: return hexDigit(slice[0]) != nil && hexDigit(slice[1]) != nil
    default: return true
    }
  }

  func plausibleLeg(at start: Int, _ layout: LegLayout = .standard) -> Bool {
    if layout == .standard {
      return start >= 0 && start + BCBPParser.legLength <= count && standardLegFits(at: start)
        && plausible(10, at: start, layout)
    }
    return (1...10).allSatisfy { plausible($0, at: start, layout) }
  }

  /// Whether items 26 … 117 of a leg at `start` in the standard layout are all ``plausible(_:at:_:)``
  /// (the same tests, on fixed offsets: the common case, read without the general loop). The
  /// caller makes sure the 35 characters are in the text.
  @inline(__always) func standardLegFits(at start: Int) -> Bool {
    let leg = UnsafeBufferPointer(rebasing: bytes[start..<(start + 35)])
    let upper = BCBPEncoder.isUpperLetter
    let digit = BCBPEncoder.isDigit
    let alphanumeric = BCBPEncoder.isAlphanumeric
    // Items 26, 38 (airports), 42 (carrier).
    guard upper(leg[7]), upper(leg[8]), upper(leg[9]), upper(leg[10]), upper(leg[11]), upper(leg[12]),
      alphanumeric(leg[13]), alphanumeric(leg[14]), leg[15] == 0x20 || alphanumeric(leg[15])
    else { return false }
    // Item 43 (flight number; lenient: leading blanks), 46 (day of the year), 71 (compartment).
    for index in 16..<19 where !(digit(leg[index]) || (lenient && leg[index] == 0x20)) { return false }
    guard digit(leg[19]), leg[20] == 0x20 || upper(leg[20]), digit(leg[21]), digit(leg[22]), digit(leg[23]),
      upper(leg[24])
    else { return false }
    let day = Int(leg[21] &- 0x30) * 100 + Int(leg[22] &- 0x30) * 10 + Int(leg[23] &- 0x30)
    guard (1...366).contains(day) else { return false }
    // Items 104 (seat), 107 (sequence), 117 (passenger status).
    return BCBPEncoder.validSeat(UnsafeBufferPointer(rebasing: leg[25..<29]))
      && BCBPEncoder.validSequence(UnsafeBufferPointer(rebasing: leg[29..<34]))
      && (alphanumeric(leg[34]) || (lenient && leg[34] == 0x20))
  }

  /// Whether the first `count` bytes are all printable ASCII (U+0020–U+007E), eight at a time:
  /// a byte below 0x20 borrows into its high bit when 0x20 is subtracted, a byte above 0x7E has
  /// its high bit set once 0x01 is added (or had it already).
  static func allPrintable(_ bytes: UnsafeBufferPointer<UInt8>, _ count: Int) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    let raw = UnsafeRawPointer(base)
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    var flagged: UInt64 = 0
    var index = 0
    while index + 8 <= count {
      let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      flagged |= ((word &- ones &* 0x20) & ~word) | ((word &+ ones) | word)
      index += 8
    }
    var tail: UInt8 = 0
    while index < count {
      tail |= (bytes[index] &- 0x20) > 0x5E ? 1 : 0
      index += 1
    }
    return flagged & highs == 0 && tail == 0
  }

  func isBlankLeg(at start: Int) -> Bool {
    guard start + 35 <= count else { return false }
    return UnsafeBufferPointer(rebasing: bytes[start..<(start + 35)]).allSatisfy { $0 == 0x20 }
  }

  /// Leg 1 one character earlier or later (a name of 19 or 21 characters), when it does not fit
  /// at character 24 but fits there, after an electronic-ticket flag (`E` or blank).
  mutating func realignFirstLeg() -> Int? {
    let start = BCBPParser.headerLength
    for candidate in [start - 1, start + 1]
    where plausibleLeg(at: candidate) && (byte(candidate - 1) == UInt8(ascii: "E") || byte(candidate - 1) == 0x20) {
      let shift = candidate - start
      quirks.append(
        BCBPQuirk(
          .shiftedFields, position: candidate + 1,
          message:
            "the passenger name (item 11) is \(20 + shift) characters instead of 20: the fields after it are shifted \(shift < 0 ? "left" : "right") by one"
        ))
      return candidate
    }
    return nil
  }

  /// Whether item `item` of a leg at `start` looks right written in `width` characters (one
  /// fewer or more than the standard's): a designator of 2 characters, a flight number or
  /// sequence without its suffix position, a seat without a leading zero, a longer PNR, ….
  func plausibleResized(_ item: Int, at start: Int, width: Int) -> Bool {
    let offset = start + LegLayout.starts[item]
    guard width > 0, offset + width <= count else { return false }
    let slice = UnsafeBufferPointer(rebasing: bytes[offset..<(offset + width)])
    let digitsOrBlanks = { (part: Slice<UnsafeBufferPointer<UInt8>>) in
      part.allSatisfy { BCBPEncoder.isDigit($0) || $0 == 0x20 } && part.contains(where: BCBPEncoder.isDigit)
    }
    switch item {
    case 0: return slice.contains { $0 != 0x20 }
    case 3:
      return BCBPEncoder.isAlphanumeric(slice[0]) && BCBPEncoder.isAlphanumeric(slice[1])
        && slice.dropFirst(2).allSatisfy { $0 == 0x20 || BCBPEncoder.isAlphanumeric($0) }
    case 4, 8:
      let last = slice[width - 1]
      let body = BCBPEncoder.isDigit(last) ? slice[...] : slice.dropLast()
      return digitsOrBlanks(body) && (BCBPEncoder.isDigit(last) || last == 0x20 || BCBPEncoder.isUpperLetter(last))
    case 7:
      return BCBPEncoder.isUpperLetter(slice[width - 1]) && digitsOrBlanks(slice.dropLast())
    default: return false
    }
  }

  /// The layout of a leg whose items from one of them on are shifted by one character, when the
  /// standard layout does not fit and that one does: the item just before the shift is one
  /// character short or long. The first item that does not fit is tried as the culprit first.
  mutating func realignLeg(at start: Int, number: Int) -> LegLayout? {
    guard let failing = (1...10).first(where: { !plausible($0, at: start, .standard) }) else { return nil }
    if isBlankLeg(at: start) { return nil }
    for cut in stride(from: min(failing + 1, 10), through: 1, by: -1) {
      guard (1..<max(1, cut - 1)).allSatisfy({ plausible($0, at: start, .standard) }) else { continue }
      for shift in [-1, 1] {
        let layout = LegLayout(cut: cut, shift: shift)
        guard plausibleResized(cut - 1, at: start, width: LegLayout.widths[cut - 1] + shift),
          (cut...10).allSatisfy({ plausible($0, at: start, layout) })
        else { continue }
        let short = LegItems.all[cut - 1]
        let moved = LegItems.all[cut]
        quirks.append(
          BCBPQuirk(
            .shiftedFields, position: start + layout.offset(cut) + 1,
            message:
              "leg \(number): \(short) is \(short.width + shift) characters instead of \(short.width), so \(moved) and the fields after it are shifted \(shift < 0 ? "left" : "right") by one"
          ))
        return layout
      }
    }
    return nil
  }

  /// Checks the mandatory items of a leg (strict: items 26–117; lenient: the date, which the
  /// pass cannot be read without).
  func mandatoryLeg(at start: Int, layout: LegLayout, number: Int) throws {
    if layout == .standard && standardLegFits(at: start) { return }
    if !lenient || layout == .standard {
      for item in 1...9 where !plausible(item, at: start, layout) {
        if lenient && item != 5 { continue }
        let at = start + layout.offset(item)
        let bcbp = LegItems.all[item]
        throw BCBPError(
          item: bcbp, position: at + 1,
          reason: "expected \(LegItems.expected[item]), found \"\(field(at, bcbp.width))\"")
      }
    } else if !plausible(5, at: start, layout) {
      let at = start + layout.offset(5)
      throw BCBPError(
        item: .dateOfFlight, position: at + 1, reason: "expected \(LegItems.expected[5]), found \"\(field(at, 3))\"")
    }
  }

  // MARK: Conditional items

  /// The end of a leg's conditional data: `declared` in strict mode (or an error when it passes the
  /// end); in lenient mode where the next leg, the security data or the end really is.
  mutating func checkedEnd(declared: Int, start: Int, sizeIndex: Int, leg: Int, isLast: Bool) throws -> Int {
    let size = declared - start
    if !lenient {
      guard declared <= count else {
        throw BCBPError(
          item: .variableSize, position: sizeIndex + 1,
          reason:
            "leg \(leg) announces \(size) (0x\(String(format: "%02X", size))) characters of conditional data from character \(start + 1), but the text ends at character \(count)"
        )
      }
      return declared
    }
    // Lenient: trust the size when what follows fits.
    if declared <= count && fitsAfterLeg(declared, isLast: isLast) { return declared }
    if declared > count && isLast && !containsSecurity(from: start) {
      quirks.append(
        BCBPQuirk(
          .cutShort, position: count + 1,
          message:
            "leg \(leg) announces \(size) characters of conditional data but the text ends after \(count - start): the missing items are blank"
        ))
      return count
    }
    // Find where the next part really starts, nearest to the declared end.
    let candidates = (start...count).filter { fitsAfterLeg($0, isLast: isLast) }
    if let best = candidates.min(by: { abs($0 - declared) < abs($1 - declared) }) {
      let actual = best - start
      quirks.append(
        BCBPQuirk(
          .sizeMismatch, position: sizeIndex + 1,
          message:
            "\(BCBPItem.variableSize) of leg \(leg) says \(size) (0x\(String(format: "%02X", size))) but \(actual) characters of conditional data follow"
        ))
      return best
    }
    throw BCBPError(
      item: .variableSize, position: sizeIndex + 1,
      reason:
        "leg \(leg) announces \(size) characters of conditional data, and no \(isLast ? "end of the pass" : "next leg") was found near character \(declared + 1)"
    )
  }

  /// Whether the pass can go on at `index` after a leg: the next leg, or (after the last leg) the end
  /// or a security section that ends the text.
  func fitsAfterLeg(_ index: Int, isLast: Bool) -> Bool {
    if !isLast { return plausibleLeg(at: index) || (isBlankLeg(at: index) && index + 37 <= count) }
    if index == count { return true }
    return isSecurityStart(index)
  }

  func isSecurityStart(_ index: Int) -> Bool {
    guard index + 4 <= count, byte(index) == UInt8(ascii: "^"), let high = hexDigit(byte(index + 2)),
      let low = hexDigit(byte(index + 3))
    else { return false }
    let end = index + 4 + (high << 4 | low)
    return end == count || (end > count && lenient)
  }

  func containsSecurity(from start: Int) -> Bool {
    (start..<count).contains { isSecurityStart($0) }
  }

  /// Reads the conditional data `[start, end)` of leg `number` (the unique block first on leg 1),
  /// recording where its blocks are in `leg` and in the layout.
  mutating func conditional(
    _ leg: inout BCBPLayout.Leg, first: Bool, from start: Int, to end: Int, leg number: Int
  ) throws {
    leg.setRepeated(end, end, end: end)
    guard start < end else { return }
    var cursor = start
    if first {
      if byte(cursor) == UInt8(ascii: ">") {
        guard cursor + 4 <= end else {
          if !lenient {
            throw BCBPError(
              item: .uniqueSize, position: cursor + 1,
              reason: "the conditional data of leg 1 ends at character \(end) inside the version header (4 characters)")
          }
          if cursor + 1 < end { layout.version = Int32(cursor + 1) }
          quirks.append(BCBPQuirk(.cutShort, position: end + 1, message: "the pass ends inside the version header"))
          return
        }
        layout.version = Int32(cursor + 1)
        let uniqueSize = try hexSize(at: cursor + 2, item: .uniqueSize)
        cursor += 4
        var uniqueEnd = cursor + uniqueSize
        if uniqueEnd > end {
          guard lenient else {
            throw BCBPError(
              item: .uniqueSize, position: cursor - 1,
              reason:
                "the unique block announces \(uniqueSize) characters from character \(cursor + 1), past the end of leg 1's conditional data at character \(end)"
            )
          }
          quirks.append(
            BCBPQuirk(
              .sizeMismatch, position: cursor - 1,
              message:
                "\(BCBPItem.uniqueSize) says \(uniqueSize) but only \(end - cursor) characters of leg 1's conditional data remain"
            ))
          uniqueEnd = end
        }
        try block(unique: true, from: cursor, to: uniqueEnd, sizeAt: cursor - 2)
        layout.uniqueStart = Int32(cursor)
        layout.uniqueEnd = Int32(uniqueEnd)
        // Item 22 is the fourth item of the unique block (after three one-character items).
        let issueStart = cursor + 3
        let issueEnd = min(issueStart + 4, uniqueEnd)
        if issueStart < issueEnd, !validIssueDate(at: issueStart, end: uniqueEnd),
          UnsafeBufferPointer(rebasing: bytes[issueStart..<issueEnd]).contains(where: { $0 != 0x20 })
        {
          let issue = field(issueStart, issueEnd - issueStart)
          if !lenient {
            throw BCBPError(
              item: .issueDate, position: cursor + 4,
              reason: "expected the year's last digit and a day of the year 001–366 (6225), found \"\(issue)\"")
          }
          quirks.append(
            BCBPQuirk(
              .other, position: cursor + 4, message: "\(BCBPItem.issueDate) \"\(issue)\" is not a date: ignored"))
          layout.issueDateIgnored = true
        }
        cursor = uniqueEnd
      } else {
        guard lenient else {
          throw BCBPError(
            item: .versionBeginning, position: cursor + 1,
            reason: "the conditional data of leg 1 starts with \">\", found \"\(field(cursor, 1))\"")
        }
        quirks.append(
          BCBPQuirk(
            .other, position: cursor + 1,
            message: "leg 1's conditional data has no version header (\">\"): read as the leg's repeated items"))
      }
    }
    guard cursor < end else { return }
    guard cursor + 2 <= end, hexDigit(byte(cursor)) != nil, hexDigit(byte(cursor + 1)) != nil else {
      guard lenient else {
        throw BCBPError(
          item: .repeatedSize, position: cursor + 1,
          reason: "expected two hexadecimal digits 00–FF, found \"\(field(cursor, min(2, end - cursor)))\"")
      }
      quirks.append(
        BCBPQuirk(
          .sizeMismatch, position: cursor + 1,
          message: "leg \(number) has no \(BCBPItem.repeatedSize): \(end - cursor) characters read as airline data"))
      leg.setRepeated(cursor, cursor, end: end)
      return
    }
    let repeatedSize = try hexSize(at: cursor, item: .repeatedSize)
    cursor += 2
    var repeatedEnd = cursor + repeatedSize
    if repeatedEnd > end {
      guard lenient else {
        throw BCBPError(
          item: .repeatedSize, position: cursor - 1,
          reason:
            "leg \(number)'s repeated block announces \(repeatedSize) characters from character \(cursor + 1), past the end of its conditional data at character \(end)"
        )
      }
      quirks.append(
        BCBPQuirk(
          .sizeMismatch, position: cursor - 1,
          message:
            "\(BCBPItem.repeatedSize) of leg \(number) says \(repeatedSize) but only \(end - cursor) characters remain")
      )
      repeatedEnd = end
    }
    try block(unique: false, from: cursor, to: repeatedEnd, sizeAt: cursor - 2)
    leg.setRepeated(cursor, repeatedEnd, end: end)
  }

  /// Widths and numeric kinds of the unique and repeated blocks' items (no `BCBPItem` on the
  /// fast path: its strings would be retained for every item read).
  static let uniqueWidths = BCBPItem.uniqueItems.map(\.width)
  static let uniqueNumeric = BCBPItem.uniqueItems.map(\.isNumeric)
  static let repeatedWidths = BCBPItem.repeatedItems.map(\.width)
  static let repeatedNumeric = BCBPItem.repeatedItems.map(\.isNumeric)

  /// Checks the items of the unique or repeated block `[start, end)`, in order (strict: numeric
  /// items are digits or blanks; an item cut by the block's end is an error, a quirk when
  /// lenient). Items past the block are blank.
  mutating func block(unique: Bool, from start: Int, to end: Int, sizeAt: Int) throws {
    if !lenient && strictBlockFits(unique: unique, from: start, to: end) { return }
    let widths = unique ? Self.uniqueWidths : Self.repeatedWidths
    let numeric = unique ? Self.uniqueNumeric : Self.repeatedNumeric
    var cursor = start
    for index in widths.indices {
      guard cursor < end else { break }
      let itemWidth = widths[index]
      let available = end - cursor
      if available < itemWidth {
        let item = (unique ? BCBPItem.uniqueItems : BCBPItem.repeatedItems)[index]
        guard lenient else {
          throw BCBPError(
            item: item, position: cursor + 1,
            reason:
              "the block's size (character \(sizeAt + 1)) ends it after \(available) of this item's \(itemWidth) characters"
          )
        }
        quirks.append(
          BCBPQuirk(
            .sizeMismatch, position: cursor + 1,
            message: "\(item) is cut after \(available) of its \(itemWidth) characters by its block's size"))
      }
      let width = min(itemWidth, available)
      if !lenient, numeric[index], width == itemWidth {
        let slice = UnsafeBufferPointer(rebasing: bytes[cursor..<(cursor + width)])
        if !slice.allSatisfy({ $0 == 0x20 }) && !slice.allSatisfy(BCBPEncoder.isDigit) {
          throw BCBPError(
            item: (unique ? BCBPItem.uniqueItems : BCBPItem.repeatedItems)[index], position: cursor + 1,
            reason: "expected digits or blanks, found \"\(field(cursor, width))\"")
        }
      }
      cursor += width
    }
    if cursor < end {
      let limit = widths.reduce(0, +)
      guard lenient else {
        throw BCBPError(
          item: unique ? .uniqueSize : .repeatedSize, position: sizeAt + 1,
          reason: "the block announces \(end - start) characters, but version 8 defines at most \(limit)")
      }
      quirks.append(
        BCBPQuirk(
          .sizeMismatch, position: cursor + 1,
          message: "\(end - cursor) characters after the last known item of the block ignored"))
    }
  }

  /// Whether a strict reading of the block `[start, end)` finds nothing wrong (the common case,
  /// without the general loop): it ends where an item ends, and its numeric item (22 in the
  /// unique block, 142 in the repeated one), when there, is digits or blanks.
  @inline(__always) func strictBlockFits(unique: Bool, from start: Int, to end: Int) -> Bool {
    let length = end - start
    let numericStart: Int
    let numericWidth: Int
    if unique {
      // Items 15, 12, 14, 22, 16, 21, 23, 31, 32 end at these offsets.
      switch length {
      case 0, 1, 2, 3, 7, 8, 11, 24, 37, 50: break
      default: return false
      }
      (numericStart, numericWidth) = (3, 4)
    } else {
      // Items 142, 143, 18, 108, 19, 20, 236, 89, 118, 254.
      switch length {
      case 0, 3, 13, 14, 15, 18, 21, 37, 38, 41, 42: break
      default: return false
      }
      (numericStart, numericWidth) = (0, 3)
    }
    guard length >= numericStart + numericWidth else { return true }
    let numeric = UnsafeBufferPointer(rebasing: bytes[(start + numericStart)..<(start + numericStart + numericWidth)])
    return numeric.allSatisfy(BCBPEncoder.isDigit) || numeric.allSatisfy { $0 == 0x20 }
  }

  /// Whether the four characters of item 22 at `start` (before `end`) are a digit and a day of the
  /// year 001–366.
  func validIssueDate(at start: Int, end: Int) -> Bool {
    guard start + 4 <= end else { return false }
    var day = 0
    for index in start..<(start + 4) {
      guard BCBPEncoder.isDigit(bytes[index]) else { return false }
      if index > start { day = day * 10 + Int(bytes[index] - 0x30) }
    }
    return (1...366).contains(day)
  }

  // MARK: Security

  mutating func security(from start: Int) throws {
    guard start < count else { return }
    guard byte(start) == UInt8(ascii: "^") else {
      let rest = UnsafeBufferPointer(rebasing: bytes[start..<count])
      if lenient && rest.allSatisfy({ $0 == 0x20 }) {
        quirks.append(
          BCBPQuirk(.other, position: start + 1, message: "\(count - start) blank(s) after the pass ignored"))
        return
      }
      throw BCBPError(
        item: .securityBeginning, position: start + 1,
        reason: "after the last leg the pass ends or the security data begins with \"^\", found \"\(field(start, 1))\"")
    }
    guard start + 4 <= count else {
      guard lenient else {
        throw BCBPError(
          item: .securityLength, position: start + 1,
          reason: "the text ends at character \(count) inside the security header (4 characters)")
      }
      quirks.append(BCBPQuirk(.cutShort, position: start + 1, message: "the security header is cut short: ignored"))
      return
    }
    layout.securityType = Int32(start + 1)
    let length = try hexSize(at: start + 2, item: .securityLength)
    let dataStart = start + 4
    var dataEnd = dataStart + length
    if dataEnd != count {
      guard lenient else {
        throw BCBPError(
          item: .securityLength, position: start + 3,
          reason: dataEnd > count
            ? "the security data announces \(length) characters but the text ends after \(count - dataStart)"
            : "\(count - dataEnd) character(s) follow the \(length) characters of security data")
      }
      quirks.append(
        BCBPQuirk(
          dataEnd > count ? .cutShort : .sizeMismatch, position: start + 3,
          message:
            "\(BCBPItem.securityLength) says \(length) but \(count - dataStart) characters follow: all of them read as security data"
        ))
      dataEnd = count
    }
    layout.securityStart = Int32(dataStart)
    layout.securityEnd = Int32(dataEnd)
  }
}

/// The mandatory items of a leg by index (as ``Reader/LegLayout`` counts them) and what each accepts.
private enum LegItems {
  static let all: [BCBPItem] = BCBPItem.legItems
  static let expected = [
    "up to 7 characters", "a three-letter IATA airport code", "a three-letter IATA airport code",
    "a 2- or 3-character airline designator", "four digits and an optional letter (0834)",
    "a day of the year 001–366", "a compartment letter (F, J, Y, …)",
    "a three-digit row and a letter (023C), letters (INF) or blank",
    "four digits and an optional letter (0025) or blank",
    "a letter or digit", "two hexadecimal digits",
  ]
}
