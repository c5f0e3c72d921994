import CLibPQ
import Foundation

/// One libpq connection with its prepared statements. Not thread-safe: the pool
/// (``PostgresStore``) gives it to one thread at a time.
final class PostgresConnection: @unchecked Sendable {
  private let handle: OpaquePointer
  /// Prepared statement name by translated SQL (named `t1`, `t2`, … on this connection).
  private var prepared: [String: String] = [:]
  /// What to call the database in errors (no password).
  let name: String

  /// Connects with `conninfo` (a `postgresql://` URL, libpq's parameters) and sets the session's
  /// `statement_timeout` (milliseconds; 0: none) and a 60 s `idle_in_transaction_session_timeout`,
  /// so a stuck client never holds row locks for long.
  /// - Throws: ``PostgresError`` `08006` with libpq's message when the server cannot be reached
  ///   or refuses the connection (authentication, no such database, TLS required …).
  init(conninfo: String, name: String, statementTimeoutMilliseconds: Int, connectTimeoutSeconds: Int) throws {
    self.name = name
    // Keywords before `dbname` are defaults the URL (expanded from `dbname`) may override.
    let keywords = ["connect_timeout", "application_name", "dbname"]
    let values = ["\(connectTimeoutSeconds)", "travel-server", conninfo]
    let connection = Self.withCStrings(keywords) { keywordPointers in
      Self.withCStrings(values) { valuePointers in PQconnectdbParams(keywordPointers, valuePointers, 1) }
    }
    guard let connection else {
      throw PostgresError(sqlState: "08006", message: "out of memory", database: name)
    }
    guard PQstatus(connection) == CONNECTION_OK else {
      let message = Self.clean(PQerrorMessage(connection))
      PQfinish(connection)
      throw PostgresError(sqlState: "08006", message: message, database: name)
    }
    handle = connection
    do {
      try execute(
        "SET statement_timeout = \(max(0, statementTimeoutMilliseconds)); "
          + "SET idle_in_transaction_session_timeout = 60000; SET client_min_messages = warning")
    } catch {
      PQfinish(connection)
      throw error
    }
  }

  deinit { PQfinish(handle) }

  /// Whether libpq still considers the connection usable (it learns of a lost server only when a
  /// call fails).
  var isUsable: Bool { PQstatus(handle) == CONNECTION_OK }

  /// Whether a transaction is open or failed on this connection.
  var isInTransaction: Bool {
    let status = PQtransactionStatus(handle)
    return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
  }

  /// The connection's socket (to wait on with `poll` while listening).
  var socket: Int32 { PQsocket(handle) }

  /// For a connection that `LISTEN`s: reads what the server sent and drops the notifications it
  /// holds; returns how many there were, or nil when the connection is lost.
  func drainNotifications() -> Int? {
    guard PQconsumeInput(handle) == 1, isUsable else { return nil }
    var count = 0
    while let notification = PQnotifies(handle) {
      count += 1
      PQfreemem(notification)
    }
    return count
  }

  /// The server's `server_version_num` (150020 for 15.2).
  var serverVersion: Int { Int(PQserverVersion(handle)) }

  /// Runs a script without parameters (one or more statements; the simple query protocol).
  func execute(_ sql: String) throws {
    let result = PQexec(handle, sql)
    defer { PQclear(result) }
    try check(result, sql: sql)
  }

  /// Runs one translated statement with `parameters` (prepared once per connection) and returns
  /// its rows and the number of rows it changed.
  func run(_ sql: String, parameters: [SQLValue]) throws -> (rows: [Row], changed: Int) {
    let statement = try statementName(sql, count: parameters.count)
    var strings: [UnsafeMutablePointer<CChar>?] = []
    var lengths: [Int32] = []
    var formats: [Int32] = []
    strings.reserveCapacity(parameters.count)
    defer { for pointer in strings { free(pointer) } }
    for value in parameters {
      switch value {
      case .null:
        strings.append(nil)
        lengths.append(0)
        formats.append(0)
      case .integer(let int):
        strings.append(strdup(String(int)))
        lengths.append(0)
        formats.append(0)
      case .real(let double):
        strings.append(strdup(Self.text(double)))
        lengths.append(0)
        formats.append(0)
      case .text(let text):
        strings.append(strdup(text))
        lengths.append(0)
        formats.append(0)
      case .blob(let data):
        let pointer = malloc(max(1, data.count))!.assumingMemoryBound(to: CChar.self)
        data.withUnsafeBytes { bytes in
          if let base = bytes.baseAddress { memcpy(pointer, base, data.count) }
        }
        strings.append(pointer)
        lengths.append(Int32(data.count))
        formats.append(1)
      }
    }
    let result = strings.withUnsafeBufferPointer { values in
      values.withMemoryRebound(to: UnsafePointer<CChar>?.self) { values in
        PQexecPrepared(handle, statement, Int32(parameters.count), values.baseAddress, lengths, formats, 0)
      }
    }
    defer { PQclear(result) }
    try check(result, sql: sql)
    let changed = Int(String(cString: PQcmdTuples(result))) ?? 0
    return (try rows(result), changed)
  }

