import Foundation

/// A payment card as it is typed into a form — number, expiry `MM/YY`, CVC — judged field by field
/// while it is typed, the same way in every form that takes a card (the Account tab's cards, the
/// checkout's "add a card" sheet).
///
/// A field is judged once it can be: the number when it has as many digits as its brand takes
/// (at 16 when the brand issues 16 digits, so a 16-digit Visa is not judged at 13), the expiry at
/// five characters, the CVC once it had a problem; any field when it is left (``ended(_:today:calendar:)``).
/// ``problems`` holds what is wrong with each field in the screen's words (``ScreenText``): "Card
/// number is not valid (its last digit does not match the others): …", "Card expired 09/24",
/// "CVC must be 3 digits for Visa". Rules: ``PaymentCardValidation`` (standards.md §4).
public struct PaymentCardEntry: Hashable, Sendable {
  /// A field of the card form, in the form's order.
  public enum Field: Hashable, Sendable, CaseIterable {
    case number, expiry, cvc
  }

  /// The text of each field as typed so far.
  public private(set) var typed: [Field: String] = [:]
  /// What is wrong with each field, once it can be judged (see the type's documentation).
  public private(set) var problems: [Field: String] = [:]

  public init() {}

  /// `field` now reads `text`: judged when it is complete, and the CVC again when the number
  /// (its brand) changed under a CVC that had a problem.
  public mutating func changed(_ field: Field, to text: String, today: Date, calendar: Calendar) {
    typed[field] = text
    switch field {
    case .number:
      let digits = text.filter(\.isNumber)
      let lengths = PaymentCardValidation.brand(of: digits).lengths
      let complete = digits.count >= (lengths.max() ?? 19) || digits.count >= 16 && lengths.contains(digits.count)
      check(.number, complete: complete, today: today, calendar: calendar)
      if typed[.cvc] != nil, problems[.cvc] != nil { check(.cvc, complete: true, today: today, calendar: calendar) }
    case .expiry:
      check(.expiry, complete: text.trimmingCharacters(in: .whitespaces).count >= 5, today: today, calendar: calendar)
    case .cvc:
      if problems[.cvc] != nil { check(.cvc, complete: true, today: today, calendar: calendar) }
    }
  }

  /// The traveller left `field`: its value is judged as it is (an empty one is not).
  public mutating func ended(_ field: Field, today: Date, calendar: Calendar) {
    guard let text = typed[field], !text.isEmpty else { return }
    check(field, complete: true, today: today, calendar: calendar)
  }

  /// Every field judged as it is (the form was submitted): the card ready to send, or nil when a
  /// field has a problem (then ``firstProblem`` says what to fix first).
  public mutating func submitted(
    number: String, expiry: String, cvc: String, today: Date, calendar: Calendar
  ) -> PaymentCardValidation.ValidatedCard? {
    typed = [.number: number, .expiry: expiry, .cvc: cvc]
    for field in Field.allCases { check(field, complete: true, today: today, calendar: calendar) }
    guard firstProblem == nil else { return nil }
    return try? PaymentCardValidation.validate(
      number: number, expiry: expiry, cvc: cvc, today: today, calendar: calendar)
  }

  /// Forgets everything typed and said (the form was opened or closed).
  public mutating func reset() {
    typed = [:]
    problems = [:]
  }

  /// The first thing to fix, in the form's order, with how many more there are: `Card expired
  /// 09/24 (2 more problems: see each field)`; nil when no field has a problem.
  public var firstProblem: String? {
    let found = Field.allCases.compactMap { problems[$0] }
    guard let first = found.first else { return nil }
    let more = found.count - 1
    return more == 0 ? first : "\(first) (\(more) more problem\(more == 1 ? "" : "s"): see each field)"
  }

  /// Judges `field`: a problem when invalid and `complete`; none when valid; an incomplete invalid
  /// value keeps what was said.
  private mutating func check(_ field: Field, complete: Bool, today: Date, calendar: Calendar) {
    let problem: String?
    do {
      switch field {
      case .number: _ = try PaymentCardValidation.validateNumber(typed[.number] ?? "")
      case .expiry:
        let expiry = try CardExpiry(parsing: typed[.expiry] ?? "")
        try expiry.checkNotExpired(today: today, calendar: calendar)
        try expiry.checkNotTooFarAhead(today: today, calendar: calendar)
      case .cvc:
        let digits = (typed[.number] ?? "").filter(\.isNumber)
        try PaymentCardValidation.validateCVC(typed[.cvc] ?? "", brand: PaymentCardValidation.brand(of: digits))
      }
      problem = nil
    } catch {
      guard complete else { return }
      problem = ScreenText.message(for: ServiceError(wrapping: error))
    }
    if problems[field] != problem { problems[field] = problem }
  }
}
