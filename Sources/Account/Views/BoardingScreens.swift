import Common
import CommonUI
import Foundation
import Reactive

/// The seat map of a flight booking (``SeatMapViewModel``): arrows move over the seats, Enter
/// takes the seat under the cursor for the passenger being seated, Tab / Shift-Tab choose the
/// passenger, `[` `]` (or PgUp / PgDn) the flight, `a` seats everyone still without a seat.
@MainActor
final class SeatMapScreen: Screen {
  let title = L("Seats")
  private let model: SeatMapViewModel
  private let changed = PassthroughSubject<Void, Never>()
  private var subscriptions = Set<AnyCancellable>()
  private(set) var leg = 0
  private(set) var passenger = 0
  private(set) var cursor: SeatNumber?

  init(model: SeatMapViewModel) {
    self.model = model
    // @Published sends before the property changes: place the cursor on the value sent.
    model.$seatMaps.sink { [weak self] maps in
      self?.placeCursor(maps)
      self?.changed.send()
    }.store(in: &subscriptions)
    model.$errorMessage.sink { [weak self] _ in self?.changed.send() }.store(in: &subscriptions)
    model.$notice.sink { [weak self] _ in self?.changed.send() }.store(in: &subscriptions)
    model.$isBusy.sink { [weak self] _ in self?.changed.send() }.store(in: &subscriptions)
    model.viewAppeared()
  }

  var keyHints: [KeyHint] {
    [
      KeyHint("←↑↓→", "move"), KeyHint("Enter", "take"), KeyHint("Tab", "who"), KeyHint("[ ]", "flight"),
      KeyHint("a", "all"),
    ]
  }
  var changes: AnyPublisher<Void, Never> { changed.eraseToAnyPublisher() }

  private var current: FlightSeatMap? {
    guard let maps = model.seatMaps, maps.legs.indices.contains(leg) else { return nil }
    return maps.legs[leg]
  }

  private var passengerName: String? {
    guard let maps = model.seatMaps, maps.passengers.indices.contains(passenger) else { return nil }
    return maps.passengers[passenger]
  }

  /// The cursor on the passenger's seat on this flight, else on the first free seat of the cabin.
  private func placeCursor(_ maps: SeatMapResponse? = nil) {
    guard let maps = maps ?? model.seatMaps, maps.legs.indices.contains(leg),
      maps.passengers.indices.contains(passenger)
    else { return }
    let current = maps.legs[leg]
    let name = maps.passengers[passenger]
    if let seat = current.assignments.first(where: { $0.passenger == name })?.seat {
      cursor = seat
    } else if cursor == nil || current.map.cabinLayout(of: cursor!) == nil {
      cursor = current.map.seats.first { current.state(of: $0) == .available } ?? current.map.seats.first
    }
  }

  func handle(_ key: Key) -> KeyResult {
    guard let current, let maps = model.seatMaps else { return .ignored }
    switch key {
    case .left, .right: moveAcross(key == .left ? -1 : 1, current.map)
    case .up, .down: moveAlong(key == .up ? -1 : 1, current.map)
    case .tab, .backTab:
      guard !maps.passengers.isEmpty else { return .handled }
      passenger = (passenger + (key == .tab ? 1 : maps.passengers.count - 1)) % maps.passengers.count
      placeCursor()
    case .character("]"), .pageDown, .character("["), .pageUp:
      let forward = key == .character("]") || key == .pageDown
      leg = (leg + (forward ? 1 : maps.legs.count - 1)) % max(1, maps.legs.count)
      cursor = nil
      placeCursor()
    case .enter:
      if let cursor, let name = passengerName { model.seatChosen(cursor, passenger: name, leg: current.leg) }
    case .character("a"):
      model.seatEveryoneTapped()
    default:
      return .ignored
    }
    return .handled
  }

  /// The seat `offset` letters left or right in the cursor's row.
  private func moveAcross(_ offset: Int, _ map: SeatMap) {
    guard let cursor, let layout = map.cabinLayout(of: cursor),
      let index = layout.letters.firstIndex(of: String(cursor.letter))
    else { return }
    let next = min(max(0, index + offset), layout.letters.count - 1)
    self.cursor = SeatNumber(row: cursor.row, letter: Character(layout.letters[next]))
  }