  private func statementName(_ sql: String, count: Int) throws -> String {
    if let name = prepared[sql] { return name }
    let name = "t\(prepared.count + 1)"
    let result = PQprepare(handle, name, sql, 0, nil)
    defer { PQclear(result) }
    try check(result, sql: sql)
    prepared[sql] = name
    return name
  }

  /// Throws the result's error, if it is one.
  private func check(_ result: OpaquePointer?, sql: String) throws {
    guard let result else {
      throw PostgresError(sqlState: "08006", message: Self.clean(PQerrorMessage(handle)), sql: sql, database: name)
    }
    switch PQresultStatus(result) {
    case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY: return
    default: break
    }
    func field(_ code: Character) -> String? {
      guard let value = PQresultErrorField(result, Int32(code.asciiValue!)) else { return nil }
      return String(cString: value)
    }
    // Without an SQLSTATE the failure is libpq's own: the connection broke.
    let state = field("C") ?? "08006"
    let message = field("M") ?? Self.clean(PQresultErrorMessage(result))
    throw PostgresError(
      sqlState: isUsable ? state : (state.hasPrefix("08") ? state : "08006"), message: message, detail: field("D"),
      constraint: field("n"), sql: sql, database: name)
  }

  private func rows(_ result: OpaquePointer?) throws -> [Row] {
    let count = Int(PQntuples(result))
    guard count > 0 else { return [] }
    let fields = Int32(PQnfields(result))
    let columns = (0..<fields).map { String(cString: PQfname(result, $0)) }
    let types = (0..<fields).map { PQftype(result, $0) }
    var rows: [Row] = []
    rows.reserveCapacity(count)
    for row in 0..<Int32(count) {
      var values: [SQLValue] = []
      values.reserveCapacity(Int(fields))
      for column in 0..<fields {
        if PQgetisnull(result, row, column) != 0 {
          values.append(.null)
          continue
        }
        let text = String(cString: PQgetvalue(result, row, column))
        values.append(Self.value(text, type: types[Int(column)]))
      }
      rows.append(Row(columns: columns, values: values))
    }
    return rows
  }

  /// A result column (text format) as the store's value: integers and booleans (1/0) as
  /// `.integer`, floating point as `.real`, `numeric` as `.integer` when whole (PostgreSQL's
  /// `sum` of `bigint`), `bytea` as `.blob`, everything else as `.text`.
  static func value(_ text: String, type: Oid) -> SQLValue {
    switch type {
    case 16: return .integer(text == "t" ? 1 : 0)
    case 20, 21, 23, 26: return Int64(text).map(SQLValue.integer) ?? .text(text)
    case 700, 701:
      switch text {
      case "Infinity": return .real(.infinity)
      case "-Infinity": return .real(-.infinity)
      default: return Double(text).map(SQLValue.real) ?? .text(text)
      }
    case 1700: return Int64(text).map(SQLValue.integer) ?? Double(text).map(SQLValue.real) ?? .text(text)
    case 17: return .blob(hexBytes(text))
    default: return .text(text)
    }
  }

  /// `bytea`'s hex output (`\x0a1b…`) as bytes.
  static func hexBytes(_ text: String) -> Data {
    var bytes = Data()
    let digits = Array(text.utf8.dropFirst(2))
    bytes.reserveCapacity(digits.count / 2)
    func nibble(_ c: UInt8) -> UInt8 {
      switch c {
      case 48...57: c - 48
      case 97...102: c - 87
      case 65...70: c - 55
      default: 0
      }
    }
    var index = 0
    while index + 1 < digits.count {
      bytes.append(nibble(digits[index]) << 4 | nibble(digits[index + 1]))
      index += 2
    }
    return bytes
  }

  /// A double as PostgreSQL's `float8` input reads it back exactly.
  static func text(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value > 0 ? "Infinity" : "-Infinity" }
    return "\(value)"
  }

  private static func clean(_ message: UnsafePointer<CChar>?) -> String {
    guard let message else { return "unknown error" }
    return String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
      .replacingOccurrences(of: "\n", with: "; ")
  }

  private static func withCStrings<T>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
    let pointers = strings.map { strdup($0) }
    defer { for pointer in pointers { free(pointer) } }
    return body(pointers.map { UnsafePointer($0) } + [nil])
  }
}
