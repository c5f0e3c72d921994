import Foundation

/// A boarding pass read from its BCBP text without copying it: the text is validated in one pass
/// (the checks and errors of ``BCBPParser``, strict or lenient) that only records where each
/// field is; a field is decoded when it is read.
///
/// Reading a view allocates nothing but its quirks (lenient mode, only when there are some): no
/// `String` per field, no `Date` or `Calendar`. Text fields are decoded on access (without their
/// padding blanks, exactly as ``BoardingPass`` holds them); ``Leg/dayOfYear``,
/// ``issueDateDigits`` and the flight dates are integer arithmetic on the bytes. ``pass`` builds
/// the whole ``BoardingPass``.
///
/// ```swift
/// let view = try BCBPParser.view(text)          // or BCBPView(text, mode: .lenient)
/// view.legs[0].from                              // "YUL", decoded now
/// view.flightDate(leg: 0, reference: today)      // LocalDate, from the issue date when present
/// ```
///
/// Item numbers, widths and date rules follow the IATA BCBP Implementation Guide (Resolution 792,
/// standards.md §1).
public struct BCBPView: Sendable {
  /// The text as given (with the line ends after the pass that a lenient reading ignores).
  public let text: String
  /// How the text was read.
  public let mode: BCBPParser.Mode
  /// The deviations the lenient reading accepted, in text order (always empty in strict mode).
  public let quirks: [BCBPQuirk]
  let layout: BCBPLayout

  /// Validates `text` as a BCBP in `mode`.
  /// - Throws: ``BCBPError`` naming the item and 1-based character position of the first problem,
  ///   as ``BCBPParser/parse(_:mode:)`` does.
  public init(_ text: String, mode: BCBPParser.Mode = .strict) throws {
    var contiguous = text
    contiguous.makeContiguousUTF8()  // nothing to do for a native string
    let text = contiguous
    guard
      let found = try text.utf8.withContiguousStorageIfAvailable({
        try BCBPParser.layout(of: text, bytes: $0, mode: mode)
      })
    else { throw BCBPError(item: nil, position: 1, reason: "the text could not be read as UTF-8") }
    self.text = text
    self.mode = mode
    self.layout = found.0
    self.quirks = found.1
  }

  // MARK: Reading fields

