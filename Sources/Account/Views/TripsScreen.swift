import Common
import CommonUI
import Foundation
import Reactive

/// Trips over ``TripsViewModel``: every reservation, newest first; `c` cancels the selected one
/// (pressed twice, to confirm), `e` exports it as an iCalendar file (RFC 5545) named
/// `<reservation id>.ics` in the working directory. On a flight: `k` checks in (then shows the
/// boarding passes), `s` opens the seat map, `b` the boarding passes.
@MainActor
final class TripsScreen: Screen {
  let title = "Trips"
  private let model: TripsViewModel
  private let changed = PassthroughSubject<Void, Never>()
  private let intents = PassthroughSubject<Navigation, Never>()
  private var subscriptions = Set<AnyCancellable>()
  private var selection = SelectionState()
  private var confirmCancel: String?
  private var notice: String?
  /// Where exports are written (the working directory).
  var exportDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)

  init(model: TripsViewModel) {
    self.model = model
    model.$trips.sink { [weak self] trips in
      self?.selection.count = trips.count
      self?.changed.send()
    }.store(in: &subscriptions)
    model.$errorMessage.sink { [weak self] _ in self?.changed.send() }.store(in: &subscriptions)
    model.$isBusy.sink { [weak self] _ in self?.changed.send() }.store(in: &subscriptions)
    model.exported.sink { [weak self] export in self?.save(export) }.store(in: &subscriptions)
    model.checkedIn.sink { [weak self] response in
      guard let self else { return }
      let passes = self.model.boardingPassesModel(id: response.reservationID, passes: response.boardingPasses)
      self.intents.send(.push(BoardingPassScreen(model: passes)))
    }.store(in: &subscriptions)
    model.viewAppeared()
  }

  var keyHints: [KeyHint] {
    [
      KeyHint("↑↓", "move"), KeyHint("c", "cancel"), KeyHint("e", ".ics"), KeyHint("k", "check in"),
      KeyHint("s", "seats"),
      KeyHint("b", "pass"),
    ]
  }
  var changes: AnyPublisher<Void, Never> { changed.eraseToAnyPublisher() }
  var navigation: AnyPublisher<Navigation, Never> { intents.eraseToAnyPublisher() }

  private var selectedTrip: Reservation? {
    selection.selected.flatMap { model.trips.indices.contains($0) ? model.trips[$0] : nil }
  }

  func handle(_ key: Key) -> KeyResult {
    let pending = confirmCancel
    confirmCancel = nil
    notice = nil
    switch key {
    case .character("c"):
      guard let trip = selectedTrip, trip.status != .cancelled else { return .handled }
      if pending == trip.id { model.cancelTapped(id: trip.id) } else { confirmCancel = trip.id }
    case .character("e"):
      if let trip = selectedTrip { model.exportTapped(id: trip.id) }
    case .character("k"), .character("s"), .character("b"):
      guard let trip = selectedTrip else { return .handled }
      guard trip.kind == .flight, trip.status == .confirmed else {
        notice = "Check-in, seats and boarding passes are for confirmed flights."
        return .handled
      }
      switch key {
      case .character("k"): model.checkInTapped(id: trip.id)
      case .character("s"): intents.send(.push(SeatMapScreen(model: model.seatMapModel(id: trip.id))))
      default: intents.send(.push(BoardingPassScreen(model: model.boardingPassesModel(id: trip.id))))
      }
    default:
      return selection.handle(key, visibleRows: 12) ? .handled : .ignored
    }
    return .handled
  }

  private func save(_ export: TripsViewModel.Export) {
    do {
      let file = try ExportFile.write(
        Data(export.calendar.utf8), to: exportDirectory.path + "/", defaultName: "\(export.reservationID).ics")
      notice = "Saved \(file.path)"
    } catch {
      notice = error.message
    }
    changed.send()
  }

  func render(in area: Rect, into buffer: inout Buffer) {
    let trips = model.trips
    if trips.isEmpty {
      Label(model.isBusy ? "Loading…" : "No trips yet.", style: buffer.theme.muted)
        .render(in: area.row(1).inset(left: 1), into: &buffer)
    } else {
      let lines = trips.map { trip in
        Line([
          Span(trip.kind.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0), style: buffer.theme.muted),
          Span(DisplayWidth.truncate(trip.summary, to: 50).padding(toLength: 52, withPad: " ", startingAt: 0)),
          Span(trip.total.formatted().padding(toLength: 14, withPad: " ", startingAt: 0)),
          Span(trip.status.rawValue, style: trip.status == .cancelled ? buffer.theme.muted : buffer.theme.accent),
        ])
      }
      List(lines, state: selection)
        .render(
          in: Rect(x: area.x + 1, y: area.y + 1, width: area.width - 1, height: min(12, trips.count)), into: &buffer)
    }
    var y = area.y + 2 + min(12, max(1, trips.count))
    if let id = confirmCancel {
      buffer.write("Press c again to cancel \(id).", x: area.x + 1, y: y, style: buffer.theme.warning)
      y += 1
    }
    if let error = model.errorMessage {
      buffer.write(error, x: area.x + 1, y: y, maxWidth: area.width - 1, style: buffer.theme.error)
      y += 1
    }
    if let notice { buffer.write(notice, x: area.x + 1, y: y, maxWidth: area.width - 1, style: buffer.theme.success) }
  }
}
