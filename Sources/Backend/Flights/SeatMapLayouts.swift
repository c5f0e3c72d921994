import Common
import Foundation

/// The seat map of each aircraft type the schedule flies, made from its ``AircraftCatalog`` model
/// so that the seats sold in each cabin are exactly the catalog's.
///
/// Rules (typical layouts, written for this app; not any airline's map):
/// - **Cabins**, front to back: first, business, premium economy, economy; rows numbered from 1
///   across cabins, without row 13.
/// - **Seats abreast** (letters left to right, `I` never used; `|` an aisle):
///   - wide-bodies: first and business `A|DG|K` (1-2-1), premium economy `AC|DEFG|HK` (2-4-2),
///     economy `ABC|DEFG|HJK` (3-4-3) from 400 seats, `ABC|DEF|HJK` (3-3-3) from 250, else
///     `AB|DEF|JK` (2-3-2);
///   - narrow-bodies: business `AC|DF`, economy `ABC|DEF`;
///   - regional jets and turboprops: `A|C` up to 20 seats, `A|CD` up to 40, else `AC|DF`.
/// - **Rows**: each cabin has as many full rows as its seats need; the seats of the last row
///   beyond the cabin's capacity are **blocked** (fitted, never sold: by the galley), from the
///   right.
/// - **Exit rows**: wide-bodies at the first economy row and at 55 % of the economy rows;
///   narrow-bodies over the wing at 45 % of the economy rows (two rows from 20 economy rows on);
///   regional aircraft and turboprops at half their rows.
enum SeatMapLayouts {
  /// The seat map of `model`.
  static func map(for model: AircraftCatalog.Model) -> SeatMap {
    var cabins: [SeatMap.CabinLayout] = []
    var blocked: [SeatNumber] = []
    var nextRow = 1
    func rows(_ count: Int) -> [Int] {
      var result: [Int] = []
      while result.count < count {
        if nextRow != 13 { result.append(nextRow) }
        nextRow += 1
      }
      return result
    }
    for cabin in [Cabin.first, .business, .premium, .economy] {
      let seats = Int(model.seats[cabin.index])
      guard seats > 0 else { continue }
      let (letters, aisles) = layout(kind: model.kind, cabin: cabin, total: Int(model.seats.reduce(0, +)))
      let rowNumbers = rows((seats + letters.count - 1) / letters.count)
      let surplus = rowNumbers.count * letters.count - seats
      if let last = rowNumbers.last {
        for letter in letters.suffix(surplus) { blocked.append(SeatNumber(row: last, letter: Character(letter))) }
      }
      cabins.append(SeatMap.CabinLayout(cabin: cabin, rows: rowNumbers, letters: letters, aislesAfter: aisles))
    }
    return SeatMap(
      aircraft: model.code, aircraftName: model.name, cabins: cabins, exitRows: exitRows(model.kind, cabins),
      blocked: blocked)
  }

  /// The letters and aisle positions of `cabin` on an aircraft of `kind` with `total` seats.
  static func layout(kind: AircraftCatalog.Kind, cabin: Cabin, total: Int) -> ([String], [Int]) {
    func split(_ text: String) -> ([String], [Int]) {
      var letters: [String] = []
      var aisles: [Int] = []
      for character in text {
        if character == "|" { aisles.append(letters.count - 1) } else { letters.append(String(character)) }
      }
      return (letters, aisles)
    }
    switch kind {
    case .wideBody:
      switch cabin {
      case .first, .business: return split("A|DG|K")
      case .premium: return split("AC|DEFG|HK")
      case .economy: return split(total >= 400 ? "ABC|DEFG|HJK" : total >= 250 ? "ABC|DEF|HJK" : "AB|DEF|JK")
      }
    case .narrowBody:
      return split(cabin == .economy ? "ABC|DEF" : "AC|DF")
    case .regional, .turboprop:
      return split(total <= 20 ? "A|C" : total <= 40 ? "A|CD" : "AC|DF")
    }
  }

  static func exitRows(_ kind: AircraftCatalog.Kind, _ cabins: [SeatMap.CabinLayout]) -> [Int] {
    guard let economy = cabins.last, !economy.rows.isEmpty else { return [] }
    let rows = economy.rows
    switch kind {
    case .wideBody:
      return Array(Set([rows[0], rows[rows.count * 55 / 100]])).sorted()
    case .narrowBody:
      let wing = rows.count * 45 / 100
      return rows.count >= 20 ? [rows[wing], rows[min(rows.count - 1, wing + 1)]] : [rows[wing]]
    case .regional, .turboprop:
      let all = cabins.flatMap(\.rows)
      return [all[all.count / 2]]
    }
  }
}

