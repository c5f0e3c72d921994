import Foundation

/// The app's user-facing text in one language, from the string tables `Shared/strings/<code>.json`
/// (English `en`, German `de`).
///
/// Code never looks a string up by a literal key: it names a ``Key`` case or calls a typed
/// accessor (``welcome(firstName:lastName:)``), so a renamed or missing key is a compile error and
/// `CommonTests` checks that every table has every key with the same placeholders.
/// A key missing from a table falls back to English. Tables are read once per process.
public struct Strings: Sendable {
  /// A language with a string table.
  public enum Language: String, Hashable, Sendable, Codable, CaseIterable {
    case english = "en"
    case german = "de"

    /// The language of BCP 47 tag `tag` (`de`, `DE`, `de-AT`, `en_US`); nil when it has no table.
    public init?(tag: String) {
      let primary = tag.trimmingCharacters(in: .whitespaces).lowercased()
        .split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init)
      guard let primary, let language = Language(rawValue: primary) else { return nil }
      self = language
    }

    /// The Foundation locale for dates and money in this language.
    public var locale: Locale {
      switch self {
      case .english: Locale(identifier: "en_US")
      case .german: Locale(identifier: "de_DE")
      }
    }
  }

  /// Every string of the tables. The raw value is the key in the JSON files.
  public enum Key: String, Hashable, Sendable, CaseIterable {
    case accountTitle = "account.title"
    case accountWelcome = "account.welcome"
    case accountSignedInAs = "account.signedInAs"
    case accountSignedInUntil = "account.signedInUntil"
    case accountSignedOut = "account.signedOut"
    case accountNotSignedIn = "account.notSignedIn"
    case accountCreated = "account.created"
    case signInTitle = "signIn.title"
    case signInEmail = "signIn.email"
    case signInPassword = "signIn.password"
    case signInSubmit = "signIn.submit"
    case signUpTitle = "signUp.title"
    case signUpSubmit = "signUp.submit"
    case signUpPasswordPrompt = "signUp.passwordPrompt"
    case signUpPasswordRepeatPrompt = "signUp.passwordRepeatPrompt"
    case signInPasswordPrompt = "signIn.passwordPrompt"
    case profileTitle = "profile.title"
    case profileFirstName = "profile.firstName"
    case profileLastName = "profile.lastName"
    case profileEmail = "profile.email"
    case profileSave = "profile.save"
    case profileCancel = "profile.cancel"
    case profileSaved = "profile.saved"
    case profileMissingData = "profile.missingData"
    case profileFirstNameMissing = "profile.firstNameMissing"
    case profileLastNameMissing = "profile.lastNameMissing"
    case alertOk = "alert.ok"
    case preferencesTitle = "preferences.title"
    case preferencesCurrency = "preferences.currency"
    case preferencesLanguage = "preferences.language"
    case preferencesAppearance = "preferences.appearance"
    case preferencesHomeAirport = "preferences.homeAirport"
    case preferencesNone = "preferences.none"
    case preferencesSaved = "preferences.saved"
    case appearanceLight = "appearance.light"
    case appearanceDark = "appearance.dark"
    case appearanceSystem = "appearance.system"
    case languageEn = "language.en"
    case languageDe = "language.de"
    case cardsTitle = "cards.title"
    case cardsEmpty = "cards.empty"
    case cardsDefault = "cards.default"
    case cardsExpires = "cards.expires"
    case cardsAdded = "cards.added"
    case cardsRemoved = "cards.removed"
    case cardsDefaultSet = "cards.defaultSet"
    case cardsNumberPrompt = "cards.numberPrompt"
    case cardsExpiryPrompt = "cards.expiryPrompt"
    case cardsCvcPrompt = "cards.cvcPrompt"
    case tripsTitle = "trips.title"
    case tripsEmpty = "trips.empty"
    case tripsStatusConfirmed = "trips.status.confirmed"
    case tripsStatusCancelled = "trips.status.cancelled"
    case tripsKindFlight = "trips.kind.flight"
    case tripsKindHotel = "trips.kind.hotel"
    case tripsKindCar = "trips.kind.car"
    case tripsCancelled = "trips.cancelled"
    case tripsExported = "trips.exported"
    case tripsBooked = "trips.booked"
    case tripsLocator = "trips.locator"
    case tripsChargedTo = "trips.chargedTo"
    case tripsTotal = "trips.total"
    case tripsRefunded = "trips.refunded"
    case tripsWhen = "trips.when"
    case tripsFee = "trips.fee"
    case tripsRefund = "trips.refund"
    case tripsRefundTo = "trips.refundTo"
    case tripsCancelQuote = "trips.cancelQuote"
    case tripsCancelConfirm = "trips.cancelConfirm"
    case tripsCancelKept = "trips.cancelKept"
    case tripsCancelAppConfirm = "trips.cancelAppConfirm"
    case tripsRuleHotelFree = "trips.rule.hotelFree"
    case tripsRuleHotelFirstNight = "trips.rule.hotelFirstNight"
    case tripsRuleCar = "trips.rule.car"
    case tripsRuleFlightFull = "trips.rule.flightFull"
    case tripsRuleFlightHalf = "trips.rule.flightHalf"
    case tripsRuleFlightTaxes = "trips.rule.flightTaxes"
    case tripsRuleFull = "trips.rule.full"
  }

  /// The language of this table.
  public let language: Language
  private let table: [String: String]
  private let fallback: [String: String]

  /// The strings of `language`.
  public init(_ language: Language) {
    self.language = language
    table = Self.tables[language] ?? [:]
    fallback = Self.tables[.english] ?? [:]
  }

  /// English.
  public static let english = Strings(.english)

  /// The text of `key`; English when this table lacks it, and the key itself only when the
  /// tables could not be read at all (``loadingError`` then says why).
  public subscript(_ key: Key) -> String {
    table[key.rawValue] ?? fallback[key.rawValue] ?? key.rawValue
  }

  /// The text of `key` with each `{name}` replaced by `values[name]`.
  public func format(_ key: Key, _ values: [String: String]) -> String {
    var text = self[key]
    for (name, value) in values { text = text.replacingOccurrences(of: "{\(name)}", with: value) }
    return text
  }

  // MARK: Typed accessors of the strings with placeholders

  /// "Welcome, Ada Lovelace".
  public func welcome(firstName: String, lastName: String) -> String {
    format(.accountWelcome, ["first": firstName, "last": lastName])
  }

  /// The display name of `language` ("German" / "Deutsch").
  public func name(of language: Language) -> String {
    switch language {
    case .english: self[.languageEn]
    case .german: self[.languageDe]
    }
  }

  /// The display name of `appearance` ("Dark" / "Dunkel").
  public func name(of appearance: Appearance) -> String {
    switch appearance {
    case .light: self[.appearanceLight]
    case .dark: self[.appearanceDark]
    case .system: self[.appearanceSystem]
    }
  }

  // MARK: Loading

  /// Why a table could not be read, or nil when all were read.
  public static var loadingError: String? { loaded.error }

  /// The placeholders (`{name}`) of a text, for checks.
  public static func placeholders(in text: String) -> Set<String> {
    var names: Set<String> = []
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
      names.insert(String(rest[rest.index(after: open)..<close]))
      rest = rest[rest.index(after: close)...]
    }
    return names
  }

  /// The raw table of `language` as read from `Shared/strings/<code>.json`.
  /// - Throws: ``SharedResources/Failure`` when it is missing or not an object of strings.
  public static func readTable(_ language: Language) throws -> [String: String] {
    let path = "strings/\(language.rawValue).json"
    let data = try SharedResources.data(path)
    guard let table = try? JSONDecoder().decode([String: String].self, from: data) else {
      throw SharedResources.Failure.malformed(path: path, reason: "expected one JSON object of strings")
    }
    return table
  }

  private static let loaded: (tables: [Language: [String: String]], error: String?) = {
    var tables: [Language: [String: String]] = [:]
    var errors: [String] = []
    for language in Language.allCases {
      do {
        tables[language] = try readTable(language)
      } catch {
        errors.append(ErrorText.reason(of: error))
      }
    }
    return (tables, errors.isEmpty ? nil : errors.joined(separator: "; "))
  }()

  private static var tables: [Language: [String: String]] { loaded.tables }
}
