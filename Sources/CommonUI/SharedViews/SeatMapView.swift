import Common

/// The seat map of one flight of a booking, front of the aircraft at the top: a header with the
/// flight, the letters over their columns with a gap for each aisle, then one line per row (its
/// number, its seats, `EXIT` beside exit rows), then the legend.
///
/// A seat is `.` free, `x` taken by another traveller, `#` blocked, `-` in another cabin, or the
/// number of the booking's passenger who holds it (`1`, `2`, …). The seat under the cursor is
/// shown in reverse video (the selection style). Rows scroll so that the cursor stays visible;
/// ``SeatMapView/lines(_:)`` gives the number of lines the whole map takes.
public struct SeatMapView: Widget {
  public var seats: FlightSeatMap
  public var passengers: [String]
  public var cursor: SeatNumber?
  /// The first aircraft row shown (the view scrolls further when the cursor is below the area).
  public var firstRow: Int?

  public init(_ seats: FlightSeatMap, passengers: [String], cursor: SeatNumber? = nil, firstRow: Int? = nil) {
    self.seats = seats
    self.passengers = passengers
    self.cursor = cursor
    self.firstRow = firstRow
  }

  /// Lines the map takes with every row shown: header, letters, a line per row and a gap line
  /// between cabins, the legend.
  public static func lines(_ seats: FlightSeatMap, passengers: [String]) -> Int {
    2 + seats.map.cabins.reduce(0) { $0 + $1.rows.count } + seats.map.cabins.count + legend(passengers).count
  }

  /// The character of a seat state.
  public static func glyph(_ state: SeatState, passengers: [String]) -> String {
    switch state {
    case .available: "."
    case .taken: "x"
    case .blocked: "#"
    case .otherCabin: "-"
    case .none: " "
    case .yours(let name): passengers.firstIndex(of: name).map { "\(($0 + 1) % 10)" } ?? "*"
    }
  }

  static func legend(_ passengers: [String]) -> [String] {
    var lines = [L(". free  x taken  # blocked  - other cabin  EXIT exit row")]
    let people = passengers.enumerated().map { "\(($0.offset + 1) % 10) \($0.element)" }
    if !people.isEmpty { lines.append(people.joined(separator: "  ")) }
    return lines
  }

  /// The widest layout's columns: every letter of every cabin, in order, with aisles.
  private var columns: [(letter: String, aisleAfter: Bool)] {
    guard let widest = seats.map.cabins.max(by: { $0.letters.count < $1.letters.count }) else { return [] }
    return widest.letters.enumerated().map { ($0.element, widest.aislesAfter.contains($0.offset)) }
  }

  public func render(in area: Rect, into buffer: inout Buffer) {
    guard !area.isEmpty else { return }
    let theme = buffer.theme
    let name = seats.map.aircraftName.map { "\($0) (\(seats.map.aircraft))" } ?? seats.map.aircraft
    buffer.write(
      "\(seats.flight) \(seats.from) → \(seats.to)  \(seats.date)  \(name)  \(seats.cabin.displayName)", x: area.x,
      y: area.y, maxWidth: area.width, style: theme.accent)
    // Column positions: 5 for the row number, 2 per seat, 2 more after an aisle.
    var header = "     "
    for column in columns { header += column.letter + " " + (column.aisleAfter ? "  " : "") }
    buffer.write(header, x: area.x, y: area.y + 1, maxWidth: area.width, style: theme.muted)
    let legendLines = Self.legend(passengers)
    let bodyHeight = max(0, area.height - 2 - legendLines.count)
    var lines: [(cabin: SeatMap.CabinLayout?, row: Int)] = []
    for (index, layout) in seats.map.cabins.enumerated() {
      if index > 0 { lines.append((nil, 0)) }
      for row in layout.rows { lines.append((layout, row)) }
    }
    var start = lines.firstIndex { $0.row == firstRow } ?? 0
    if let cursor, let index = lines.firstIndex(where: { $0.row == cursor.row }) {
      if index < start { start = index }
      if index >= start + bodyHeight { start = index - bodyHeight + 1 }
    }
    start = max(0, min(start, lines.count - bodyHeight))
    for (offset, line) in lines.dropFirst(start).prefix(bodyHeight).enumerated() {
      let y = area.y + 2 + offset
      guard let layout = line.cabin else { continue }
      let label = "\(line.row)"
      buffer.write(
        String(repeating: " ", count: max(0, 4 - label.count)) + label + " ", x: area.x, y: y, maxWidth: area.width,
        style: theme.muted)
      var x = area.x + 5
      for column in columns {
        if layout.letters.contains(column.letter) {
          let seat = SeatNumber(row: line.row, letter: Character(column.letter))
          let state = seats.state(of: seat)
          var style =
            switch state {
            case .yours: theme.accent
            case .available: theme.base
            default: theme.muted
            }
          if seat == cursor { style = theme.selection }
          buffer.write(Self.glyph(state, passengers: passengers), x: x, y: y, maxWidth: area.right - x, style: style)
        }
        x += 2 + (column.aisleAfter ? 2 : 0)
      }
      if seats.map.exitRows.contains(line.row) {
        buffer.write("EXIT", x: x + 1, y: y, maxWidth: max(0, area.right - x - 1), style: theme.warning)
      }
    }
    for (index, text) in legendLines.enumerated() {
      buffer.write(
        text, x: area.x, y: area.y + 2 + bodyHeight + index, maxWidth: area.width, style: theme.muted)
    }
  }
}
