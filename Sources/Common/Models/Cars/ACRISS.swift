import Foundation

/// An ACRISS car classification code (also called SIPP): four upper-case letters, one per
/// position — category, type, transmission/drive, fuel/air conditioning (`CDAR` = Compact, 4-5
/// door, automatic, air conditioning).
///
/// Letters are decoded **by position** from the table in `Shared/cars/acriss.json` (our summary
/// of the ACRISS matrix, docs/standards.md §2): `C` is Compact in position 1, Manual AWD in
/// position 3 and Electric Plus in position 4. The code means "this class or similar".
public struct ACRISSCode: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
  /// The four letters, upper case.
  public let rawValue: String

  /// Parses a code (any case).
  /// - Throws: ``ServiceError`` `.invalidInput` / `invalid_acriss` when it is not four letters
  ///   that are valid in their positions.
  public init(_ text: String) throws {
    let upper = text.uppercased()
    let table = try ACRISSTable.standard()
    guard upper.count == 4, upper.allSatisfy({ $0.isASCII && $0.isLetter }) else {
      throw ServiceError.invalid(
        "invalid_acriss", "invalid ACRISS code \"\(text)\": expected four letters such as CDAR or ECMR")
    }
    for (index, letter) in upper.enumerated() where table.positions[index].letters[String(letter)] == nil {
      let position = table.positions[index]
      throw ServiceError.invalid(
        "invalid_acriss",
        "invalid ACRISS code \"\(text)\": \"\(letter)\" is not a \(position.name) letter (position \(index + 1)); "
          + "expected one of \(position.letters.keys.sorted().joined())")
    }
    rawValue = upper
  }

  /// The letter at `position` (0–3).
  public func letter(_ position: Int) -> String {
    String(rawValue[rawValue.index(rawValue.startIndex, offsetBy: position)])
  }

  /// The category letter (position 1): `C` of `CDAR`.
  public var categoryLetter: String { letter(0) }

  /// The category in words (`Compact`).
  public var category: String {
    (try? ACRISSTable.standard().positions[0].letters[categoryLetter]?.words) ?? categoryLetter
  }

  /// The whole code in words, decoded position by position:
  /// `"Compact, 4-5 door, automatic, air conditioning"`.
  public var words: String {
    guard let table = try? ACRISSTable.standard() else { return rawValue }
    return (0..<4).map { table.positions[$0].letters[letter($0)]?.words ?? letter($0) }.joined(separator: ", ")
  }

  public var description: String { rawValue }

  public static func < (lhs: ACRISSCode, rhs: ACRISSCode) -> Bool { lhs.rawValue < rhs.rawValue }

  public init(from decoder: Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    do {
      try self.init(text)
    } catch {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "invalid ACRISS code \(text)"))
    }
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}

/// A pattern over ACRISS codes: four characters, each a letter valid in its position or `*` for
/// any (`C***` = every compact, `*DAR` = any category of 4-5 door automatic with air).
public struct ACRISSPattern: Hashable, Sendable, CustomStringConvertible {
  /// The four characters, upper case, `*` for a wildcard.
  public let rawValue: String

  /// Parses a pattern (any case).
  /// - Throws: ``ServiceError`` `.invalidInput` / `invalid_class_pattern` naming the position
  ///   and the letters accepted there.
  public init(_ text: String) throws {
    let upper = text.uppercased()
    let accepted = "expected four characters, each an ACRISS letter for its position or * (e.g. C***, *DAR, ECMR)"
    guard upper.count == 4, upper.allSatisfy({ $0 == "*" || ($0.isASCII && $0.isLetter) }) else {
      throw ServiceError.invalid("invalid_class_pattern", "invalid --class \"\(text)\": \(accepted)")
    }
    let table = try ACRISSTable.standard()
    for (index, character) in upper.enumerated() where character != "*" {
      let position = table.positions[index]
      if position.letters[String(character)] == nil {
        throw ServiceError.invalid(
          "invalid_class_pattern",
          "invalid --class \"\(text)\": \"\(character)\" is not a \(position.name) letter (position \(index + 1)); "
            + "expected * or one of \(position.letters.keys.sorted().joined())")
      }
    }
    rawValue = upper
  }

  /// Whether `code` matches (every non-`*` position equal).
  public func matches(_ code: ACRISSCode) -> Bool {
    zip(rawValue, code.rawValue).allSatisfy { pattern, letter in pattern == "*" || pattern == letter }
  }

  public var description: String { rawValue }
}

/// The ACRISS letter table, by position, loaded once from `Shared/cars/acriss.json`.
public struct ACRISSTable: Sendable, Decodable {
  /// One letter: the standard's meaning, and the phrase used in sentences.
  public struct Letter: Sendable, Decodable, Hashable {
    public var meaning: String
    public var words: String
  }

  /// One of the four positions (`category`, `type`, `transmission`, `fuelAir`).
  public struct Position: Sendable, Decodable {
    public var name: String
    public var letters: [String: Letter]
  }

  /// Exactly four positions, in order.
  public var positions: [Position]

  /// The table of `Shared/cars/acriss.json`.
  /// - Throws: ``SharedResources/Failure`` when the file is missing or malformed.
  public static func standard() throws -> ACRISSTable { try loaded.get() }

  private static let loaded: Result<ACRISSTable, SharedResources.Failure> = {
    let path = "cars/acriss.json"
    do {
      let table = try JSONDecoder().decode(ACRISSTable.self, from: try SharedResources.data(path))
      guard table.positions.count == 4 else { return .failure(.malformed(path: path, reason: "expected 4 positions")) }
      return .success(table)
    } catch let failure as SharedResources.Failure {
      return .failure(failure)
    } catch {
      return .failure(.malformed(path: path, reason: ErrorText.reason(of: error)))
    }
  }()
}
