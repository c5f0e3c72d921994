import Common
import CommonTesting
import Foundation
import Reactive
import Testing

@testable import CommonUI

/// ``CheckoutMessages``: the booking screens' words for payment and session failures.
@Suite struct CheckoutMessagesTests {
  static let visa = PaymentCard.visa

  func refused(_ code: String) -> ServiceError {
    ServiceError.refused(code, "the command line's message for \(code): use another card with --card ID")
  }

  @Test func cardRefusals_nameTheCard_andPointAtTheCardKeys() {
    let cases: [(String, String)] = [
      ("card_declined", "The card Visa •••• 4242 was declined: nothing was booked."),
      ("insufficient_funds", "The card Visa •••• 4242 has insufficient funds: nothing was booked."),
      ("card_expired", "The card Visa •••• 4242 has expired: nothing was booked."),
    ]
    for (code, start) in cases {
      #expect(
        CheckoutMessages.bookingFailed(refused(code), card: Self.visa, cardCount: 2)
          == "\(start) Choose another card (← →) and book again.")
      #expect(
        CheckoutMessages.bookingFailed(refused(code), card: Self.visa, cardCount: 1)
          == "\(start) Add another card (the Account tab, or 'account cards add' in a shell) and book again.")
    }
    #expect(
      CheckoutMessages.bookingFailed(refused("card_declined"), card: nil, cardCount: 2)
        == "The card was declined: nothing was booked. Choose another card (← →) and book again.")
  }

  @Test func everyCodeHasAppWords_noneNamesACommandLineOption() {
    for code in CheckoutMessages.codes.sorted() {
      let text = CheckoutMessages.bookingFailed(refused(code), card: Self.visa, cardCount: 2)
      #expect(!text.contains("--"), "\(code): \(text)")
      #expect(text.contains("nothing was booked"), "\(code): \(text)")
      #expect(text.first?.isUppercase == true, "\(code): \(text)")
    }
  }

  @Test func session_cardAndNoCard_messages() {
    #expect(
      CheckoutMessages.bookingFailed(.notSignedIn, card: Self.visa, cardCount: 2)
        == "You are signed out: nothing was booked. Press Enter to sign in, then book again.")
    let expired = ServiceError(
      .unauthenticated, code: "session_expired",
      message: "your session has expired: sign in again: account login --email …")
    #expect(
      CheckoutMessages.bookingFailed(expired, card: nil, cardCount: 0)
        == "Your session has expired: nothing was booked. Press Enter to sign in, then book again.")
    #expect(
      CheckoutMessages.bookingFailed(refused("card_not_found"), card: nil, cardCount: 1)
        == "That card is no longer on your account: nothing was booked. Choose a card (← →) and book again.")
    #expect(
      CheckoutMessages.bookingFailed(refused("no_payment_card"), card: nil, cardCount: 0)
        == "No payment card on your account: nothing was booked. Add one (the Account tab, or "
        + "'account cards add' in a shell) and book again.")
  }

  @Test func otherErrors_keepTheServicesMessage_inTheAppsWords() {
    let soldOut = ServiceError.refused("sold_out", "sold out: no seats left on DL 1200")
    #expect(
      CheckoutMessages.bookingFailed(soldOut, card: Self.visa, cardCount: 2) == "Sold out: no seats left on DL 1200")
    let past = ServiceError.invalid(
      "date_in_past", "--date 2026-01-02 is in the past: expected today (2026-03-01) or later")
    #expect(
      CheckoutMessages.bookingFailed(past, card: nil, cardCount: 0)
        == "The departure date 2026-01-02 is in the past: expected today (2026-03-01) or later")
  }

  @MainActor @Test func section_namesTheChosenCard() {
    let scheduler = DispatchQueue.test
    let section = CheckoutSection(
      account: MemoryBookingAccount(signedIn: true).account, mainQueue: scheduler.eraseToAnyScheduler(),
      backgroundQueue: scheduler.eraseToAnyScheduler())
    scheduler.run()
    section.model.nextCardTapped()
    #expect(
      section.message(forBookingFailure: refused("card_declined"))
        == "The card Mastercard •••• 4444 was declined: nothing was booked. Choose another card (← →) and book again.")
  }
}
