import Common
import Foundation

/// What the calendar picker shows and where its cursor is: the day under the cursor, the chosen
/// date or range, and the earliest day that may be chosen. Kept by the screen between frames.
///
/// Keys (``handle(_:)``): ← → a day, ↑ ↓ a week, PgUp / PgDn a month (same day, clamped to the
/// month's length), Home / End first / last day of the month, Enter or Space chooses the day.
/// In range mode the first choice starts a range and the second ends it (a second day on or
/// before the start starts over); the range is half-open like ``DateRange``: for a stay,
/// check-in to check-out.
public struct CalendarPickerState: Hashable, Sendable {
  /// Whether two choices make a range (stays, rentals) rather than one date (a flight).
  public var selectsRange: Bool
  /// The day under the cursor; the month shown is its month.
  public private(set) var cursor: LocalDate
  /// Days before this cannot be chosen (nil: any day), e.g. today.
  public var earliest: LocalDate?
  /// The chosen single date, or the start of the range.
  public private(set) var start: LocalDate?
  /// The end of the range (exclusive, e.g. the check-out date); nil until chosen.
  public private(set) var end: LocalDate?

  public init(cursor: LocalDate, selectsRange: Bool = false, earliest: LocalDate? = nil) {
    self.cursor = earliest.map { max($0, cursor) } ?? cursor
    self.selectsRange = selectsRange
    self.earliest = earliest
  }

  /// The chosen range, when both ends are chosen.
  public var range: DateRange? {
    guard let start, let end else { return nil }
    return DateRange(start: start, end: end)
  }

  /// Moves the cursor to `date` (not before ``earliest``).
  public mutating func moveCursor(to date: LocalDate) {
    cursor = earliest.map { max($0, date) } ?? date
  }

  /// Chooses `date` (as Enter on it would).
  public mutating func choose(_ date: LocalDate) -> CalendarPickerEvent? {
    if let earliest, date < earliest { return nil }
    if !selectsRange {
      start = date
      end = nil
      return .dateChosen(date)
    }
    if let start, end == nil, date > start {
      end = date
      return DateRange(start: start, end: date).map(CalendarPickerEvent.rangeChosen)
    }
    start = date
    end = nil
    return .rangeStarted(date)
  }

  /// Sets the chosen range directly (for a form that already has one).
  public mutating func setRange(_ range: DateRange?) {
    start = range?.start
    end = range?.end
    if let range { cursor = range.start }
  }

  /// Applies a key. - Returns: `nil` when the key is not the picker's; otherwise what happened
  /// (``CalendarPickerEvent/moved`` for navigation).
  public mutating func handle(_ key: Key) -> CalendarPickerEvent? {
    switch key {
    case .left: moveCursor(to: cursor.adding(days: -1))
    case .right: moveCursor(to: cursor.adding(days: 1))
    case .up: moveCursor(to: cursor.adding(days: -7))
    case .down: moveCursor(to: cursor.adding(days: 7))
    case .pageUp: moveCursor(to: Self.shift(cursor, months: -1))
    case .pageDown: moveCursor(to: Self.shift(cursor, months: 1))
    case .home: moveCursor(to: Self.firstOfMonth(cursor))
    case .end: moveCursor(to: Self.firstOfMonth(Self.shift(cursor, months: 1)).adding(days: -1))
    case .enter, .character(" "): return choose(cursor) ?? .moved
    default: return nil
    }
    return .moved
  }

  static func firstOfMonth(_ date: LocalDate) -> LocalDate {
    LocalDate(daysSinceEpoch: date.daysSinceEpoch - date.day + 1)
  }

  static func daysInMonth(of date: LocalDate) -> Int {
    let first = firstOfMonth(date)
    let (year, month, _) = first.components
    let next = LocalDate(year: month == 12 ? year + 1 : year, month: month == 12 ? 1 : month + 1, day: 1)
    return next.map { first.days(to: $0) } ?? 31
  }

  /// The same day `months` months later, clamped to that month's last day.
  static func shift(_ date: LocalDate, months: Int) -> LocalDate {
    let (year, month, day) = date.components
    let total = year * 12 + (month - 1) + months
    let first = LocalDate(year: total / 12, month: total % 12 + 1, day: 1) ?? date
    return first.adding(days: min(day, daysInMonth(of: first)) - 1)
  }
}

/// What a key did in the calendar picker.
public enum CalendarPickerEvent: Hashable, Sendable {
  /// The cursor moved (or the key was otherwise used).
  case moved
  /// A single date was chosen.
  case dateChosen(LocalDate)
  /// The first day of a range was chosen; the second is awaited.
  case rangeStarted(LocalDate)
  /// A range was completed.
  case rangeChosen(DateRange)
}

