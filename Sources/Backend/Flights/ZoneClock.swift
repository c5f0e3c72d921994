import Foundation

/// Fast local ↔ UTC conversion for one IANA time zone, in whole minutes since 1970-01-01.
///
/// Built once from Foundation's rules (`TimeZone.nextDaylightSavingTimeTransition(after:)` and
/// `secondsFromGMT(for:)`) for the years ``firstYear``–``lastYear``; a search then converts with a
/// binary search over a dozen transitions instead of a `Calendar` call per flight. The tests
/// check it against `Calendar` with explicit time zones around every DST change.
///
/// Local times that do not exist (the spring-forward gap) move forward by the gap, and local
/// times that occur twice (the autumn overlap) take the first occurrence: the choice of
/// `Calendar.date(from:)`.
struct ZoneClock: Sendable {
  static let firstYear = 2024
  static let lastYear = 2031

  let identifier: String
  /// UTC minute of each transition, ascending.
  private let transitions: [Int32]
  /// Offset (minutes) in force from `transitions[i - 1]` up to `transitions[i]`; `offsets[0]` before the
  /// first transition. `offsets.count == transitions.count + 1`.
  private let offsets: [Int32]

  init(timeZone: TimeZone) {
    identifier = timeZone.identifier
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let start = calendar.date(from: DateComponents(year: Self.firstYear, month: 1, day: 1))!
    let end = calendar.date(from: DateComponents(year: Self.lastYear + 1, month: 1, day: 1))!
    var transitions: [Int32] = []
    var offsets: [Int32] = [Int32(timeZone.secondsFromGMT(for: start) / 60)]
    var cursor = start
    while let next = timeZone.nextDaylightSavingTimeTransition(after: cursor), next < end, next > cursor {
      let offset = Int32(timeZone.secondsFromGMT(for: next) / 60)
      if offset != offsets[offsets.count - 1] {
        transitions.append(Int32(next.timeIntervalSince1970 / 60))
        offsets.append(offset)
      }
      cursor = next
    }
    self.transitions = transitions
    self.offsets = offsets
  }

  /// The index into `offsets` of the interval that holds UTC minute `utc`.
  @inline(__always)
  private func interval(ofUTC utc: Int32) -> Int {
    var low = 0
    var high = transitions.count
    while low < high {
      let middle = (low + high) >> 1
      if transitions[middle] <= utc { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The UTC offset in minutes in force at UTC minute `utc`.
  @inline(__always)
  func offset(atUTC utc: Int32) -> Int32 {
    transitions.isEmpty ? offsets[0] : offsets[interval(ofUTC: utc)]
  }

  /// The UTC minute of local wall-clock minute `local` (gap: moved forward; overlap: the first).
  @inline(__always)
  func utc(fromLocal local: Int32) -> Int32 {
    if transitions.isEmpty { return local - offsets[0] }
    let guess = interval(ofUTC: local - offsets[0])
    var best: Int32 = .max
    let low = max(0, guess - 1)
    let high = min(offsets.count - 1, guess + 1)
    for index in low...high {
      let candidate = local - offsets[index]
      let begins = index == 0 ? Int32.min : transitions[index - 1]
      let ends = index == transitions.count ? Int32.max : transitions[index]
      if candidate >= begins && candidate < ends && candidate < best { best = candidate }
    }
    if best != .max { return best }
    // In a gap: the earlier offset, which lands after the transition (02:30 → 03:30).
    for index in low..<high {
      let candidate = local - offsets[index]
      if candidate >= transitions[index] && local - offsets[index + 1] < transitions[index] { return candidate }
    }
    return local - offsets[guess]
  }

  /// The local wall-clock minute of UTC minute `utc`.
  @inline(__always)
  func local(fromUTC utc: Int32) -> Int32 { utc + offset(atUTC: utc) }
}
