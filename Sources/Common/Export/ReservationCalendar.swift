import Foundation

extension Reservation {
  /// The calendar event of this reservation for iCalendar export, or nil when its kind gave it no
  /// start time (``Reservation/startsAt``).
  ///
  /// Each kind supplies the times when it books: ``Reservation/startsAt`` and
  /// ``Reservation/endsAt`` (UTC instants; the end defaults to the start). The start and end are
  /// written in ``Reservation/startTimeZone`` and ``Reservation/endTimeZone`` (local times with a
  /// `VTIMEZONE`; UTC when the reservation has no zone); the `"location"` detail (text) gives the
  /// event's location.
  /// - Parameters:
  ///   - title: the event's title; the reservation's ``Reservation/summary`` by default.
  ///   - money: how the total (and a cancellation's fee and refund) are written.
  public func calendarEvent(title: String? = nil, money: MoneyFormat = .english) -> CalendarEvent? {
    guard let start = startsAt else { return nil }
    var description = summary
    if let locator { description += "\nConfirmation: \(locator)" }
    description += "\nReservation: \(id)\nTotal: \(money.string(total))"
    if let fee = cancellationFee, let refunded {
      description += "\nCancelled: fee \(money.string(fee)), refunded \(money.string(refunded))"
    }
    return CalendarEvent(
      uid: "\(id)@travel.app", summary: title ?? summary, description: description,
      location: details["location"]?.stringValue, start: start, end: endsAt ?? start, timeZone: startTimeZone,
      endTimeZone: endTimeZone, isCancelled: status == .cancelled)
  }
}
