import Common
import CommonUI
import Foundation
import Reactive

/// Trips over ``TripsViewModel``: every reservation, newest first; `c` shows what cancelling the
/// selected one costs (the fee, the refund and the deadline in the place's local time) and Enter
/// then cancels it (Esc keeps it); a cancelled trip shows its fee and refund; `e` exports it as an
/// iCalendar file (RFC 5545) named `<reservation id>.ics` in the export directory (the data
/// directory's `exports`, ``DataDirectory/exports(in:)``, created on the first export), and says
/// where it went. On a flight:
/// `k` checks in (then shows the boarding passes), `s` opens the seat map, `b` the boarding passes.
@MainActor
final class TripsScreen: Screen {
  let title = L("Trips")
  private let model: TripsViewModel
  private let changed = PassthroughSubject<Void, Never>()
  private let intents = PassthroughSubject<Navigation, Never>()
  private var subscriptions = Set<AnyCancellable>()
  private var selection = SelectionState()
  private var notice: String?
  /// Where exports are written (the data directory's `exports`), never the working directory.
  let exportDirectory: URL

  init(model: TripsViewModel, exportDirectory: URL) {
    self.model = model
    self.exportDirectory = exportDirectory
    model.$trips.sink { [weak self] trips in
      guard let self else { return }
      // A trip booked or cancelled elsewhere (live) moves rows: keep the same trip selected.
      let shown = self.selectedTrip?.id
      self.selection.count = trips.count
      if let shown, let row = trips.firstIndex(where: { $0.id == shown }) { self.selection.select(row) }
      self.changed.send()
    }.store(in: &subscriptions)
    model.$errorMessage.sink { [weak self] _ in self?.changed.send() }.store(in: &subscriptions)
    model.$isBusy.sink { [weak self] _ in self?.changed.send() }.store(in: &subscriptions)
    model.$pendingCancellation.sink { [weak self] _ in self?.changed.send() }.store(in: &subscriptions)
    model.$strings.sink { [weak self] _ in self?.changed.send() }.store(in: &subscriptions)
    model.$liveFlights.sink { [weak self] _ in self?.changed.send() }.store(in: &subscriptions)
    model.exported.sink { [weak self] export in self?.save(export) }.store(in: &subscriptions)
    model.checkedIn.sink { [weak self] response in
      guard let self else { return }
      let passes = self.model.boardingPassesModel(id: response.reservationID, passes: response.boardingPasses)
      self.intents.send(.push(BoardingPassScreen(model: passes)))
    }.store(in: &subscriptions)
    model.viewAppeared()
  }

  var keyHints: [KeyHint] {
    if model.pendingCancellation != nil { return [KeyHint("Enter", "cancel the trip"), KeyHint("Esc", "keep it")] }
    return [
      KeyHint("↑↓", "move"), KeyHint("c", "cancel trip"), KeyHint("e", "export .ics"), KeyHint("k", "check in"),
      KeyHint("s", "seats"), KeyHint("b", "pass"),
    ]
  }
  var changes: AnyPublisher<Void, Never> { changed.eraseToAnyPublisher() }
  var navigation: AnyPublisher<Navigation, Never> { intents.eraseToAnyPublisher() }

  private var selectedTrip: Reservation? {
    selection.selected.flatMap { model.trips.indices.contains($0) ? model.trips[$0] : nil }
  }

