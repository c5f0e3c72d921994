import Common

/// What a booking screen says when a booking fails for a payment or session reason, in the
/// interactive app's words: the services' messages are written for the command line ("use another
/// card with --card ID", "sign in first: account login --email …"); here they point at the keys of
/// the screen (← → another card, Book signs in) and at the Account tab.
///
/// One place for the Flights, Hotels and Cars booking screens (all use ``CheckoutSection``), by
/// ``ServiceError/code``:
///
/// | code | says |
/// | --- | --- |
/// | `card_declined`, `insufficient_funds`, `card_expired` | the card (by name) was refused, nothing was booked; choose another card (← →) — or, with one card, add one — and book again |
/// | `card_not_found` | the card is no longer on the account; choose a card and book again |
/// | `no_payment_card` | no card yet, how to add one (it shows at once), then book again |
/// | `not_signed_in`, `session_expired` | signed out / the session expired, nothing was booked; Enter opens the sign-in sheet, then book again |
///
/// Any other error (sold out, price changed, a store that failed) is worded by ``ScreenText``.
/// The codes and their command-line messages are `PaymentGateway`'s and `Accounts`' in Backend.
public enum CheckoutMessages {
  /// The codes given their own words here.
  public static let codes: Set<String> = [
    "card_declined", "insufficient_funds", "card_expired", "card_not_found", "no_payment_card", "not_signed_in",
    "session_expired",
  ]

  /// The words for a booking that failed with `error`.
  /// - Parameters:
  ///   - card: the card the booking charged (named in the message as `Visa •••• 4242`; nil: "The card").
  ///   - cardCount: how many cards the account has (with more than one, ← → chooses another).
  /// - Returns: the message to show under the Book button, a sentence or two.
  public static func bookingFailed(_ error: ServiceError, card: PaymentCard?, cardCount: Int) -> String {
    let name =
      card.map { card in
        L(
          "The card \(PaymentCardValidation.masked(brand: PaymentCardValidation.Brand(storedName: card.brand), last4: card.last4))"
        )
      } ?? L("The card")
    let another =
      cardCount > 1
      ? L("Choose another card (← →) and book again.")
      : L("Add another card (the Account tab, or 'account cards add' in a shell) and book again.")
    switch error.code {
    case "card_declined":
      return L("\(name) was declined: nothing was booked. \(another)")
    case "insufficient_funds":
      return L("\(name) has insufficient funds: nothing was booked. \(another)")
    case "card_expired":
      return L("\(name) has expired: nothing was booked. \(another)")
    case "card_not_found":
      return L("That card is no longer on your account: nothing was booked. Choose a card (← →) and book again.")
    case "no_payment_card":
      return L(
        "No payment card on your account: nothing was booked. Add one (the Account tab, or "
          + "'account cards add' in a shell) and book again.")
    case "not_signed_in":
      return L("You are signed out: nothing was booked. Press Enter to sign in, then book again.")
    case "session_expired":
      return L("Your session has expired: nothing was booked. Press Enter to sign in, then book again.")
    default:
      return ScreenText.message(for: error)
    }
  }
}

extension CheckoutSection {
  /// The words for a booking that failed with `error` (``CheckoutMessages``), naming the card
  /// chosen now. Call it when the failure arrives, before the person can choose another card.
  public func message(forBookingFailure error: ServiceError) -> String {
    CheckoutMessages.bookingFailed(error, card: model.selectedCard, cardCount: model.cards.count)
  }
}
