import Foundation

extension Database {
  /// Adds `amount` to the `booked` count of the row of `table` keyed by `key` (column names and
  /// values, the table's primary key in order), in one conditional statement: the row is created
  /// on first use, and grows only while `booked + amount` stays within `capacity`, checked on the
  /// row as it is when the statement runs (PostgreSQL locks the row and re-reads it in
  /// `READ COMMITTED`; SQLite has one writer). So concurrent buyers on any number of servers never
  /// take more units (seats, rooms) than there are.
  ///
  /// Table and column names come from the code, never from input.
  /// - Returns: whether the units were taken; `false` (nothing changed) when fewer than `amount`
  ///   are left, or when `amount` alone exceeds `capacity`.
  /// - Throws: the store's errors.
  func takeWithinCapacity(
    _ table: String, key: [(column: String, value: any SQLBindable)], amount: Int, capacity: Int
  ) throws -> Bool {
    guard amount <= capacity else { return false }
    let columns = key.map(\.column).joined(separator: ", ")
    let placeholders = Array(repeating: "?", count: key.count + 1).joined(separator: ", ")
    let taken = try query(
      """
      INSERT INTO \(table) (\(columns), booked) VALUES (\(placeholders))
      ON CONFLICT (\(columns)) DO UPDATE SET booked = \(table).booked + excluded.booked
      WHERE \(table).booked + excluded.booked <= ?
      RETURNING booked
      """, bindings: key.map(\.value) + [Int64(amount), Int64(capacity)])
    return !taken.isEmpty
  }
}
