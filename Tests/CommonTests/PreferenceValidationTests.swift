import Foundation
import Testing

@testable import Common

@Suite struct PreferenceValidationTests {
  @Test func currency_isAnISO4217CodeInAnyCase() throws {
    #expect(try PreferenceValidation.currency("eur") == "EUR")
    #expect {
      try PreferenceValidation.currency("XYZ")
    } throws: { error in
      let error = error as? ServiceError
      return error?.code == "unknown_currency" && error?.kind == .invalidInput
        && error?.message == "unknown currency \"XYZ\": expected an ISO 4217 code like USD, EUR or JPY"
    }
  }

  @Test func currency_needsAReferenceRate() {
    #expect {
      try PreferenceValidation.currency("kwd")
    } throws: { error in
      let error = error as? ServiceError
      return error?.code == "unsupported_currency" && error?.kind == .invalidInput
        && error?.message.hasPrefix(
          "prices cannot be shown in KWD (no exchange rate: neither an ECB reference rate nor a fixed peg): expected one of"
        ) == true
        && error?.message.contains("USD") == true
    }
  }

  @Test func language_isEnglishOrGerman() throws {
    #expect(try PreferenceValidation.language("DE") == .german)
    #expect {
      try PreferenceValidation.language("klingon")
    } throws: { error in
      (error as? ServiceError)?.message == "unknown language \"klingon\": expected one of en (English), de (German)"
    }
  }

  @Test func appearance_isLightDarkOrSystem() throws {
    #expect(try PreferenceValidation.appearance("Dark") == .dark)
    #expect {
      try PreferenceValidation.appearance("neon")
    } throws: { error in
      (error as? ServiceError)?.message == "invalid appearance \"neon\": expected one of light, dark, system"
    }
  }

  @Test func airportCode_shape() throws {
    #expect(try PreferenceValidation.airportCodeShape("sfo") == "SFO")
    #expect(throws: ServiceError.self) { try PreferenceValidation.airportCodeShape("SF0") }
    #expect(throws: ServiceError.self) { try PreferenceValidation.airportCodeShape("SFOX") }
  }

  @Test func homeAirport_mustExistInTheReferenceData() throws {
    #expect(try PreferenceValidation.homeAirport("fra") == "FRA")
    #expect {
      try PreferenceValidation.homeAirport("XQX")
    } throws: { error in
      let error = error as? ServiceError
      return error?.code == "invalid_home_airport"
        && error?.message == "unknown home airport \"XQX\": expected the IATA code of an airport like SFO or FRA"
    }
  }
}