  /// Calls `body` with the text's bytes (contiguous since `init`).
  @inline(__always) func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
    var copy = text
    copy.makeContiguousUTF8()
    return copy.utf8.withContiguousStorageIfAvailable(body) ?? body(UnsafeBufferPointer(start: nil, count: 0))
  }

  /// The field `[start, end)` without trailing blanks.
  func field(_ start: Int32, _ end: Int32) -> String {
    withBytes { BCBPLayout.field($0, Int(start), Int(end)) }
  }

  /// The bytes `[start, end)` as they are (airline data, security data).
  func raw(_ start: Int32, _ end: Int32) -> String {
    guard start < end else { return "" }
    return withBytes { Self.raw($0, start, end) }
  }

  func uniqueItem(_ index: Int) -> String {
    let (start, end) = layout.uniqueItem(index)
    return field(start, end)
  }

  // MARK: Unique items

  /// Item 11, without its padding: `DESMARAIS/LUC`.
  public var passengerName: String { field(2, layout.nameEnd) }
  /// Item 253: `E`, or `""` when blank (lenient).
  public var electronicTicketIndicator: String { field(layout.nameEnd, layout.nameEnd + 1) }
  /// Item 9, nil when the pass has no conditional version header.
  public var version: String? { layout.version < 0 ? nil : field(layout.version, layout.version + 1) }
  /// Item 15: passenger description.
  public var passengerDescription: String { uniqueItem(0) }
  /// Item 12: source of check-in.
  public var checkInSource: String { uniqueItem(1) }
  /// Item 14: source of boarding-pass issuance.
  public var issuanceSource: String { uniqueItem(2) }
  /// Item 22: date of issue (`6225`), `""` when blank or absent (or, lenient, not a date).
  public var issueDate: String { layout.issueDateIgnored ? "" : uniqueItem(3) }
  /// Item 16: document type.
  public var documentType: String { uniqueItem(4) }
  /// Item 21: airline designator of the boarding-pass issuer.
  public var issuer: String { uniqueItem(5) }
  /// Item 23: baggage tag licence plate(s).
  public var baggageTag: String { uniqueItem(6) }
  /// Item 31: first non-consecutive baggage tag licence plate.
  public var firstNonConsecutiveBaggageTag: String { uniqueItem(7) }
  /// Item 32: second non-consecutive baggage tag licence plate.
  public var secondNonConsecutiveBaggageTag: String { uniqueItem(8) }
  /// Item 28, nil when the pass has no security section.
  public var securityType: String? {
    layout.securityType < 0 ? nil : field(layout.securityType, layout.securityType + 1)
  }
  /// Item 30: the security data as written (not trimmed).
  public var securityData: String { raw(layout.securityStart, layout.securityEnd) }

  /// Item 22 as numbers, without decoding it: the year's last digit (0–9) and the day of the year
  /// (1–366); nil when the pass has no valid issue date.
  public var issueDateDigits: (yearDigit: Int, dayOfYear: Int)? {
    let (start, end) = layout.uniqueItem(3)
    guard !layout.issueDateIgnored, end - start == 4 else { return nil }
    return withBytes { bytes in
      var values = (0, 0)
      for index in Int(start)..<Int(end) {
        let digit = Int(bytes[index] &- 0x30)
        guard digit < 10 else { return nil }
        if index == Int(start) { values.0 = digit } else { values.1 = values.1 * 10 + digit }
      }
      return (1...366).contains(values.1) ? (values.0, values.1) : nil
    }
  }

  // MARK: Legs

  /// The legs that hold a flight (a blank leg skipped by the lenient reading is not one), 1–4.
  public var legs: Legs { Legs(view: self) }

  /// The legs of a view, in order.
  public struct Legs: RandomAccessCollection, Sendable {
    let view: BCBPView
    public var startIndex: Int { 0 }
    public var endIndex: Int { view.layout.legCount }
    public subscript(index: Int) -> Leg {
      precondition(indices.contains(index), "leg \(index) of \(view.layout.legCount)")
      return Leg(view: view, span: view.layout.leg(index))
    }
  }

  /// One leg of a view: its fields decoded on access, as ``BoardingPass/Leg`` holds them.
  public struct Leg: Sendable {
    let view: BCBPView
    let span: BCBPLayout.Leg

    func item(_ index: Int) -> String {
      let start = span.start + Int32(span.offset(index))
      return view.field(start, start + Int32(span.width(index)))
    }

    func repeated(_ index: Int) -> String {
      let (start, end) = span.repeatedItem(index)
      return view.field(start, end)
    }

    /// Item 7: the operating carrier's PNR.
    public var pnr: String { item(0) }
    /// Item 26: from city airport code.
    public var from: String { item(1) }
    /// Item 38: to city airport code.
    public var to: String { item(2) }
    /// Item 42: operating carrier designator.
    public var carrier: String { item(3) }
    /// Item 43: flight number (`0834`; lenient, a number written without its leading zeros gets
    /// them back).
    public var flightNumber: String { view.mode == .lenient ? BCBPView.withLeadingZeros(item(4)) : item(4) }
    /// Item 46: the date of the flight as a day of the year, 1–366, read from the three digits.
    public var dayOfYear: Int {
      let start = Int(span.start) + span.offset(5)
      return view.withBytes { bytes in
        var day = 0
        for index in start..<(start + 3) { day = day * 10 + Int(bytes[index] &- 0x30) }
        return day
      }
    }
    /// Item 71: compartment code.
    public var compartment: String { item(6) }
    /// Item 104: seat number.
    public var seat: String { item(7) }
    /// Item 107: check-in sequence number.
    public var checkInSequence: String { item(8) }
    /// Item 117: passenger status.
    public var passengerStatus: String { item(9) }
    /// Item 142: airline numeric code.
    public var airlineNumericCode: String { repeated(0) }
    /// Item 143: document form and serial number.
    public var documentSerialNumber: String { repeated(1) }
    /// Item 18: selectee indicator.
    public var selecteeIndicator: String { repeated(2) }
    /// Item 108: international documentation verification.
    public var internationalDocumentationVerification: String { repeated(3) }
    /// Item 19: marketing carrier designator.
    public var marketingCarrier: String { repeated(4) }
    /// Item 20: frequent-flyer airline designator.
    public var frequentFlyerAirline: String { repeated(5) }
    /// Item 236: frequent-flyer number.
    public var frequentFlyerNumber: String { repeated(6) }
    /// Item 89: ID/AD indicator.
    public var idAdIndicator: String { repeated(7) }
    /// Item 118: free baggage allowance.
    public var freeBaggageAllowance: String { repeated(8) }
    /// Item 254: fast track.
    public var fastTrack: String { repeated(9) }
    /// Item 4: for individual airline use, as written (what follows the repeated block).
    public var airlineData: String { view.raw(span.repeatedEnd, span.end) }

    /// The leg as a ``BoardingPass/Leg`` (every field decoded).
    public var leg: BoardingPass.Leg {
      view.withBytes { BCBPView.leg(span, bytes: $0, lenient: view.mode == .lenient) }
    }
  }

  /// Every field of the leg at `span` decoded from `bytes`.
  static func leg(_ span: BCBPLayout.Leg, bytes: UnsafeBufferPointer<UInt8>, lenient: Bool) -> BoardingPass.Leg {
    func item(_ index: Int) -> String {
      let start = Int(span.start) + span.offset(index)
      return BCBPLayout.field(bytes, start, start + span.width(index))
    }
    func repeated(_ index: Int) -> String {
      let (start, end) = span.repeatedItem(index)
      return BCBPLayout.field(bytes, Int(start), Int(end))
    }
    let dayStart = Int(span.start) + span.offset(5)
    var day = 0
    for index in dayStart..<(dayStart + 3) { day = day * 10 + Int(bytes[index] &- 0x30) }
    return BoardingPass.Leg(
      pnr: item(0), from: item(1), to: item(2), carrier: item(3),
      flightNumber: lenient ? withLeadingZeros(item(4)) : item(4), dayOfYear: day, compartment: item(6), seat: item(7),
      checkInSequence: item(8), passengerStatus: item(9), airlineNumericCode: repeated(0),
      documentSerialNumber: repeated(1), selecteeIndicator: repeated(2),
      internationalDocumentationVerification: repeated(3), marketingCarrier: repeated(4),
      frequentFlyerAirline: repeated(5), frequentFlyerNumber: repeated(6), idAdIndicator: repeated(7),
      freeBaggageAllowance: repeated(8), fastTrack: repeated(9),
      airlineData: raw(bytes, span.repeatedEnd, span.end))
  }

  /// A flight number written without its leading zeros (`" 834"`, lenient) with them (`0834`).
  static func withLeadingZeros(_ flight: String) -> String {
    guard flight.first == " " else { return flight }
    let digits = flight.drop { $0 == " " }
    return String(repeating: "0", count: max(0, 4 - digits.prefix { $0.isNumber }.count)) + digits
  }

  /// The bytes `[start, end)` as they are.
  static func raw(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int32, _ end: Int32) -> String {
    guard start < end else { return "" }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(start)..<Int(end)]), as: UTF8.self)
  }

  // MARK: Dates

  /// The issue date (item 22) resolved near `reference` (see ``BCBPDates/issueDate(_:reference:)``),
  /// nil when the pass has none.
  public func issueDate(reference: LocalDate) -> LocalDate? {
    guard let (digit, day) = issueDateDigits else { return nil }
    return BCBPDates.issueDate(yearDigit: digit, dayOfYear: day, reference: reference)
  }

  /// The date of leg `index` (item 46): from the issue date when the pass has one, else the year
  /// that puts the day nearest to `reference` (see
  /// ``BCBPDates/flightDate(dayOfYear:issueDate:reference:)``); nil when no year fits.
  public func flightDate(leg index: Int, reference: LocalDate) -> LocalDate? {
    BCBPDates.flightDate(
      dayOfYear: legs[index].dayOfYear, issueDate: issueDate(reference: reference), reference: reference)
  }

  // MARK: The whole pass

  /// The pass with every field decoded (in one visit of the bytes).
  public var pass: BoardingPass {
    let layout = layout
    let lenient = mode == .lenient
    return withBytes { bytes in
      func field(_ start: Int32, _ end: Int32) -> String { BCBPLayout.field(bytes, Int(start), Int(end)) }
      func unique(_ index: Int) -> String {
        let (start, end) = layout.uniqueItem(index)
        return field(start, end)
      }
      var legs: [BoardingPass.Leg] = []
      legs.reserveCapacity(layout.legCount)
      for index in 0..<layout.legCount { legs.append(Self.leg(layout.leg(index), bytes: bytes, lenient: lenient)) }
      return BoardingPass(
        passengerName: field(2, layout.nameEnd), electronicTicketIndicator: field(layout.nameEnd, layout.nameEnd + 1),
        version: layout.version < 0 ? nil : field(layout.version, layout.version + 1),
        passengerDescription: unique(0), checkInSource: unique(1), issuanceSource: unique(2),
        issueDate: layout.issueDateIgnored ? "" : unique(3), documentType: unique(4), issuer: unique(5),
        baggageTag: unique(6), firstNonConsecutiveBaggageTag: unique(7), secondNonConsecutiveBaggageTag: unique(8),
        legs: legs, securityType: layout.securityType < 0 ? nil : field(layout.securityType, layout.securityType + 1),
        securityData: Self.raw(bytes, layout.securityStart, layout.securityEnd))
    }
  }

  /// ``pass`` and ``quirks``, as ``BCBPParser/parse(_:mode:)`` returns them.
  public var parseResult: BCBPParseResult { BCBPParseResult(pass: pass, quirks: quirks) }
}

