import Foundation

/// One SQLite value: the five storage classes.
public enum SQLValue: Hashable, Sendable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob(Data)
}

/// A Swift value that can be bound to a statement parameter (`?`).
public protocol SQLBindable {
  var sqlValue: SQLValue { get }
}

/// A Swift value that can be read from a result column. `init?` returns `nil` on a type mismatch.
public protocol SQLDecodable {
  init?(sqlValue: SQLValue)
}

extension SQLValue: SQLBindable, SQLDecodable {
  public var sqlValue: SQLValue { self }
  public init?(sqlValue: SQLValue) { self = sqlValue }
}

extension Int64: SQLBindable, SQLDecodable {
  public var sqlValue: SQLValue { .integer(self) }
  public init?(sqlValue: SQLValue) {
    guard case .integer(let value) = sqlValue else { return nil }
    self = value
  }
}

extension Int: SQLBindable, SQLDecodable {
  public var sqlValue: SQLValue { .integer(Int64(self)) }
  public init?(sqlValue: SQLValue) {
    guard case .integer(let value) = sqlValue, let int = Int(exactly: value) else { return nil }
    self = int
  }
}

extension Bool: SQLBindable, SQLDecodable {
  public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
  public init?(sqlValue: SQLValue) {
    guard case .integer(let value) = sqlValue else { return nil }
    self = value != 0
  }
}

extension Double: SQLBindable, SQLDecodable {
  public var sqlValue: SQLValue { .real(self) }
  public init?(sqlValue: SQLValue) {
    switch sqlValue {
    case .real(let value): self = value
    case .integer(let value): self = Double(value)
    default: return nil
    }
  }
}

extension String: SQLBindable, SQLDecodable {
  public var sqlValue: SQLValue { .text(self) }
  public init?(sqlValue: SQLValue) {
    guard case .text(let value) = sqlValue else { return nil }
    self = value
  }
}

extension Data: SQLBindable, SQLDecodable {
  public var sqlValue: SQLValue { .blob(self) }
  public init?(sqlValue: SQLValue) {
    guard case .blob(let value) = sqlValue else { return nil }
    self = value
  }
}

/// Dates are stored as REAL seconds since 1970 (UTC), so they sort and compare in SQL.
extension Date: SQLBindable, SQLDecodable {
  public var sqlValue: SQLValue { .real(timeIntervalSince1970) }
  public init?(sqlValue: SQLValue) {
    guard let seconds = Double(sqlValue: sqlValue) else { return nil }
    self = Date(timeIntervalSince1970: seconds)
  }
}

extension Optional: SQLBindable where Wrapped: SQLBindable {
  public var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

extension Optional: SQLDecodable where Wrapped: SQLDecodable {
  public init?(sqlValue: SQLValue) {
    if case .null = sqlValue {
      self = .none
    } else if let value = Wrapped(sqlValue: sqlValue) {
      self = .some(value)
    } else {
      return nil
    }
  }
}

/// One result row: values by column name or position.
public struct Row: Sendable {
  /// Column names, in result order.
  public let columns: [String]
  /// Values, in result order.
  public let values: [SQLValue]

  /// The value of column `name` (`.null` if there is no such column).
  public subscript(name: String) -> SQLValue {
    guard let index = columns.firstIndex(of: name) else { return .null }
    return values[index]
  }

  /// The value of column `name` as `T` (use an `Optional` type for nullable columns).
  /// - Throws: ``SQLiteError`` (`SQLITE_MISMATCH`) when the column is missing or of another type.
  public func get<T: SQLDecodable>(_ name: String, as type: T.Type = T.self) throws -> T {
    guard let index = columns.firstIndex(of: name) else {
      throw SQLiteError(code: 20, message: "no column \(name) in result (\(columns.joined(separator: ", ")))")
    }
    guard let value = T(sqlValue: values[index]) else {
      throw SQLiteError(code: 20, message: "column \(name) holds \(values[index]), not \(T.self)")
    }
    return value
  }

  /// The value at `index` as `T`.
  public func get<T: SQLDecodable>(at index: Int, as type: T.Type = T.self) throws -> T {
    guard values.indices.contains(index), let value = T(sqlValue: values[index]) else {
      throw SQLiteError(code: 20, message: "column \(index) missing or not \(T.self)")
    }
    return value
  }
}
