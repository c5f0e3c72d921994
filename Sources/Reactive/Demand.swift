/// A namespace for types that serve as subscribers, as Combine's `Subscribers`.
public enum Subscribers {}

extension Subscribers {
  /// A requested number of items, sent to a publisher from a subscriber through the subscription.
  ///
  /// `.unlimited` is larger than every finite demand. The arithmetic is Combine's, as its public
  /// interface defines it (these operators are inlined into Combine's clients, so Combine code
  /// observes exactly this):
  /// - `+`, `*`: `.unlimited` if the left side (or, for `+`, either side) is unlimited or the
  ///   result overflows `Int`; otherwise `.max(result)`.
  /// - `-`: `.unlimited` minus anything stays unlimited; a finite demand minus `.unlimited` is
  ///   `.none`; an overflow gives `.none` (so `.max(Int.max) - (-1)` is `.none`).
  /// - A result below zero (`.max(1) - 2`, `.max(1) + (-2)`, `.max(2) * -1`) is a programming
  ///   error and traps, as `.max(-1)` does. (Combine's documentation says such results become
  ///   `.max(0)`; its implementation traps, and code written against Combine sees the trap.)
  /// - Comparisons with an `Int` treat `.unlimited` as larger than every `Int`.
  ///
  /// Encoded (`Codable`) as a single unsigned integer, as Combine does; a decoded number above
  /// `Int.max` is `.unlimited`.
  public struct Demand: Equatable, Comparable, Hashable, Codable, CustomStringConvertible, Sendable {
    @usableFromInline let rawValue: UInt

    @inlinable @inline(__always)
    init(rawValue: UInt) {
      self.rawValue = Swift.min(UInt(Int.max) + 1, rawValue)
    }

    /// A request for as many values as the publisher can produce.
    public static let unlimited = Demand(rawValue: UInt(Int.max) + 1)

    /// A request for no elements from the publisher (`.max(0)`; only a valid *additional* demand).
    public static let none = Demand(rawValue: 0)

    /// Creates a demand for the given maximum number of elements.
    ///
    /// - Precondition: `value >= 0` (a negative demand traps, as in Combine).
    @inlinable @inline(__always)
    public static func max(_ value: Int) -> Demand {
      precondition(value >= 0, "a demand must not be negative")
      return Demand(rawValue: UInt(value))
    }

    /// The number of requested values, or `nil` for `.unlimited`.
    @inlinable @inline(__always)
    public var max: Int? {
      self == .unlimited ? nil : Int(rawValue)
    }

    public var description: String {
      self == .unlimited ? "unlimited" : "max(\(rawValue))"
    }

    public init(from decoder: Decoder) throws {
      let container = try decoder.singleValueContainer()
      self.init(rawValue: try container.decode(UInt.self))
    }

    public func encode(to encoder: Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(rawValue)
    }

    @inlinable @inline(__always)
    public static func == (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue == rhs.rawValue }

    public func hash(into hasher: inout Hasher) {
      hasher.combine(rawValue)
    }

    // MARK: Arithmetic

    /// The sum; `.unlimited` if either side is unlimited or the sum overflows.
    @inlinable @inline(__always)
    public static func + (lhs: Demand, rhs: Demand) -> Demand {
      if lhs == .unlimited || rhs == .unlimited { return .unlimited }
      let (sum, overflow) = Int(lhs.rawValue).addingReportingOverflow(Int(rhs.rawValue))
      return overflow ? .unlimited : .max(sum)
    }

    /// Adds `rhs`; an unlimited `lhs` stays unlimited.
    @inlinable @inline(__always)
    public static func += (lhs: inout Demand, rhs: Demand) {
      if lhs == .unlimited { return }
      lhs = lhs + rhs
    }

    /// Adds a count (which may be negative); `.unlimited` on overflow.
    ///
    /// - Precondition: the result is not negative.
    @inlinable @inline(__always)
    public static func + (lhs: Demand, rhs: Int) -> Demand {
      if lhs == .unlimited { return .unlimited }
      let (sum, overflow) = Int(lhs.rawValue).addingReportingOverflow(rhs)
      return overflow ? .unlimited : .max(sum)
    }

    @inlinable @inline(__always)
    public static func += (lhs: inout Demand, rhs: Int) { lhs = lhs + rhs }

    /// The product; `.unlimited` if `lhs` is unlimited or the product overflows.
    ///
    /// - Precondition: the result is not negative.
    public static func * (lhs: Demand, rhs: Int) -> Demand {
      if lhs == .unlimited { return .unlimited }
      let (product, overflow) = Int(lhs.rawValue).multipliedReportingOverflow(by: rhs)
      return overflow ? .unlimited : .max(product)
    }

    @inlinable @inline(__always)
    public static func *= (lhs: inout Demand, rhs: Int) { lhs = lhs * rhs }

    /// The difference: `.unlimited` minus anything is unlimited; finite minus `.unlimited` is
    /// `.none`; `.none` on overflow.
    ///
    /// - Precondition: the result is not negative.
    @inlinable @inline(__always)
    public static func - (lhs: Demand, rhs: Demand) -> Demand {
      if lhs == .unlimited { return .unlimited }
      if rhs == .unlimited { return .none }
      let (difference, overflow) = Int(lhs.rawValue).subtractingReportingOverflow(Int(rhs.rawValue))
      return overflow ? .none : .max(difference)
    }