/// Where the fields of a validated pass are: byte offsets into its text (ASCII, so they are also
/// character offsets), recorded by ``BCBPParser``'s reader. No heap storage: four legs at most.
struct BCBPLayout: Sendable {
  /// One leg: where its 37 mandatory characters start, how they are laid out (lenient: a field
  /// one character short or long from item `cut` on), and where its repeated block and airline
  /// data are.
  struct Leg: Sendable {
    static let empty = Leg(start: 0, cut: 11, shift: 0)

    var start: Int32
    var cut: Int8
    var shift: Int8
    /// The repeated block `[repeatedStart, repeatedEnd)`, then airline data up to `end`.
    var repeatedStart: Int32 = 0
    var repeatedEnd: Int32 = 0
    var end: Int32 = 0

    init(start: Int, cut: Int, shift: Int) {
      self.start = Int32(start)
      self.cut = Int8(cut)
      self.shift = Int8(shift)
    }

    mutating func setRepeated(_ start: Int, _ repeatedEnd: Int, end: Int) {
      repeatedStart = Int32(start)
      self.repeatedEnd = Int32(repeatedEnd)
      self.end = Int32(end)
    }

    @inline(__always) static func standardStart(_ item: Int) -> Int {
      switch item {
      case 0: 0
      case 1: 7
      case 2: 10
      case 3: 13
      case 4: 16
      case 5: 21
      case 6: 24
      case 7: 25
      case 8: 29
      case 9: 34
      default: 35
      }
    }