  func handle(_ key: Key) -> KeyResult {
    notice = nil
    if let pending = model.pendingCancellation {
      // The terms are on screen: Enter (or c again) cancels at them, anything else keeps the trip.
      switch key {
      case .enter, .character("c"): model.cancelConfirmed()
      case .escape: model.cancelDismissed()
      default:
        model.cancelDismissed()
        return pending.reservationId == selectedTrip?.id ? handle(key) : .handled
      }
      return .handled
    }
    switch key {
    case .character("c"):
      guard let trip = selectedTrip, trip.status != .cancelled else { return .handled }
      model.cancelTapped(id: trip.id)
    case .character("e"):
      if let trip = selectedTrip { model.exportTapped(id: trip.id) }
    case .character("k"), .character("s"), .character("b"):
      guard let trip = selectedTrip else { return .handled }
      guard trip.kind == .flight, trip.status == .confirmed else {
        notice = L("Check-in, seats and boarding passes are for confirmed flights.")
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
      try DataDirectory.prepare(exportDirectory)
      let file = try ExportFile.write(
        Data(export.calendar.utf8), to: exportDirectory.path + "/", defaultName: "\(export.reservationID).ics")
      notice = L("Saved \(file.lastPathComponent) in \(file.deletingLastPathComponent().path) (your exports folder).")
    } catch {
      notice = error.message
    }
    changed.send()
  }

  func render(in area: Rect, into buffer: inout Buffer) {
    let trips = model.trips
    if trips.isEmpty {
      Label(model.isBusy ? L("Loading…") : L("No trips yet."), style: buffer.theme.muted)
        .render(in: area.row(1).inset(left: 1), into: &buffer)
    } else {
      // The kind, the price and the status always show whole (they tell two trips apart); the
      // summary takes the rest of the width and is the part cut on a narrow terminal.
      let totals = trips.map { model.money.string($0.total) }
      let totalWidth = max(10, (totals.map { DisplayWidth.of($0) }.max() ?? 0) + 2)
      let statusWidth = trips.map { DisplayWidth.of($0.status.rawValue) }.max() ?? 9
      // The list's marker (2), a scroll bar (1) and the screen's margin (1).
      let summaryWidth = max(8, area.width - 4 - 8 - totalWidth - statusWidth)
      let lines = trips.enumerated().map { index, trip in
        let summary = DisplayWidth.truncate(trip.summary, to: summaryWidth - 2)
        return Line([
          Span(trip.kind.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0), style: buffer.theme.muted),
          Span(summary + String(repeating: " ", count: max(0, summaryWidth - DisplayWidth.of(summary)))),
          Span(totals[index] + String(repeating: " ", count: max(0, totalWidth - DisplayWidth.of(totals[index])))),
          Span(trip.status.rawValue, style: trip.status == .cancelled ? buffer.theme.muted : buffer.theme.accent),
        ])
      }
      List(lines, state: selection)
        .render(
          in: Rect(x: area.x + 1, y: area.y + 1, width: area.width - 1, height: min(12, trips.count)), into: &buffer)
    }
    var y = area.y + 2 + min(12, max(1, trips.count))
    let strings = model.strings
    if let quote = model.pendingCancellation {
      let summary = trips.first { $0.id == quote.reservationId }?.summary ?? ""
      let lines =
        [strings.format(.tripsCancelQuote, ["id": quote.reservationId, "summary": summary])]
        + CancellationText.lines(quote, strings: strings, money: model.money)
      for (index, line) in lines.enumerated() {
        let paragraph = Paragraph(line, style: index == 0 ? buffer.theme.warning : .plain)
        let rows = min(2, paragraph.height(forWidth: area.width - 3))
        paragraph.render(
          in: Rect(x: area.x + (index == 0 ? 1 : 3), y: y, width: area.width - 3, height: rows), into: &buffer)
        y += rows
      }
      buffer.write(
        strings.format(.tripsCancelAppConfirm, ["id": quote.reservationId]), x: area.x + 1, y: y,
        maxWidth: area.width - 1, style: buffer.theme.warning)
      y += 1
    } else if let trip = selectedTrip, trip.status == .cancelled, let refunded = trip.refunded {
      let fee = trip.cancellationFee ?? Money.zero(trip.total.currencyCode)
      let text =
        "\(trip.id): " + strings.format(.tripsFee, ["amount": model.money.string(fee)]) + " · "
        + strings.format(.tripsRefunded, ["amount": model.money.string(refunded)])
      buffer.write(text, x: area.x + 1, y: y, maxWidth: area.width - 1, style: buffer.theme.muted)
      y += 1
    }
    if let error = model.errorMessage {
      buffer.write(error, x: area.x + 1, y: y, maxWidth: area.width - 1, style: buffer.theme.error)
      y += 1
    }
    if let notice, y < area.bottom {
      // Wrapped, not cut: a saved file's folder is the part that matters.
      let paragraph = Paragraph(notice, style: buffer.theme.success)
      let rows = min(paragraph.height(forWidth: area.width - 1), area.bottom - y)
      paragraph.render(in: Rect(x: area.x + 1, y: y, width: area.width - 1, height: rows), into: &buffer)
      y += rows
    }
    // The booked flights, live (from the last day on).
    let live = model.liveFlights
    guard !live.isEmpty, y + 2 < area.bottom else { return }
    y += 1
    buffer.write(L("Your flights, live"), x: area.x + 1, y: y, maxWidth: area.width - 1, style: buffer.theme.accent)
    y += 1
    for flight in live where y < area.bottom {
      let style: Style
      switch flight.status.status {
      case .cancelled, .diverted: style = buffer.theme.error
      case .delayed: style = buffer.theme.warning
      default: style = buffer.theme.base
      }
      buffer.write(
        FlightStatusText.summary(flight.status, booked: flight.booked), x: area.x + 1, y: y, maxWidth: area.width - 1,
        style: style)
      y += 1
    }
  }
}