/// Seating a booking's passengers automatically.
enum SeatPicker {
  /// `count` free seats of `cabin` on `map`, the passengers side by side when they can be.
  ///
  /// With `companions` (the seats the booking's other passengers already hold on this flight),
  /// each passenger first gets the free seat nearest the party: beside it in its block between
  /// aisles, then across an aisle in the same row, then in the row just ahead or behind; the
  /// party grows with each seat given. When that cannot seat everyone, or with no companions:
  /// a run of adjacent seats between two aisles in one row; else one row across an aisle; else
  /// two rows, one behind the other; else the first free seats. Front rows first; a lone
  /// traveller gets a window, else an aisle, else any seat. Nil when fewer than `count` seats
  /// are free.
  static func pick(
    _ count: Int, cabin: Cabin, map: SeatMap, near companions: [SeatNumber] = [], free isFree: (SeatNumber) -> Bool
  ) -> [SeatNumber]? {
    guard count > 0 else { return [] }
    let layouts = map.cabins.filter { $0.cabin == cabin }
    let blocked = Set(map.blocked)
    func available(_ seat: SeatNumber) -> Bool { !blocked.contains(seat) && isFree(seat) }
    func seat(_ row: Int, _ letter: String) -> SeatNumber { SeatNumber(row: row, letter: Character(letter)) }
    let rows = layouts.flatMap { layout in layout.rows.map { (layout, $0) } }
    if let beside = besideCompanions(count, companions, rows: rows, available: available) { return beside }
    if count == 1 {
      for wanted in [map.isWindow, map.isAisle, { _ in true }] {
        for (layout, row) in rows {
          if let found = layout.letters.map({ seat(row, $0) }).first(where: { available($0) && wanted($0) }) {
            return [found]
          }
        }
      }
      return nil
    }
    // Adjacent seats within one block between aisles.
    for (layout, row) in rows {
      for group in layout.groups {
        let free = group.map { available(seat(row, $0)) }
        for start in 0..<group.count where start + count <= group.count {
          if free[start..<(start + count)].allSatisfy({ $0 }) {
            return group[start..<(start + count)].map { seat(row, $0) }
          }
        }
      }
    }
    // One row, across an aisle: the seats nearest each other.
    for (layout, row) in rows {
      let free = layout.letters.filter { available(seat(row, $0)) }
      if free.count >= count { return free.prefix(count).map { seat(row, $0) } }
    }
    // Two rows, one behind the other.
    for (index, (layout, row)) in rows.enumerated() where index + 1 < rows.count {
      let (nextLayout, nextRow) = rows[index + 1]
      guard nextLayout == layout else { continue }
      let seats = layout.letters.map { seat(row, $0) } + layout.letters.map { seat(nextRow, $0) }
      let free = seats.filter(available)
      if free.count >= count { return Array(free.prefix(count)) }
    }
    let free = rows.flatMap { layout, row in layout.letters.map { seat(row, $0) } }.filter(available)
    return free.count >= count ? Array(free.prefix(count)) : nil
  }

  /// `count` free seats, each the nearest to the party (`companions` and the seats given so far)
  /// within one row of it in the same cabin; nil when there are no companions or the party
  /// cannot all sit that close.
  ///
  /// Nearness: the same block between aisles counts the seats in between; across an aisle adds
  /// 10; a row ahead or behind adds 100 (so any seat in the party's row beats one in the next
  /// row). Ties go to the front row, then the left-most letter.
  private static func besideCompanions(
    _ count: Int, _ companions: [SeatNumber], rows: [(SeatMap.CabinLayout, Int)],
    available: (SeatNumber) -> Bool
  ) -> [SeatNumber]? {
    guard !companions.isEmpty else { return nil }
    var party = companions
    var given: [SeatNumber] = []
    let rowIndex = Dictionary(
      rows.enumerated().map { ($0.element.1, $0.offset) }, uniquingKeysWith: { first, _ in first })
    func position(_ seat: SeatNumber) -> (layout: SeatMap.CabinLayout, letter: Int, group: Int, row: Int)? {
      guard let index = rowIndex[seat.row] else { return nil }
      let layout = rows[index].0
      guard let letter = layout.letters.firstIndex(of: String(seat.letter)) else { return nil }
      let group = layout.groups.firstIndex { $0.contains(String(seat.letter)) } ?? 0
      return (layout, letter, group, index)
    }
    for _ in 0..<count {
      var best: (distance: Int, seat: SeatNumber)?
      for member in party {
        guard let home = position(member) else { continue }
        for rowOffset in [0, -1, 1] {
          let index = home.row + rowOffset
          guard rows.indices.contains(index), rows[index].0 == home.layout else { continue }
          let row = rows[index].1
          for (letterIndex, letter) in home.layout.letters.enumerated() {
            let candidate = SeatNumber(row: row, letter: Character(letter))
            guard !given.contains(candidate), available(candidate), let place = position(candidate) else { continue }
            let distance =
              abs(letterIndex - home.letter) + (place.group == home.group ? 0 : 10) + abs(rowOffset) * 100
            if let current = best, (distance, candidate) >= (current.distance, current.seat) { continue }
            best = (distance, candidate)
          }
        }
      }
      guard let chosen = best?.seat else { return nil }
      given.append(chosen)
      party.append(chosen)
    }
    return given
  }
}