    @inline(__always) static func standardWidth(_ item: Int) -> Int {
      switch item {
      case 0: 7
      case 1, 2, 3, 5: 3
      case 4, 8: 5
      case 7: 4
      case 10: 2
      default: 1
      }
    }

    /// Offset of mandatory item `item` (0 … 10) from the leg's start.
    @inline(__always) func offset(_ item: Int) -> Int { Self.standardStart(item) + (item >= cut ? Int(shift) : 0) }
    /// Width of mandatory item `item`.
    @inline(__always) func width(_ item: Int) -> Int { Self.standardWidth(item) + (item == cut - 1 ? Int(shift) : 0) }

    /// `[start, end)` of repeated item `index` (142, 143, 18, 108, 19, 20, 236, 89, 118, 254),
    /// cut at the block's end; empty when the block ends before it.
    @inline(__always) func repeatedItem(_ index: Int) -> (Int32, Int32) {
      let (offset, width): (Int32, Int32) =
        switch index {
        case 0: (0, 3)
        case 1: (3, 10)
        case 2: (13, 1)
        case 3: (14, 1)
        case 4: (15, 3)
        case 5: (18, 3)
        case 6: (21, 16)
        case 7: (37, 1)
        case 8: (38, 3)
        default: (41, 1)
        }
      let start = repeatedStart + offset
      return start < repeatedEnd ? (start, min(start + width, repeatedEnd)) : (0, 0)
    }
  }

