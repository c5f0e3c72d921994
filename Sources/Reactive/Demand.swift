/// A namespace for types that serve as subscribers, as Combine's `Subscribers`.
public enum Subscribers {}

extension Subscribers {
  /// A requested number of items, sent to a publisher from a subscriber through the subscription.
  ///
  /// `.unlimited` is larger than every finite demand. Arithmetic saturates: adding to or
  /// multiplying `.unlimited` gives `.unlimited`, an overflow gives `.unlimited`, subtracting below
  /// zero gives `.none`, and subtracting from `.unlimited` leaves it unlimited. A negative count
  /// (`.max(-1)`, multiplying by a negative number) traps, as in Combine.
  ///
  /// Encoded (`Codable`) as a single unsigned integer, as Combine does.
  public struct Demand: Equatable, Comparable, Hashable, Codable, CustomStringConvertible, Sendable {
    let rawValue: UInt

    init(rawValue: UInt) {
      self.rawValue = Swift.min(UInt(Int.max) + 1, rawValue)
    }

    /// A request for as many values as the publisher can produce.
    public static let unlimited = Demand(rawValue: UInt(Int.max) + 1)

    /// A request for no elements from the publisher (only a valid *additional* demand).
    public static let none = Demand(rawValue: 0)

    /// Creates a demand for the given maximum number of elements.
    ///
    /// - Precondition: `value >= 0`.
    @inline(__always)
    public static func max(_ value: Int) -> Demand {
      precondition(value >= 0, "demand must not be negative")
      return Demand(rawValue: UInt(value))
    }

    /// The number of requested values, or `nil` for `.unlimited`.
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

    // MARK: Arithmetic

    /// The sum; `.unlimited` if either side is unlimited or the sum overflows.
    public static func + (lhs: Demand, rhs: Demand) -> Demand {
      if lhs == .unlimited || rhs == .unlimited { return .unlimited }
      let (sum, overflow) = lhs.rawValue.addingReportingOverflow(rhs.rawValue)
      return overflow ? .unlimited : Demand(rawValue: sum)
    }

    public static func += (lhs: inout Demand, rhs: Demand) { lhs = lhs + rhs }

    /// Adds a count; a negative count subtracts (never below `.none`).
    public static func + (lhs: Demand, rhs: Int) -> Demand {
      if lhs == .unlimited { return .unlimited }
      if rhs < 0 { return lhs - Demand(rawValue: rhs.magnitude) }
      return lhs + Demand(rawValue: UInt(rhs))
    }

    public static func += (lhs: inout Demand, rhs: Int) { lhs = lhs + rhs }

    /// The product; `.unlimited` if `lhs` is unlimited or on overflow.
    ///
    /// - Precondition: `rhs >= 0`.
    public static func * (lhs: Demand, rhs: Int) -> Demand {
      precondition(rhs >= 0, "demand must not be multiplied by a negative number")
      if lhs == .unlimited { return .unlimited }
      let (product, overflow) = lhs.rawValue.multipliedReportingOverflow(by: UInt(rhs))
      return overflow ? .unlimited : Demand(rawValue: product)
    }

    public static func *= (lhs: inout Demand, rhs: Int) { lhs = lhs * rhs }

    /// The difference: `.unlimited` minus anything stays unlimited; finite minus `.unlimited` is
    /// `.none`; results below zero are `.none`.
    public static func - (lhs: Demand, rhs: Demand) -> Demand {
      if lhs == .unlimited { return .unlimited }
      if rhs == .unlimited { return .none }
      let (difference, overflow) = lhs.rawValue.subtractingReportingOverflow(rhs.rawValue)
      return overflow ? .none : Demand(rawValue: difference)
    }

    public static func -= (lhs: inout Demand, rhs: Demand) { lhs = lhs - rhs }

    /// Subtracts a count; a negative count adds.
    public static func - (lhs: Demand, rhs: Int) -> Demand {
      if lhs == .unlimited { return .unlimited }
      if rhs < 0 { return lhs + Demand(rawValue: rhs.magnitude) }
      return lhs - Demand(rawValue: UInt(rhs))
    }

    public static func -= (lhs: inout Demand, rhs: Int) { lhs = lhs - rhs }

    // MARK: Comparison

    public static func < (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue < rhs.rawValue }

    public static func == (lhs: Demand, rhs: Int) -> Bool { lhs != .unlimited && rhs >= 0 && lhs.rawValue == UInt(rhs) }
    public static func != (lhs: Demand, rhs: Int) -> Bool { !(lhs == rhs) }
    public static func == (lhs: Int, rhs: Demand) -> Bool { rhs == lhs }
    public static func != (lhs: Int, rhs: Demand) -> Bool { !(rhs == lhs) }

    public static func < (lhs: Demand, rhs: Int) -> Bool {
      if lhs == .unlimited { return false }
      return rhs > 0 && lhs.rawValue < UInt(rhs)
    }

    public static func > (lhs: Demand, rhs: Int) -> Bool {
      if lhs == .unlimited { return true }
      return rhs < 0 || lhs.rawValue > UInt(rhs)
    }

    public static func <= (lhs: Demand, rhs: Int) -> Bool { !(lhs > rhs) }
    public static func >= (lhs: Demand, rhs: Int) -> Bool { !(lhs < rhs) }
    public static func < (lhs: Int, rhs: Demand) -> Bool { rhs > lhs }
    public static func > (lhs: Int, rhs: Demand) -> Bool { rhs < lhs }
    public static func <= (lhs: Int, rhs: Demand) -> Bool { rhs >= lhs }
    public static func >= (lhs: Int, rhs: Demand) -> Bool { rhs <= lhs }
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
  func mapError<NewFailure: Error>(_ transform: (Failure) -> NewFailure) -> Subscribers.Completion<NewFailure> {
    switch self {
    case .finished: .finished
    case .failure(let error): .failure(transform(error))
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
