import CommonTesting
import Foundation
import Testing

@testable import Backend
@testable import Common

@Suite struct AccountsTests {
  @Test func signUp_normalisesEmail_andRejectsDuplicates() throws {
    let backend = try TestBackend()
    let profile = try backend.services.accounts.signUp(
      email: "  Ada@Example.COM ", password: "correct horse battery", firstName: " Ada ", lastName: "Lovelace")
    #expect(profile == UserProfile(firstName: "Ada", lastName: "Lovelace", email: "ada@example.com"))
    #expect(
      errorCode {
        _ = try backend.services.accounts.signUp(
          email: "ADA@example.com", password: "another password", firstName: "A", lastName: "B")
      } == "email_taken")
  }

  @Test func signUp_badInput_namesTheProblem() throws {
    let accounts = try TestBackend().services.accounts
    #expect(
      errorCode { _ = try accounts.signUp(email: "ada", password: "0123456789", firstName: "A", lastName: "B") }
        == "invalid_email")
    #expect(
      errorCode { _ = try accounts.signUp(email: "a@b.co", password: "short", firstName: "A", lastName: "B") }
        == "password_too_short")
    #expect(
      errorCode { _ = try accounts.signUp(email: "a@b.co", password: "0123456789", firstName: " ", lastName: "B") }
        == "first_name_missing")
    #expect(
      errorCode { _ = try accounts.signUp(email: "a@b.co", password: "0123456789", firstName: "A", lastName: "") }
        == "last_name_missing")
  }

  @Test func passwordIsStoredOnlyAsScryptHash() throws {
    let backend = try TestBackend()
    try backend.signedIn(password: "plain text secret 42")
    let row = try #require(try backend.services.database.queryOne("SELECT password_hash FROM users"))
    let hash: String = try row.get("password_hash")
    #expect(hash.hasPrefix("scrypt$10$8$1$"))
    #expect(!hash.contains("plain text"))
    backend.services.database.close()
    for file in try FileManager.default.contentsOfDirectory(atPath: backend.directory.path) {
      let data = try Data(contentsOf: backend.directory.url.appendingPathComponent(file))
      #expect(data.range(of: Data("plain text secret 42".utf8)) == nil, "password in \(file)")
    }
  }

  @Test func signIn_failuresLookAlike_andBackOffExponentially() throws {
    let backend = try TestBackend()
    try backend.signedIn()
    let accounts = backend.services.accounts
    var messages = Set<String>()
    for _ in 0..<5 {
      do {
        _ = try accounts.signIn(email: "ada@example.com", password: "wrong password!")
      } catch let error as ServiceError {
        #expect(error.code == "invalid_credentials")
        messages.insert(error.message)
      }
    }
    do {
      _ = try accounts.signIn(email: "nobody@example.com", password: "wrong password!")
    } catch let error as ServiceError {
      #expect(error.code == "invalid_credentials")
      messages.insert(error.message)
    }
    #expect(messages.count == 1)
    #expect(backend.recordedSleeps == [0, 0.5, 1, 2, 4, 0])
    // A success resets the count.
    _ = try accounts.signIn(email: "ada@example.com", password: "correct horse battery")
    #expect(throws: ServiceError.self) { try accounts.signIn(email: "ada@example.com", password: "nope nope nope") }
    #expect(backend.recordedSleeps.last == 0)
  }

  @Test func sessions_expire_andSignOutEndsThem() throws {
    let backend = try TestBackend()
    let token = try backend.signedIn()
    let accounts = backend.services.accounts
    #expect(token.count == 64)
    #expect(try accounts.profile(token: token).email == "ada@example.com")
    // Stored only as a hash.
    let stored: Data = try #require(
      try backend.services.database.queryOne("SELECT token_hash FROM sessions")?.get("token_hash"))
    #expect(stored == Crypto.sha256(Data(token.utf8)))
    #expect(errorCode { _ = try accounts.profile(token: "deadbeef") } == "not_signed_in")
    backend.advance(31 * 24 * 3600)
    #expect(errorCode { _ = try accounts.profile(token: token) } == "session_expired")
    let fresh = try accounts.signIn(email: "ada@example.com", password: "correct horse battery").token
    try accounts.signOut(token: fresh)
    #expect(errorCode { _ = try accounts.session(token: fresh) } == "not_signed_in")
  }

  @Test func profileAndPreferences_persist_andAreChecked() throws {
    let backend = try TestBackend()
    let token = try backend.signedIn()
    let accounts = backend.services.accounts
    #expect(try accounts.preferences(token: token) == .standard)
    let saved = try accounts.updatePreferences(
      Preferences(currencyCode: "eur", language: "DE", appearance: .dark, homeAirport: "zrh"), token: token)
    #expect(saved == Preferences(currencyCode: "EUR", language: "de", appearance: .dark, homeAirport: "ZRH"))
    #expect(try backend.secondConnection().accounts.preferences(token: token) == saved)
    var bad = saved
    bad.currencyCode = "XYZ"
    #expect(errorCode { _ = try accounts.updatePreferences(bad, token: token) } == "unknown_currency")
    bad = saved
    bad.language = "klingon"
    #expect(errorCode { _ = try accounts.updatePreferences(bad, token: token) } == "unknown_language")
    bad = saved
    bad.homeAirport = "ZR1"
    #expect(errorCode { _ = try accounts.updatePreferences(bad, token: token) } == "invalid_home_airport")
    #expect(try accounts.preferences(token: token) == saved)

    let profile = try accounts.updateProfile(
      UserProfile(firstName: " Augusta ", lastName: "King", email: "ADA@example.com"), token: token)
    #expect(profile == UserProfile(firstName: "Augusta", lastName: "King", email: "ada@example.com"))
    #expect(
      errorCode {
        _ = try accounts.updateProfile(
          UserProfile(firstName: "", lastName: "K", email: "ada@example.com"), token: token)
      }
        == "first_name_missing")
    #expect(try accounts.profile(token: token) == profile)
  }
}
