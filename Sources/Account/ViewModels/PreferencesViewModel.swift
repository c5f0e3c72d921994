import Common
import Foundation
import Reactive

/// The preferences screen: currency, language, appearance and home airport.
///
/// Inputs: ``viewAppeared()``, ``currencyChanged(_:)``, ``languageChanged(_:)``,
/// ``appearanceChanged(_:)``, ``homeAirportChanged(_:)`` (empty text clears it),
/// ``editingEnded(_:)`` (the traveller left a field), ``saveTapped()``.
/// Outputs: ``preferences`` (as saved), ``problems`` (each text field whose value is invalid, with
/// what is accepted, checked as it is typed: a currency or airport code as soon as it has three
/// letters or its field is left, a language when its field is left), ``errorMessage`` (the first
/// invalid value at Save, or the service's failure; nothing is saved then), ``isSaving``, and
/// ``saved`` (each saved value).
public final class PreferencesViewModel {
  /// A text field of the form.
  public enum Field: Hashable, Sendable, CaseIterable {
    case currency, language, homeAirport
  }

  private let client: AccountClient
  private let token: String
  private let savedSubject = PassthroughSubject<Preferences, Never>()
  private var requests = Set<AnyCancellable>()
  private var draft = Draft()

  private struct Draft {
    var currency: String?
    var language: String?
    var appearance: String?
    var homeAirport: String?
  }

  @Published public private(set) var preferences: Preferences?
  /// What is wrong with each field as typed (see the type's documentation).
  @Published public private(set) var problems: [Field: String] = [:]
  @Published public private(set) var errorMessage: String?
  @Published public private(set) var isSaving = false
  public let saved: AnyPublisher<Preferences, Never>

  public init(client: AccountClient, token: String) {
    self.client = client
    self.token = token
    saved = savedSubject.eraseToAnyPublisher()
  }

  public func viewAppeared() {
    let token = token
    client.perform { try $0.accounts.preferences(token: token) }
      .sink(
        receiveCompletion: { [weak self] in
          if case .failure(let error) = $0 { self?.errorMessage = ScreenText.message(for: error) }
        },
        receiveValue: { [weak self] in self?.preferences = $0 }
      )
      .store(in: &requests)
  }

  public func currencyChanged(_ text: String) {
    draft.currency = text
    check(.currency, complete: text.trimmingCharacters(in: .whitespaces).count >= 3)
  }

  public func languageChanged(_ text: String) {
    draft.language = text
    if problems[.language] != nil { check(.language, complete: true) }
  }

  public func appearanceChanged(_ text: String) { draft.appearance = text }

  public func homeAirportChanged(_ text: String) {
    draft.homeAirport = text
    check(.homeAirport, complete: text.trimmingCharacters(in: .whitespaces).count >= 3)
  }

  /// The traveller left `field`: its value is judged as it is.
  public func editingEnded(_ field: Field) { check(field, complete: true) }

  /// Judges `field` as typed: a problem when it is invalid and `complete` (long enough to judge),
  /// none when it is valid; an incomplete value keeps what was said.
  private func check(_ field: Field, complete: Bool) {
    let problem: String?
    do {
      switch field {
      case .currency: _ = try draft.currency.map(PreferenceValidation.currency)
      case .language: _ = try draft.language.map(PreferenceValidation.language)
      case .homeAirport:
        let trimmed = (draft.homeAirport ?? "").trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty { _ = try PreferenceValidation.homeAirport(trimmed) }
      }
      problem = nil
    } catch {
      guard complete else { return }
      problem = ScreenText.message(for: AccountClient.serviceError(error))
    }
    if problems[field] != problem { problems[field] = problem }
  }

  /// Checks every changed value against the reference data, then saves all or nothing.
  public func saveTapped() {
    guard var updated = preferences, !isSaving else { return }
    do {
      if let currency = draft.currency { updated.currencyCode = try PreferenceValidation.currency(currency) }
      if let language = draft.language { updated.language = try PreferenceValidation.language(language).rawValue }
      if let appearance = draft.appearance { updated.appearance = try PreferenceValidation.appearance(appearance) }
      if let airport = draft.homeAirport {
        let trimmed = airport.trimmingCharacters(in: .whitespaces)
        updated.homeAirport = trimmed.isEmpty ? nil : try PreferenceValidation.homeAirport(trimmed)
      }
    } catch {
      errorMessage = ScreenText.message(for: AccountClient.serviceError(error))
      return
    }
    errorMessage = nil
    isSaving = true
    let token = token
    let candidate = updated
    client.perform { try $0.accounts.updatePreferences(candidate, token: token) }
      .sink(
        receiveCompletion: { [weak self] completion in
          self?.isSaving = false
          if case .failure(let error) = completion { self?.errorMessage = ScreenText.message(for: error) }
        },
        receiveValue: { [weak self] saved in
          self?.draft = Draft()
          self?.preferences = saved
          self?.savedSubject.send(saved)
        }
      )
      .store(in: &requests)
  }
}
