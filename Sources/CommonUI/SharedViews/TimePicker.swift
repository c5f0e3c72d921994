import Foundation

/// A time of day chosen from a list (the partner of ``CalendarPickerState`` for a pick-up or a
/// drop-off): the time under the cursor, in steps of ``step`` minutes. Kept by the screen.
///
/// Keys (``handle(_:)``): ↑ ↓ one step earlier / later, PgUp / PgDn an hour, Home / End the first
/// and last time of the day, digits type a time (`9` → 09:00, `1` `0` `3` `0` → 10:30: the cursor
/// goes to the nearest step; a fifth digit, or one that cannot continue a time, starts a new one),
/// Enter or Space chooses it.
public struct TimePickerState: Hashable, Sendable {
  /// Minutes between two times offered (30: 09:00, 09:30, …).
  public let step: Int
  /// The time under the cursor, minutes after midnight (a multiple of ``step``).
  public private(set) var minutes: Int
  /// The digits typed so far.
  private var typed = ""

  /// A picker with the cursor on `minutes` (rounded to the nearest step).
  public init(minutes: Int, step: Int = 30) {
    self.step = max(1, min(60, step))
    self.minutes = 0
    self.minutes = rounded(minutes)
  }

  /// `10:30`.
  public static func text(_ minutes: Int) -> String { String(format: "%02d:%02d", minutes / 60, minutes % 60) }

  /// The cursor as text (`10:30`).
  public var text: String { Self.text(minutes) }

  private func rounded(_ value: Int) -> Int {
    let clamped = max(0, min(24 * 60 - 1, value))
    let steps = (clamped + step / 2) / step
    return min(steps * step, (24 * 60 - 1) / step * step)
  }

  /// Applies a key. - Returns: nil when the key is not the picker's; ``TimePickerEvent/chosen(_:)``
  /// for Enter or Space; ``TimePickerEvent/moved`` otherwise.
  public mutating func handle(_ key: Key) -> TimePickerEvent? {
    let last = (24 * 60 - 1) / step * step
    var isDigit = false
    if case .character(let c) = key { isDigit = c.isASCII && c.isNumber }
    if !isDigit { typed = "" }  // any other key ends a typed time
    switch key {
    case .up: minutes = max(0, minutes - step)
    case .down: minutes = min(last, minutes + step)
    case .pageUp: minutes = max(0, minutes - 60)
    case .pageDown: minutes = min(last, minutes + 60)
    case .home: minutes = 0
    case .end: minutes = last
    case .enter, .character(" "):
      return .chosen(minutes)
    case .character(let c) where c.isASCII && c.isNumber:
      // A fifth digit, or one that makes no time of the day, starts a new time with it.
      guard let value = typed.count < 4 ? Self.minutes(typed: typed + String(c)) : nil else {
        typed = String(c)
        minutes = rounded(Self.minutes(typed: typed) ?? minutes)
        return .moved
      }
      typed += String(c)
      minutes = rounded(value)
    default:
      return nil
    }
    return .moved
  }
}

extension TimePickerState {
  /// The time that `typed` digits spell, minutes after midnight: `9` and `09` 09:00, `94` 09:40 (no
  /// hour 94: the start of 09:4x), `930` 09:30, `1030` 10:30; nil when they spell no time of the day
  /// (`99`, `975`).
  static func minutes(typed: String) -> Int? {
    let digits = typed.compactMap(\.wholeNumberValue)
    let hour: Int
    let minute: Int
    switch digits.count {
    case 1: (hour, minute) = (digits[0], 0)
    case 2 where digits[0] * 10 + digits[1] < 24: (hour, minute) = (digits[0] * 10 + digits[1], 0)
    case 2: (hour, minute) = (digits[0], digits[1] * 10)
    case 3: (hour, minute) = (digits[0], digits[1] * 10 + digits[2])
    case 4: (hour, minute) = (digits[0] * 10 + digits[1], digits[2] * 10 + digits[3])
    default: return nil
    }
    guard hour < 24, minute < 60 else { return nil }
    return hour * 60 + minute
  }
}

/// What a key did to a ``TimePickerState``.
public enum TimePickerEvent: Hashable, Sendable {
  /// The cursor moved (redraw).
  case moved
  /// Enter or Space chose this time (minutes after midnight).
  case chosen(Int)
}

/// A time picker: a column of times around the cursor, the cursor's highlighted (the selection
/// colour when focused; the screen's footer gives the keys). Needs at least 7 columns; 9 rows show
/// four times either side.
///
/// ```swift
/// TimePicker(state: time, focused: true).render(in: Rect(x: x, y: y, width: 14, height: 9), into: &buffer)
/// ```
public struct TimePicker: Widget {
  public var state: TimePickerState
  public var isFocused: Bool

  public init(state: TimePickerState, focused: Bool = true) {
    self.state = state
    self.isFocused = focused
  }

  public func render(in area: Rect, into buffer: inout Buffer) {
    guard area.height >= 1, area.width >= 7 else { return }
    buffer.clear(area)
    let rows = area.height
    let middle = rows / 2
    let last = (24 * 60 - 1) / state.step * state.step
    for row in 0..<rows {
      let value = state.minutes + (row - middle) * state.step
      guard (0...last).contains(value) else { continue }
      let isCursor = row == middle
      let text = (isCursor ? "▸ " : "  ") + TimePickerState.text(value)
      let style = isCursor ? (isFocused ? buffer.theme.selection : buffer.theme.accent) : buffer.theme.muted
      buffer.write(text, x: area.x, y: area.y + row, maxWidth: area.width, style: style)
    }
  }
}
