import Foundation
import Synchronization

/// A user-facing sentence written in English at the call site and shown in the traveller's language.
///
///     L("No flights from \(origin) to \(destination) on \(date)")
///
/// The English text is the key: interpolations become `%@` (a literal `%` becomes `%%`), so the
/// line above looks up `"No flights from %@ to %@ on %@"` in the tables of the current language
/// (``Localization/current``), `Shared/strings/<code>/<Target>.json`, and puts the three values
/// back in. A translation may reorder them with `%1$@`, `%2$@`. A sentence a table lacks stays
/// English, so English needs no table and English output is exactly the literal in the code.
///
/// Interpolated values are not translated (names, codes, amounts already formatted); interpolate
/// a ``Localized`` value (or an `L(…)` result) for a translated part.
public struct Localized: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
  /// The English text with `%@` for every interpolation: the key of the tables.
  public let key: String
  /// The interpolated values, in order.
  public let arguments: [String]

  public init(key: String, arguments: [String] = []) {
    self.key = key
    self.arguments = arguments
  }

  public init(stringLiteral value: String) {
    self.init(key: value.replacingOccurrences(of: "%", with: "%%"))
  }

  public init(stringInterpolation: StringInterpolation) {
    self.init(key: stringInterpolation.key, arguments: stringInterpolation.arguments)
  }

  /// Builds the key and the arguments of an interpolated literal.
  public struct StringInterpolation: StringInterpolationProtocol {
    var key = ""
    var arguments: [String] = []

    public init(literalCapacity: Int, interpolationCount: Int) {
      key.reserveCapacity(literalCapacity + 2 * interpolationCount)
      arguments.reserveCapacity(interpolationCount)
    }

    public mutating func appendLiteral(_ literal: String) {
      key += literal.replacingOccurrences(of: "%", with: "%%")
    }

    public mutating func appendInterpolation(_ value: some CustomStringConvertible) {
      key += "%@"
      arguments.append(value.description)
    }

    /// A translated part, resolved in the language of the whole.
    public mutating func appendInterpolation(_ value: Localized) {
      key += "%@"
      arguments.append(value.text)
    }
  }

  /// One sentence from two literals (a long sentence over two lines): keys and arguments joined.
  public static func + (lhs: Localized, rhs: Localized) -> Localized {
    Localized(key: lhs.key + rhs.key, arguments: lhs.arguments + rhs.arguments)
  }

  /// The text in `language`: the table's translation of ``key`` (English when it has none) with
  /// ``arguments`` put in.
  public func text(in language: Strings.Language) -> String {
    Self.substitute(Localization.translation(of: key, in: language) ?? key, arguments)
  }

  /// The text in the current language (``Localization/current``).
  public var text: String { text(in: Localization.current) }

  public var description: String { text }

  /// `template` with `%@` taking the arguments in order, `%N$@` the N-th, and `%%` a `%`.
  static func substitute(_ template: String, _ arguments: [String]) -> String {
    guard template.contains("%") else { return template }
    var result = ""
    var next = 0
    var rest = Substring(template)
    while let percent = rest.firstIndex(of: "%") {
      result += rest[..<percent]
      rest = rest[rest.index(after: percent)...]
      if rest.hasPrefix("%") {
        result += "%"
        rest = rest.dropFirst()
      } else if rest.hasPrefix("@") {
        result += next < arguments.count ? arguments[next] : ""
        next += 1
        rest = rest.dropFirst()
      } else if let dollar = rest.firstIndex(of: "$"), let index = Int(rest[..<dollar]),
        rest[rest.index(after: dollar)...].hasPrefix("@")
      {
        result += (1...arguments.count).contains(index) ? arguments[index - 1] : ""
        rest = rest[rest.index(dollar, offsetBy: 2)...]
      } else {
        result += "%"
      }
    }
    return result + rest
  }
}

/// `text` in the current language (``Localization/current``); see ``Localized``.
public func L(_ text: Localized) -> String { text.text }

/// `english`, a whole sentence made elsewhere (a command's summary, an option's help), in the
/// current language: the sentence itself is the key. Not for text built by interpolation: that
/// goes through ``L(_:)`` where it is built, so that the key keeps its `%@`.
public func L(english text: String) -> String { Localized(stringLiteral: text).text }

/// Which language user-facing text is in, and the per-target tables of translations.
///
/// The current language is the innermost ``with(_:_:)`` scope of the running task (the command-line
/// tool runs each command in one, with the traveller's language; tests render in one), else the
/// process's language (``setProcessLanguage(_:)``: the interactive app sets it at launch and when
/// the traveller changes the preference, for work that runs from the main queue), else English.
public enum Localization {
  @TaskLocal static var scoped: Strings.Language?

  private static let process = Mutex<Strings.Language>(.english)

  /// The language of user-facing text now.
  public static var current: Strings.Language { scoped ?? process.withLock { $0 } }

  /// Runs `body` with text in `language`.
  public static func with<T>(_ language: Strings.Language, _ body: () throws -> T) rethrows -> T {
    try $scoped.withValue(language, operation: body)
  }

  /// Sets the language outside every ``with(_:_:)`` scope (the interactive app's).
  public static func setProcessLanguage(_ language: Strings.Language) {
    process.withLock { $0 = language }
  }

  /// The translation of `key` in `language`, or nil when its tables lack it (English has none).
  public static func translation(of key: String, in language: Strings.Language) -> String? {
    guard language != .english else { return nil }
    return tables.translations[language]?[key]
  }

  /// The dates of `language`'s conventions: `2 Dec 2026` / `2. Dez. 2026`.
  public static func mediumDate(
    _ date: Date, timeZone: TimeZone = TimeZone(identifier: "UTC")!, in language: Strings.Language = current
  )
    -> String
  {
    date.formatted(
      Date.FormatStyle(date: .abbreviated, time: .omitted, locale: language.locale, timeZone: timeZone))
  }

  // MARK: Tables

  /// One table: `Shared/strings/<code>/<name>.json`, an object from English key to translation.
  public struct Table: Sendable {
    public var language: Strings.Language
    /// The file name without `.json` (the target whose text it holds: `Booking`, `CommonUI` …).
    public var name: String
    public var entries: [String: String]
  }

  /// Every per-target table of every language but English, by language then name.
  /// - Throws: ``SharedResources/Failure`` when a file is not one JSON object of strings.
  public static func readTables() throws -> [Table] {
    var result: [Table] = []
    for language in Strings.Language.allCases where language != .english {
      let directory = try SharedResources.url("strings/\(language.rawValue)")
      let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
      for file in names.sorted() where file.hasSuffix(".json") {
        let path = "strings/\(language.rawValue)/\(file)"
        let data = try SharedResources.data(path)
        guard let entries = try? JSONDecoder().decode([String: String].self, from: data) else {
          throw SharedResources.Failure.malformed(path: path, reason: "expected one JSON object of strings")
        }
        result.append(Table(language: language, name: String(file.dropLast(".json".count)), entries: entries))
      }
    }
    return result
  }

  /// Why the tables could not be read, or nil.
  public static var loadingError: String? { tables.error }

  private static let tables: (translations: [Strings.Language: [String: String]], error: String?) = {
    do {
      var translations: [Strings.Language: [String: String]] = [:]
      for table in try readTables() {
        translations[table.language, default: [:]].merge(table.entries) { first, _ in first }
      }
      return (translations, nil)
    } catch {
      return ([:], ErrorText.reason(of: error))
    }
  }()
}
