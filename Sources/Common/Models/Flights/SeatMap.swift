import Foundation

/// A seat: its row number and letter (`23A`). Rows count from 1 at the front; letters run from
/// the left window (`A`) to the right, without `I`.
///
/// JSON: the text `"23A"`. In a boarding pass (item 104) the row has three digits: `023A`.
public struct SeatNumber: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
  public var row: Int
  public var letter: Character

  public init(row: Int, letter: Character) {
    self.row = row
    self.letter = letter
  }

  /// Parses `23A` (or `023a`, `23 A`): a row 1–999 and one letter A–Z.
  /// - Throws: ``ServiceError`` `invalid_seat` naming the text and what is accepted.
  public init(parsing text: String) throws {
    let compact = text.uppercased().filter { $0 != " " }
    guard let letter = compact.last, letter.isASCII, letter.isLetter, compact.count >= 2,
      compact.dropLast().allSatisfy({ $0.isASCII && $0.isNumber }), let row = Int(compact.dropLast()),
      (1...999).contains(row)
    else {
      throw ServiceError.invalid(
        "invalid_seat", "invalid seat \(EchoedInput.quoted(text)): expected a row and a letter, like 23A")
    }
    self.init(row: row, letter: letter)
  }

  /// `23A`.
  public var description: String { "\(row)\(letter)" }

  /// Item 104 of a boarding pass: `023A`.
  public var bcbpField: String {
    String(repeating: "0", count: row < 10 ? 2 : row < 100 ? 1 : 0) + "\(row)\(letter)"
  }

  public static func < (lhs: SeatNumber, rhs: SeatNumber) -> Bool {
    (lhs.row, lhs.letter) < (rhs.row, rhs.letter)
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  public init(from decoder: Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    do {
      try self.init(parsing: text)
    } catch let error as ServiceError {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
    }
  }
}

/// The seats of one aircraft type: its cabins front to back, each with its rows, its seat letters
/// and where the aisles are; the exit rows; and the blocked seats (fitted but never sold: crew
/// rest, a seat by the galley, …).
///
/// Every row of a cabin has every letter of the cabin. The seats sold in a cabin (its
/// ``capacity(of:)``) are the cabin's seats minus its blocked ones.
///
/// JSON: `{"aircraft", "aircraftName", "cabins": [{"cabin", "rows", "letters", "aislesAfter"}],
/// "exitRows", "blocked"}`.
public struct SeatMap: Hashable, Sendable, Codable {
  /// One cabin: rows (numbers, front to back; row 13 is skipped by most airlines) and letters
  /// from left to right, with an aisle after each index in `aislesAfter`.
  public struct CabinLayout: Hashable, Sendable, Codable {
    public var cabin: Cabin
    public var rows: [Int]
    public var letters: [String]
    /// Positions in ``letters`` after which an aisle runs (`[2]` for `ABC DEF`).
    public var aislesAfter: [Int]

    public init(cabin: Cabin, rows: [Int], letters: [String], aislesAfter: [Int]) {
      self.cabin = cabin
      self.rows = rows
      self.letters = letters
      self.aislesAfter = aislesAfter
    }

    /// The seat groups between aisles, e.g. `[["A","B","C"], ["D","E","F"]]`.
    public var groups: [[String]] {
      var groups: [[String]] = [[]]
      for (index, letter) in letters.enumerated() {
        groups[groups.count - 1].append(letter)
        if aislesAfter.contains(index) { groups.append([]) }
      }
      return groups
    }
  }

  /// The IATA aircraft type code (`320`).
  public var aircraft: String
  /// The type's name when known (`Airbus A320`).
  public var aircraftName: String?
  public var cabins: [CabinLayout]
  /// Rows next to an emergency exit.
  public var exitRows: [Int]
  /// Seats that are fitted but never sold.
  public var blocked: [SeatNumber]

  public init(
    aircraft: String, aircraftName: String?, cabins: [CabinLayout], exitRows: [Int], blocked: [SeatNumber]
  ) {
    self.aircraft = aircraft
    self.aircraftName = aircraftName
    self.cabins = cabins
    self.exitRows = exitRows
    self.blocked = blocked
  }

  /// The cabin layout of `seat`, nil when the aircraft has no such seat.
  public func cabinLayout(of seat: SeatNumber) -> CabinLayout? {
    cabins.first { $0.rows.contains(seat.row) && $0.letters.contains(String(seat.letter)) }
  }

  /// Every fitted seat, front to back, left to right.
  public var seats: [SeatNumber] {
    cabins.flatMap { layout in
      layout.rows.flatMap { row in layout.letters.map { SeatNumber(row: row, letter: Character($0)) } }
    }
  }

  /// The seats sold in `cabin`: fitted minus blocked.
  public func capacity(of cabin: Cabin) -> Int {
    let blockedSet = Set(blocked)
    return cabins.filter { $0.cabin == cabin }.reduce(0) { total, layout in
      total + layout.rows.count * layout.letters.count
        - layout.rows.reduce(0) { sum, row in
          sum + layout.letters.filter { blockedSet.contains(SeatNumber(row: row, letter: Character($0))) }.count
        }
    }
  }

  /// Whether `seat` is at a window (the first or last letter of its cabin).
  public func isWindow(_ seat: SeatNumber) -> Bool {
    guard let layout = cabinLayout(of: seat) else { return false }
    return String(seat.letter) == layout.letters.first || String(seat.letter) == layout.letters.last
  }

  /// Whether `seat` is on an aisle.
  public func isAisle(_ seat: SeatNumber) -> Bool {
    guard let layout = cabinLayout(of: seat), let index = layout.letters.firstIndex(of: String(seat.letter)) else {
      return false
    }
    return layout.aislesAfter.contains(index) || layout.aislesAfter.contains(index - 1)
  }

  /// `Airbus A320 (320): economy rows 5–30, ABC DEF; business rows 1–4, AC DF`.
  public var summary: String {
    let name = aircraftName.map { "\($0) (\(aircraft))" } ?? aircraft
    let parts = cabins.map { layout in
      let rows = layout.rows.first.map { first in "rows \(first)–\(layout.rows.last ?? first)" } ?? "no rows"
      return
        "\(layout.cabin.displayName.lowercased()) \(rows), \(layout.groups.map { $0.joined() }.joined(separator: " "))"
    }
    return "\(name): \(parts.joined(separator: "; "))"
  }
}
