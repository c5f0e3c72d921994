import Foundation

extension Reservation {
  /// The calendar event of this reservation for iCalendar export, or nil when its kind gave it no
  /// start time (``Reservation/startsAt``).
  ///
  /// Each kind supplies the times when it books: ``Reservation/startsAt`` and
  /// ``Reservation/endsAt`` (UTC instants; the end defaults to the start). Optional `details`
  /// keys refine the event: `"timeZone"` (an IANA identifier such as `America/Los_Angeles`, for
  /// local times with a `VTIMEZONE`; otherwise UTC) and `"location"` (text).
  /// - Parameter title: the event's title; the reservation's ``Reservation/summary`` by default.
  public func calendarEvent(title: String? = nil) -> CalendarEvent? {
    guard let start = startsAt else { return nil }
    var description = summary
    if let locator { description += "\nConfirmation: \(locator)" }
    description += "\nReservation: \(id)\nTotal: \(total.amountString) \(total.currencyCode)"
    let zone = details["timeZone"]?.stringValue.flatMap(TimeZone.init(identifier:))
    return CalendarEvent(
      uid: "\(id)@travel.app", summary: title ?? summary, description: description,
      location: details["location"]?.stringValue, start: start, end: endsAt ?? start, timeZone: zone,
      isCancelled: status == .cancelled)
  }
}
