import Common
import Foundation
import Reactive

/// The preferences screen: currency, language, appearance and home airport.
///
/// Inputs: ``viewAppeared()``, ``currencyChanged(_:)``, ``languageChanged(_:)``,
/// ``appearanceChanged(_:)``, ``homeAirportChanged(_:)`` (empty text clears it), ``saveTapped()``.
/// Outputs: ``preferences`` (as saved), ``errorMessage`` (the first invalid value, with what is
/// accepted; nothing is saved then), ``isSaving``, and ``saved`` (each saved value).
public final class PreferencesViewModel {
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
        receiveCompletion: { [weak self] in if case .failure(let error) = $0 { self?.errorMessage = error.message } },
        receiveValue: { [weak self] in self?.preferences = $0 }
      )
      .store(in: &requests)
  }

  public func currencyChanged(_ text: String) { draft.currency = text }
  public func languageChanged(_ text: String) { draft.language = text }
  public func appearanceChanged(_ text: String) { draft.appearance = text }
  public func homeAirportChanged(_ text: String) { draft.homeAirport = text }

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
      errorMessage = AccountClient.serviceError(error).message
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
          if case .failure(let error) = completion { self?.errorMessage = error.message }
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