    @inlinable @inline(__always)
    public static func -= (lhs: inout Demand, rhs: Demand) { lhs = lhs - rhs }

    /// Subtracts a count (which may be negative); `.none` on overflow.
    ///
    /// - Precondition: the result is not negative.
    @inlinable @inline(__always)
    public static func - (lhs: Demand, rhs: Int) -> Demand {
      if lhs == .unlimited { return .unlimited }
      let (difference, overflow) = Int(lhs.rawValue).subtractingReportingOverflow(rhs)
      return overflow ? .none : .max(difference)
    }

    /// Subtracts a count; an unlimited `lhs` stays unlimited.
    @inlinable @inline(__always)
    public static func -= (lhs: inout Demand, rhs: Int) {
      if lhs == .unlimited { return }
      lhs = lhs - rhs
    }

    // MARK: Comparison

    @inlinable @inline(__always)
    public static func < (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue < rhs.rawValue }
    @inlinable @inline(__always)
    public static func <= (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue <= rhs.rawValue }
    @inlinable @inline(__always)
    public static func > (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue > rhs.rawValue }
    @inlinable @inline(__always)
    public static func >= (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue >= rhs.rawValue }

    @inlinable @inline(__always)
    public static func == (lhs: Demand, rhs: Int) -> Bool { lhs != .unlimited && Int(lhs.rawValue) == rhs }
    @inlinable @inline(__always)
    public static func != (lhs: Demand, rhs: Int) -> Bool { lhs == .unlimited || Int(lhs.rawValue) != rhs }
    @inlinable @inline(__always)
    public static func == (lhs: Int, rhs: Demand) -> Bool { rhs == lhs }
    @inlinable @inline(__always)
    public static func != (lhs: Int, rhs: Demand) -> Bool { rhs != lhs }

    @inlinable @inline(__always)
    public static func < (lhs: Demand, rhs: Int) -> Bool { lhs != .unlimited && Int(lhs.rawValue) < rhs }
    @inlinable @inline(__always)
    public static func <= (lhs: Demand, rhs: Int) -> Bool { lhs != .unlimited && Int(lhs.rawValue) <= rhs }
    @inlinable @inline(__always)
    public static func > (lhs: Demand, rhs: Int) -> Bool { lhs == .unlimited || Int(lhs.rawValue) > rhs }
    @inlinable @inline(__always)
    public static func >= (lhs: Demand, rhs: Int) -> Bool { lhs == .unlimited || Int(lhs.rawValue) >= rhs }
    @inlinable @inline(__always)
    public static func < (lhs: Int, rhs: Demand) -> Bool { rhs == .unlimited || lhs < Int(rhs.rawValue) }
    @inlinable @inline(__always)
    public static func <= (lhs: Int, rhs: Demand) -> Bool { rhs == .unlimited || lhs <= Int(rhs.rawValue) }
    @inlinable @inline(__always)
    public static func > (lhs: Int, rhs: Demand) -> Bool { rhs != .unlimited && lhs > Int(rhs.rawValue) }
    @inlinable @inline(__always)
    public static func >= (lhs: Int, rhs: Demand) -> Bool { rhs != .unlimited && lhs >= Int(rhs.rawValue) }

    // MARK: Internal helpers (never trap)

    /// One value delivered: the demand less one (never below zero; unlimited stays unlimited).
    @inlinable @inline(__always)
    var decremented: Demand {
      rawValue == 0 || self == .unlimited ? self : Demand(rawValue: rawValue &- 1)
    }
  }

  /// A signal that a publisher doesn't produce additional elements, either due to normal
  /// completion or an error.
  ///
  /// `Codable` when `Failure` is, as `{"success": true}` or `{"success": false, "error": …}`.
  public enum Completion<Failure: Error> {
    /// The publisher finished normally.
    case finished
    /// The publisher stopped publishing due to the indicated error.
    case failure(Failure)
  }
}

extension Subscribers.Completion: Equatable where Failure: Equatable {}
extension Subscribers.Completion: Hashable where Failure: Hashable {}
extension Subscribers.Completion: Sendable where Failure: Sendable {}

extension Subscribers.Completion {
  private enum CodingKeys: String, CodingKey {
    case success
    case error
  }

  /// The same completion with its error transformed.
  @inlinable @inline(__always)
  func mapError<NewFailure: Error>(_ transform: (Failure) -> NewFailure) -> Subscribers.Completion<NewFailure> {
    switch self {
    case .finished: .finished
    case .failure(let error): .failure(transform(error))
    }
  }

  /// The same completion with its error as `any Error`.
  @inlinable @inline(__always)
  var erased: Subscribers.Completion<Error> {
    switch self {
    case .finished: .finished
    case .failure(let error): .failure(error)
    }
  }
}

extension Subscribers.Completion: Encodable where Failure: Encodable {
  public func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .finished:
      try container.encode(true, forKey: .success)
    case .failure(let error):
      try container.encode(false, forKey: .success)
      try container.encode(error, forKey: .error)
    }
  }
}

extension Subscribers.Completion: Decodable where Failure: Decodable {
  public init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    if try container.decode(Bool.self, forKey: .success) {
      self = .finished
    } else {
      self = .failure(try container.decode(Failure.self, forKey: .error))
    }
  }
}
