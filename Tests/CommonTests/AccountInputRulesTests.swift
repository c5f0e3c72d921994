import Foundation
import Testing

@testable import Common

@Suite struct AccountInputRulesTests {
  @Test func names_refuseControlCharacters_andMoreThan100Characters() {
    #expect(AccountInputRules.nameProblem("Ada María-José O'Neil", field: "First Name") == nil)
    #expect(AccountInputRules.nameProblem("\u{1B}[31mRED\u{1B}[0m", field: "First Name")?.code == "invalid_name")
    #expect(AccountInputRules.nameProblem("Ada\tB", field: "Last Name")?.message.contains("Last Name") == true)
    #expect(AccountInputRules.nameProblem(String(repeating: "é", count: 100), field: "First Name") == nil)
    #expect(
      AccountInputRules.nameProblem(String(repeating: "a", count: 300), field: "First Name")?.code == "name_too_long")
  }

  @Test func password_needsTenCharacters_notAllWhitespace() throws {
    #expect(throws: ServiceError.self) { try AccountInputRules.checkPassword(String(repeating: " ", count: 10)) }
    #expect(throws: ServiceError.self) { try AccountInputRules.checkPassword("\t\n        ") }
    #expect(throws: ServiceError.self) { try AccountInputRules.checkPassword("short") }
    try AccountInputRules.checkPassword("correct horse")
    try AccountInputRules.checkPassword("  a       ")
  }

  @Test func cards_refuseOneRepeatedDigit_andExpiriesMoreThan20YearsAhead() throws {
    #expect(throws: ServiceError.self) { _ = try PaymentCardValidation.validateNumber("0000 0000 0000 0000") }
    #expect(throws: ServiceError.self) { _ = try PaymentCardValidation.validateNumber("5555555555555555") }
    #expect(try PaymentCardValidation.validateNumber("4242 4242 4242 4242").brand == .visa)
    var utc = Calendar(identifier: .gregorian)
    utc.timeZone = TimeZone(identifier: "UTC")!
    let today = Date(timeIntervalSince1970: 1_790_000_000)  // 2026-09-21
    #expect(throws: ServiceError.self) {
      _ = try PaymentCardValidation.validate(
        number: "4242424242424242", expiry: "12/99", cvc: "123", today: today, calendar: utc)
    }
    #expect(throws: ServiceError.self) {
      try CardExpiry(month: 10, year: 2046)!.checkNotTooFarAhead(today: today, calendar: utc)
    }
    try CardExpiry(month: 9, year: 2046)!.checkNotTooFarAhead(today: today, calendar: utc)
    _ = try PaymentCardValidation.validate(
      number: "4242424242424242", expiry: "09/46", cvc: "123", today: today, calendar: utc)
  }

  /// #14: a name with a right-to-left override was accepted.
  @Test func bidiControls_areRefused() {
    let problem = AccountInputRules.nameProblem("Ada\u{202E}ecalevoL", field: "Last name")
    #expect(problem?.code == "invalid_name")
    #expect(problem?.message.contains("U+202E") == true)
    #expect(AccountInputRules.nameProblem("Łukasz 李", field: "First name") == nil)
  }
}
