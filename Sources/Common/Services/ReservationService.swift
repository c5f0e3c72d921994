import Foundation

/// The signed-in user's reservations of every kind (trips). Implemented by `Backend`'s
/// reservations ledger; each kind's inventory books through the ledger in `Backend` and
/// registers how its reservations are cancelled (refund rule, inventory released).
///
/// Synchronous; fails with ``ServiceError`` (`not_signed_in`, `session_expired` as for
/// ``AccountService``). A user sees and cancels only their own reservations: another user's id
/// is `reservation_not_found`, exactly like an unknown one.
public protocol ReservationService: Sendable {
  /// Every reservation of the user, newest booking first.
  func reservations(token: String) throws -> [Reservation]

  /// One reservation of the user.
  /// - Throws: `reservation_not_found` (`.notFound`).
  func reservation(id: String, token: String) throws -> Reservation

  /// What cancelling the reservation now would cost and refund, with the deadline of its terms,
  /// without changing anything (shown before `cancelReservation(id:token:accepting:)`).
  /// - Throws: `reservation_not_found` (`.notFound`); `already_cancelled`, `not_cancellable`
  ///   (`.refused`).
  func cancellationQuote(id: String, token: String) throws -> CancellationQuote

  /// Cancels one reservation in a single transaction: the kind's rule decides the refund (which
  /// goes back to the card charged), its inventory is released, the status becomes `.cancelled`.
  /// With `quote` (what the traveller was shown), the cancellation goes through only when the
  /// refund is still exactly the quoted one; nil accepts whatever the rule gives now.
  /// - Returns: the cancelled reservation, with ``Reservation/refunded`` set.
  /// - Throws: `reservation_not_found` (`.notFound`); `already_cancelled` (`.refused`);
  ///   `not_cancellable` (`.refused`) when the kind's rule forbids it; `cancellation_terms_changed`
  ///   (`.refused`, with the new `refund` and `fee`) when the refund is no longer the quoted one
  ///   (a deadline passed meanwhile): nothing is cancelled.
  func cancelReservation(id: String, token: String, accepting quote: CancellationQuote?) throws -> Reservation
}

extension ReservationService {
  /// Cancels at whatever refund the kind's rule gives now (scripts that accept any terms).
  public func cancelReservation(id: String, token: String) throws -> Reservation {
    try cancelReservation(id: id, token: token, accepting: nil)
  }
}
