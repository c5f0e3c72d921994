import Foundation

/// A reader of the CSV files in `Shared/` (RFC 4180: comma-separated, `"` quoting with `""`
/// escapes, a header row, `\n` or `\r\n` line ends). Every field is kept as a string, so codes
/// like `NA` (Namibia) and `008` stay as written.
public struct CSVTable: Sendable {
  /// The column names of the header row.
  public let header: [String]
  /// The data rows, each with as many fields as the header (short rows are padded with "").
  public let rows: [[String]]

  /// Parses `text`. Never fails: a missing header gives an empty table.
  public init(text: String) {
    var records: [[String]] = []
    var record: [String] = []
    var field = ""
    var inQuotes = false
    var iterator = text.unicodeScalars.makeIterator()
    var pending: Unicode.Scalar? = iterator.next()
    while let scalar = pending {
      pending = iterator.next()
      if inQuotes {
        if scalar == "\"" {
          if pending == "\"" {
            field.unicodeScalars.append("\"")
            pending = iterator.next()
          } else {
            inQuotes = false
          }
        } else {
          field.unicodeScalars.append(scalar)
        }
        continue
      }
      switch scalar {
      case "\"": inQuotes = true
      case ",":
        record.append(field)
        field = ""
      case "\r": continue
      case "\n":
        record.append(field)
        records.append(record)
        record = []
        field = ""
      default: field.unicodeScalars.append(scalar)
      }
    }
    if !field.isEmpty || !record.isEmpty {
      record.append(field)
      records.append(record)
    }
    header = records.first ?? []
    let width = header.count
    rows = records.dropFirst().map { row in
      row.count >= width ? row : row + Array(repeating: "", count: width - row.count)
    }
  }

  /// The index of column `name`.
  /// - Throws: ``SharedResources/Failure/malformed(path:reason:)`` naming the missing column.
  public func column(_ name: String, in path: String) throws -> Int {
    guard let index = header.firstIndex(of: name) else {
      throw SharedResources.Failure.malformed(path: path, reason: "no column \"\(name)\"")
    }
    return index
  }

  /// Reads and parses `relativePath` from `Shared/`.
  public static func shared(_ relativePath: String) throws -> CSVTable {
    CSVTable(text: String(decoding: try SharedResources.data(relativePath), as: UTF8.self))
  }
}