  /// The seat in the row `offset` rows back or forward, at the same position across the cabin.
  private func moveAlong(_ offset: Int, _ map: SeatMap) {
    guard let cursor, let layout = map.cabinLayout(of: cursor),
      let index = layout.letters.firstIndex(of: String(cursor.letter))
    else { return }
    let rows = map.cabins.flatMap { cabin in cabin.rows.map { (cabin, $0) } }
    guard let position = rows.firstIndex(where: { $0.1 == cursor.row }) else { return }
    let target = min(max(0, position + offset), rows.count - 1)
    let (cabin, row) = rows[target]
    // Same side of the aircraft: the letter at the same fraction of the row.
    let fraction = layout.letters.count > 1 ? Double(index) / Double(layout.letters.count - 1) : 0
    let letter =
      cabin.letters.contains(String(cursor.letter))
      ? String(cursor.letter) : cabin.letters[Int((fraction * Double(cabin.letters.count - 1)).rounded())]
    self.cursor = SeatNumber(row: row, letter: Character(letter))
  }

  func render(in area: Rect, into buffer: inout Buffer) {
    guard let maps = model.seatMaps, let current else {
      let text = model.errorMessage ?? (model.isBusy ? L("Loading the seat map…") : "")
      buffer.write(text, x: area.x + 1, y: area.y + 1, maxWidth: area.width - 1, style: buffer.theme.muted)
      return
    }
    let name = passengerName ?? ""
    buffer.write(
      L("Seat for \(name) (\(passenger + 1) of \(maps.passengers.count)) · flight \(leg + 1) of \(maps.legs.count)"),
      x: area.x + 1, y: area.y, maxWidth: area.width - 1, style: buffer.theme.accent)
    let status = model.errorMessage ?? model.notice ?? cursor.map { describe($0, current) } ?? ""
    let statusStyle = model.errorMessage != nil ? buffer.theme.error : buffer.theme.muted
    SeatMapView(current, passengers: maps.passengers, cursor: cursor)
      .render(in: Rect(x: area.x + 1, y: area.y + 1, width: area.width - 1, height: area.height - 2), into: &buffer)
    buffer.write(status, x: area.x + 1, y: area.bottom - 1, maxWidth: area.width - 1, style: statusStyle)
  }

  /// `23A: free, window` and the like.
  private func describe(_ seat: SeatNumber, _ map: FlightSeatMap) -> String {
    let state: String =
      switch map.state(of: seat) {
      case .available: "free"
      case .taken: "taken"
      case .blocked: "blocked"
      case .otherCabin: "\(map.map.cabinLayout(of: seat)?.cabin.displayName.lowercased() ?? "another cabin")"
      case .yours(let name): "\(name)'s"
      case .none: L("no seat")
      }
    var traits: [String] = []
    if map.map.isWindow(seat) { traits.append("window") }
    if map.map.isAisle(seat) { traits.append("aisle") }
    if map.map.exitRows.contains(seat.row) { traits.append("exit row") }
    return "\(seat): \(state)" + (traits.isEmpty ? "" : ", " + traits.joined(separator: ", "))
  }
}

/// The boarding passes of a reservation (``BoardingPassesViewModel``): the pass's lines and its
/// barcode as large as the screen allows; ← → the other passes, `s` another symbology.
@MainActor
final class BoardingPassScreen: Screen {
  let title = L("Boarding pass")
  private let model: BoardingPassesViewModel
  private let changed = PassthroughSubject<Void, Never>()
  private var subscriptions = Set<AnyCancellable>()

  init(model: BoardingPassesViewModel) {
    self.model = model
    model.$passes.sink { [weak self] _ in self?.changed.send() }.store(in: &subscriptions)
    model.$symbol.sink { [weak self] _ in self?.changed.send() }.store(in: &subscriptions)
    model.$errorMessage.sink { [weak self] _ in self?.changed.send() }.store(in: &subscriptions)
    model.viewAppeared()
  }

  var keyHints: [KeyHint] { [KeyHint("←→", "other passes"), KeyHint("s", "symbology")] }
  var changes: AnyPublisher<Void, Never> { changed.eraseToAnyPublisher() }

  func handle(_ key: Key) -> KeyResult {
    switch key {
    case .right: model.nextPass()
    case .left: model.previousPass()
    case .character("s"): model.nextSymbology()
    default: return .ignored
    }
    return .handled
  }

  func render(in area: Rect, into buffer: inout Buffer) {
    guard model.passes.indices.contains(model.index) else {
      let text = model.errorMessage ?? L("Loading the boarding passes…")
      buffer.write(text, x: area.x + 1, y: area.y + 1, maxWidth: area.width - 1, style: buffer.theme.muted)
      return
    }
    let shown = model.passes[model.index]
    let caption = L("\(model.symbology) · pass \(model.index + 1) of \(model.passes.count)")
    BoardingPassView(pass: shown.pass, symbol: model.symbol, dates: shown.dates, caption: caption)
      .render(in: area.inset(left: 1), into: &buffer)
  }
}