/// A month grid (ISO weeks, Monday first) with the cursor day in brackets, the chosen date or
/// range highlighted, days before the earliest dimmed, and — where a feature provides them — the
/// cheapest price of each day shown as shading (the month's cheapest third, middle third and
/// dearest third in ``Theme/priceShades``) with the cursor day's price spelled out below.
///
/// Needs 28 × 10 cells (title, weekdays, six weeks, a blank line and the price/legend line).
public struct CalendarPicker: Widget {
  public var state: CalendarPickerState
  /// Cheapest price per day (any subset of days; all in one currency).
  public var prices: [LocalDate: Money]
  public var isFocused: Bool
  /// How the prices are written (``MoneyFormat``).
  public var money: MoneyFormat

  public init(
    state: CalendarPickerState, prices: [LocalDate: Money] = [:], focused: Bool = true, money: MoneyFormat = .english
  ) {
    self.state = state
    self.prices = prices
    self.isFocused = focused
    self.money = money
  }

  /// The month names of the current language (`December`, `Dezember`).
  static var monthNames: [String] {
    let formatter = DateFormatter()
    formatter.locale = Localization.current.locale
    return formatter.standaloneMonthSymbols
  }

  /// Shade index (0 cheapest third, 1, 2 dearest third) of each priced day of the month shown.
  func shades(first: LocalDate, days: Int) -> [LocalDate: Int] {
    let monthPrices = (0..<days).compactMap { offset -> (LocalDate, Decimal)? in
      let date = first.adding(days: offset)
      return prices[date].map { (date, $0.amount) }
    }
    guard let low = monthPrices.map(\.1).min(), let high = monthPrices.map(\.1).max() else { return [:] }
    let span = high - low
    var result: [LocalDate: Int] = [:]
    for (date, amount) in monthPrices {
      if span == 0 {
        result[date] = 0
      } else {
        let position = NSDecimalNumber(decimal: (amount - low) / span).doubleValue
        result[date] = min(2, Int(position * 3))
      }
    }
    return result
  }

  public func render(in area: Rect, into buffer: inout Buffer) {
    guard area.width >= 28, area.height >= 8 else {
      Label(L("Calendar needs 28×8"), style: buffer.theme.muted).render(in: area, into: &buffer)
      return
    }
    let theme = buffer.theme
    let origin = area.x + (area.width - 28) / 2
    let first = CalendarPickerState.firstOfMonth(state.cursor)
    let (year, month, _) = first.components
    Label("‹ \(Self.monthNames[month - 1]) \(year) ›", style: theme.accent).alignment(.center)
      .render(in: Rect(x: origin, y: area.y, width: 28, height: 1), into: &buffer)
    for (index, name) in [L("Mo"), L("Tu"), L("We"), L("Th"), L("Fr"), L("Sa"), L("Su")].enumerated() {
      buffer.write(name, x: origin + index * 4 + 1, y: area.y + 1, style: theme.muted)
    }
    let days = CalendarPickerState.daysInMonth(of: first)
    let shade = shades(first: first, days: days)
    let leading = first.isoWeekday - 1
    for offset in 0..<days {
      let date = first.adding(days: offset)
      let slot = leading + offset
      let x = origin + (slot % 7) * 4
      let y = area.y + 2 + slot / 7
      guard y < area.bottom else { break }
      var style = theme.base
      if let level = shade[date], level < theme.priceShades.count { style = style.patched(theme.priceShades[level]) }
      if let earliest = state.earliest, date < earliest { style = theme.muted }
      let inRange: Bool
      if let start = state.start {
        inRange = date == start || (state.end.map { date > start && date < $0 } ?? false)
      } else {
        inRange = false
      }
      if inRange || date == state.end { style = theme.selection }
      let isCursor = date == state.cursor && isFocused
      if isCursor { style = style.adding([.bold, .underline]) }
      let number = date.day < 10 ? " \(date.day)" : "\(date.day)"
      buffer.write(isCursor ? "[\(number)]" : " \(number) ", x: x, y: y, maxWidth: 4, style: style)
    }
    let footer = area.y + min(area.height - 1, 9)
    var caption = "\(state.cursor)"
    if let price = prices[state.cursor] {
      caption += L(" · from \(money.string(price))")
    } else if !prices.isEmpty {
      caption += L(" · no fares")
    }
    Label(caption, style: theme.muted).alignment(.center)
      .render(in: Rect(x: area.x, y: footer, width: area.width, height: 1), into: &buffer)
  }
}