  /// Characters of the pass (line ends a lenient reading dropped are not counted).
  var count: Int32 = 0
  /// Where item 253 is; the name (item 11) is `[2, nameEnd)`.
  var nameEnd: Int32 = 0
  /// Where item 9 is, −1 without a version header.
  var version: Int32 = -1
  /// The unique block (items 15 … 32), empty when absent.
  var uniqueStart: Int32 = 0
  var uniqueEnd: Int32 = 0
  /// Lenient: item 22 is there but is not a date, so it reads as blank.
  var issueDateIgnored = false
  /// Where item 28 is, −1 without a security section; the data (item 30) is
  /// `[securityStart, securityEnd)`.
  var securityType: Int32 = -1
  var securityStart: Int32 = 0
  var securityEnd: Int32 = 0
  /// The legs read (blank legs skipped by a lenient reading are not counted).
  var legCount = 0
  var legs: (Leg, Leg, Leg, Leg) = (.empty, .empty, .empty, .empty)

  mutating func append(_ leg: Leg) {
    switch legCount {
    case 0: legs.0 = leg
    case 1: legs.1 = leg
    case 2: legs.2 = leg
    default: legs.3 = leg
    }
    legCount += 1
  }

  func leg(_ index: Int) -> Leg {
    switch index {
    case 0: legs.0
    case 1: legs.1
    case 2: legs.2
    default: legs.3
    }
  }

  /// `[start, end)` of unique item `index` (15, 12, 14, 22, 16, 21, 23, 31, 32), cut at the
  /// block's end; empty when the block ends before it.
  func uniqueItem(_ index: Int) -> (Int32, Int32) {
    let (offset, width): (Int32, Int32) =
      switch index {
      case 0: (0, 1)
      case 1: (1, 1)
      case 2: (2, 1)
      case 3: (3, 4)
      case 4: (7, 1)
      case 5: (8, 3)
      case 6: (11, 13)
      case 7: (24, 13)
      default: (37, 13)
      }
    let start = uniqueStart + offset
    return start < uniqueEnd ? (start, min(start + width, uniqueEnd)) : (0, 0)
  }

  /// The bytes `[start, end)` without trailing blanks, as a string.
  static func field(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
    var end = min(end, bytes.count)
    guard start < end else { return "" }
    while end > start && bytes[end - 1] == 0x20 { end -= 1 }
    switch end - start {
    case 0: return ""
    case 1 where bytes[start] < 0x80: return characters[Int(bytes[start])]
    default: return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }
  }

  /// The one-character fields by ASCII code (a third of a pass's fields are one character long:
  /// taken from here, they are not decoded again for every pass).
  static let characters: [String] = (0..<128).map { String(Character(Unicode.Scalar(UInt8($0)))) }
}
