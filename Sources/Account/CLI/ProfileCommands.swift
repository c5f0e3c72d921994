import Common
import Foundation

/// `profile` and `preferences`.
enum ProfileCommands {
  static func commands(_ factory: @escaping AccountEnvironment.Factory) -> [Command] {
    [profile(factory), preferences(factory)]
  }

  static func profile(_ factory: @escaping AccountEnvironment.Factory) -> Command {
    Command(
      name: "profile",
      summary: L("Show your profile, or change your first or last name."),
      options: [
        .option("first-name", "NAME", help: L("New first name (not blank).")),
        .option("last-name", "NAME", help: L("New last name (not blank).")),
      ],
      examples: ["", "--first-name Ada --last-name Lovelace"],
      action: { invocation in
        let run = try AccountRun(invocation, factory)
        let token = try run.token()
        var profile = try run.environment.accounts.profile(token: token)
        let firstName = invocation.value("first-name")
        let lastName = invocation.value("last-name")
        if firstName != nil || lastName != nil {
          var draft = profile
          if let firstName { draft.firstName = firstName }
          if let lastName { draft.lastName = lastName }
          let checked: UserProfile
          do throws(UserProfileError) {
            checked = try ProfileRules.validated(draft)
          } catch {
            throw error.cliError
          }
          profile = try run.environment.accounts.updateProfile(checked, token: token)
        }
        let strings = run.strings(token: token)
        let shown = profile
        try run.context.emit(json: ProfileDocument(profile: shown)) {
          [
            strings.welcome(firstName: shown.firstName, lastName: shown.lastName),
            "\(strings[.profileFirstName]): \(shown.firstName)",
            "\(strings[.profileLastName]): \(shown.lastName)",
            "\(strings[.profileEmail]): \(shown.email)",
          ].joined(separator: "\n")
        }
      })
  }

  static func preferences(_ factory: @escaping AccountEnvironment.Factory) -> Command {
    Command(
      name: "preferences",
      summary: L("Show or set your currency, language, appearance and home airport."),
      options: [
        .option("currency", "CODE", help: "ISO 4217 code prices are shown in (USD, EUR, JPY, …)."),
        .option("language", "LANG", help: L("Language of the app: en (English) or de (German).")),
        .option("appearance", "MODE", help: L("light, dark or system.")),
        .option(
          "home-airport", "IATA", help: L("Your home airport, the default origin of flight searches; none clears it.")),
      ],
      examples: ["", "--currency EUR --language de --appearance dark --home-airport FRA"],
      action: { invocation in
        // Check every value first: all or nothing.
        let currency = try invocation.value("currency").map(PreferenceValidation.currency)
        let language = try invocation.value("language").map(PreferenceValidation.language)
        let appearance = try invocation.value("appearance").map(PreferenceValidation.appearance)
        let homeAirport: String?? = try invocation.value("home-airport").map { text in
          text.lowercased() == "none" ? String?.none : try PreferenceValidation.homeAirport(text)
        }
        let run = try AccountRun(invocation, factory)
        let token = try run.token()
        var preferences = try run.environment.accounts.preferences(token: token)
        if currency != nil || language != nil || appearance != nil || homeAirport != nil {
          if let currency { preferences.currencyCode = currency }
          if let language { preferences.language = language.rawValue }
          if let appearance { preferences.appearance = appearance }
          if let homeAirport { preferences.homeAirport = homeAirport }
          preferences = try run.environment.accounts.updatePreferences(preferences, token: token)
        }
        let strings = run.strings(token: token)
        let shown = preferences
        try run.context.emit(json: PreferencesDocument(shown)) {
          let languageName = Strings.Language(tag: shown.language).map { strings.name(of: $0) } ?? shown.language
          return [
            "\(strings[.preferencesCurrency]): \(shown.currencyCode)",
            "\(strings[.preferencesLanguage]): \(languageName)",
            "\(strings[.preferencesAppearance]): \(strings.name(of: shown.appearance))",
            "\(strings[.preferencesHomeAirport]): \(shown.homeAirport ?? strings[.preferencesNone])",
          ].joined(separator: "\n")
        }
      })
  }
}
