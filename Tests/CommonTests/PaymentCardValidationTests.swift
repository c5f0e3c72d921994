import Foundation
import Testing

@testable import Common

@Suite struct PaymentCardValidationTests {
  typealias Brand = PaymentCardValidation.Brand

  /// A calendar in a fixed zone, so "today" does not depend on the machine.
  static let berlin: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
    return calendar
  }()

  static func day(_ year: Int, _ month: Int, _ day: Int, hour: Int = 12) -> Date {
    berlin.date(from: DateComponents(year: year, month: month, day: day, hour: hour))!
  }

  @Test func luhn_standardsExamplePassesAndATypoFails() {
    #expect(PaymentCardValidation.passesLuhn("79927398713"))
    #expect(!PaymentCardValidation.passesLuhn("79927398710"))
    #expect(PaymentCardValidation.passesLuhn("4242424242424242"))
    #expect(!PaymentCardValidation.passesLuhn("4242424242424241"))
    #expect(!PaymentCardValidation.passesLuhn(""))
    #expect(!PaymentCardValidation.passesLuhn("4242x42424242424"))
  }

  @Test(arguments: [
    ("4242424242424242", Brand.visa), ("4111111111111111", .visa), ("5555555555554444", .mastercard),
    ("2223003122003222", .mastercard), ("378282246310005", .amex), ("6011111111111117", .discover),
    ("3566002020360505", .jcb), ("30569309025904", .diners), ("6200000000000005", .unionpay),
  ])
  func brand_ofEveryPublishedTestNumber(number: String, brand: Brand) throws {
    #expect(PaymentCardValidation.brand(of: number) == brand)
    #expect(try PaymentCardValidation.validateNumber(number).brand == brand)
  }

  @Test func brand_mostSpecificPrefixWins() {
    #expect(PaymentCardValidation.brand(of: "6221260000000000") == .discover)  // before UnionPay 62
    #expect(PaymentCardValidation.brand(of: "6229250000000000") == .discover)
    #expect(PaymentCardValidation.brand(of: "6229260000000000") == .unionpay)
    #expect(PaymentCardValidation.brand(of: "6500000000000000") == .discover)  // before Maestro 56–69
    #expect(PaymentCardValidation.brand(of: "6450000000000000") == .discover)
    #expect(PaymentCardValidation.brand(of: "6759000000000000") == .maestro)
    #expect(PaymentCardValidation.brand(of: "5018000000000000") == .maestro)
    #expect(PaymentCardValidation.brand(of: "2720990000000000") == .mastercard)
    #expect(PaymentCardValidation.brand(of: "2721000000000000") == .unknown)
    #expect(PaymentCardValidation.brand(of: "3095000000000000") == .diners)
    #expect(PaymentCardValidation.brand(of: "9999999999999995") == .unknown)
  }

  @Test func number_spacesAndDashesAreDropped() throws {
    #expect(try PaymentCardValidation.validateNumber("4242 4242-4242 4242").number == "4242424242424242")
  }

  @Test func number_failingLuhnIsRejectedWithTheContractMessage() {
    #expect {
      try PaymentCardValidation.validateNumber("4242424242424241")
    } throws: { error in
      let error = error as? ServiceError
      return error?.code == "invalid_card_number" && error?.kind == .invalidInput
        && error?.message.hasPrefix("card number is not valid (its last digit does not match the others)") == true
    }
  }

  @Test func number_wrongLengthForTheBrandNamesTheLengths() {
    #expect {
      try PaymentCardValidation.validateNumber("424242424242424")
    } throws: { error in
      (error as? ServiceError)?.message == "card number has 15 digits: Visa numbers have 13, 16 or 19 digits"
    }
    #expect {
      try PaymentCardValidation.validateNumber("42424242424")
    } throws: { error in
      (error as? ServiceError)?.message == "card number has 11 digits: expected 12 to 19 digits"
    }
    #expect {
      try PaymentCardValidation.validateNumber("4242abcd42424242")
    } throws: { error in
      (error as? ServiceError)?.code == "invalid_card_number"
    }
  }

  @Test func number_unknownBrandIsAcceptedWhenLuhnPasses() throws {
    #expect(try PaymentCardValidation.validateNumber("9999999999999995").brand == .unknown)
  }

  @Test func expiry_parsesTwoAndFourDigitYears() throws {
    #expect(try CardExpiry(parsing: "09/27") == CardExpiry(month: 9, year: 2027))
    #expect(try CardExpiry(parsing: "9/2027") == CardExpiry(month: 9, year: 2027))
    #expect(try CardExpiry(parsing: " 12/30 ").description == "12/30")
  }

  @Test(arguments: ["13/27", "00/27", "0927", "09/7", "09/277", "ab/cd", "", "09-27", "09/27/01"])
  func expiry_malformedIsRejected(text: String) {
    #expect {
      try CardExpiry(parsing: text)
    } throws: { error in
      (error as? ServiceError)?.code == "invalid_expiry"
        && (error as? ServiceError)?.message.contains("expected MM/YY like 09/27") == true
    }
  }

  @Test func expiry_validThroughTheLastDayOfItsMonth() throws {
    let expiry = try CardExpiry(parsing: "09/27")
    #expect(expiry.isValid(on: Self.day(2027, 9, 30, hour: 23), calendar: Self.berlin))
    #expect(!expiry.isValid(on: Self.day(2027, 10, 1, hour: 0), calendar: Self.berlin))
    #expect(expiry.isValid(on: Self.day(2027, 9, 1), calendar: Self.berlin))
    #expect(expiry.isValid(on: Self.day(2026, 12, 31), calendar: Self.berlin))
  }

  @Test func expiry_comparedAsALocalDate() throws {
    // 2027-09-30T23:30 UTC is already 1 October in Berlin: expired there, still valid in UTC.
    let instant = ISO8601DateFormatter().date(from: "2027-09-30T23:30:00Z")!
    var utc = Calendar(identifier: .gregorian)
    utc.timeZone = TimeZone(identifier: "UTC")!
    let expiry = try CardExpiry(parsing: "09/27")
    #expect(expiry.isValid(on: instant, calendar: utc))
    #expect(!expiry.isValid(on: instant, calendar: Self.berlin))
  }

  @Test func expired_messageNamesTheExpiry() {
    #expect {
      try PaymentCardValidation.validate(
        number: "4242424242424242", expiry: "09/24", cvc: "123", today: Self.day(2026, 11, 29),
        calendar: Self.berlin)
    } throws: { error in
      let error = error as? ServiceError
      return error?.code == "card_expired" && error?.message.hasPrefix("card expired 09/24") == true
    }
  }

  @Test func cvc_lengthFollowsTheBrand() throws {
    try PaymentCardValidation.validateCVC("123", brand: .visa)
    try PaymentCardValidation.validateCVC("1234", brand: .amex)
    try PaymentCardValidation.validateCVC("1234", brand: .unknown)
    #expect {
      try PaymentCardValidation.validateCVC("12", brand: .visa)
    } throws: { error in
      (error as? ServiceError)?.message == "CVC must be 3 digits for Visa"
    }
    #expect {
      try PaymentCardValidation.validateCVC("123", brand: .amex)
    } throws: { error in
      (error as? ServiceError)?.message == "CVC must be 4 digits for American Express"
    }
    #expect {
      try PaymentCardValidation.validateCVC("12a", brand: .mastercard)
    } throws: { error in
      (error as? ServiceError)?.code == "invalid_cvc"
    }
  }

  @Test func validate_keepsNoSecretInItsDescription() throws {
    let card = try PaymentCardValidation.validate(
      number: "4242 4242 4242 4242", expiry: "12/30", cvc: "123", today: Self.day(2026, 11, 29),
      calendar: Self.berlin)
    #expect(card.masked == "Visa •••• 4242")
    #expect(card.description == "Visa •••• 4242 12/30")
    #expect(!String(describing: card).contains("4242424242424242"))
    #expect(card.newPaymentCard.expiryYear == 2030)
    #expect(card.newPaymentCard.number == "4242424242424242")
  }

  @Test func storedBrandNameRoundTrips() {
    for brand in Brand.allCases { #expect(Brand(storedName: brand.rawValue) == brand) }
    #expect(Brand(storedName: "VISA") == .visa)
    #expect(Brand(storedName: "whatever") == .unknown)
  }

  /// #14 Forms: the number is shown in the card's groups while typed, masked but the last four after.
  @Test func grouped_andMasked_byBrand() {
    #expect(PaymentCardValidation.grouped("4242424242424242") == "4242 4242 4242 4242")
    #expect(PaymentCardValidation.grouped("42424242424") == "4242 4242 424")
    #expect(PaymentCardValidation.grouped("378282246310005") == "3782 822463 10005")  // Amex 4-6-5
    #expect(PaymentCardValidation.grouped("36227206271667") == "3622 720627 1667")  // Diners 4-6-4
    #expect(PaymentCardValidation.grouped("4242424242424242424") == "4242 4242 4242 4242 424")
    #expect(PaymentCardValidation.grouped("") == "")
    #expect(PaymentCardValidation.maskedNumber("4242424242424242") == "•••• •••• •••• 4242")
    #expect(PaymentCardValidation.maskedNumber("378282246310005") == "•••• •••••• •0005")
  }
}
