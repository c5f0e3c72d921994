import Common
import CommonTesting
import Foundation
import Testing

@testable import Backend

/// Issue #13, "Cancellations": a hotel confirmation states the policy as it applies when booked;
/// a cancellation is quoted first (fee, refund, deadline in local time) and goes through only at
/// the quoted refund; a cancelled trip keeps its fee and refund.
@Suite struct CancellationTermsTests {
  let backend: TestBackend
  let token: String
  let engine: HotelEngine

  init() throws {
    // Five days before the deadline below, so the session (30 days) outlives the clock's moves.
    backend = try TestBackend(now: Self.deadline.addingTimeInterval(-5 * 86_400))
    token = try backend.signedIn()
    try backend.addCard(token: token)
    engine = try HotelBookingTests.engine(backend.services, clock: backend.clock)
  }

  /// Paris is UTC+1 in December: the deadline of a 2026-12-20 check-in, 2026-12-19 15:00 local.
  static let deadline = Date(timeIntervalSince1970: 1_797_688_800)

  func room() throws -> HotelOffer {
    let request = HotelSearchRequest(
      place: "Paris", checkIn: .of("2026-12-20"), checkOut: .of("2026-12-23"), guests: 2, limit: 1)
    return try #require(try engine.search(request).offers.first)
  }

  func firstNight(_ offer: HotelOffer) -> Money { (offer.nightlyRates[0].rate * (1 + offer.taxRate)).rounded() }

  @Test func hotelBookedAfterTheDeadline_saysSoInTheConfirmation_andTheQuoteChargesTheFirstNight() throws {
    let offer = try room()
    backend.clock.withLock { $0 = Self.deadline.addingTimeInterval(3600) }
    let late = try engine.book(HotelBookingRequest(offerId: offer.id, guestName: "Ada Lovelace"), token: token)
    let policy = try #require(late.details["cancellationPolicy"]?.stringValue)
    #expect(policy.hasPrefix("Free cancellation ended 2026-12-19 15:00 hotel time (Europe/Paris)"), "\(policy)")
    #expect(policy.contains("costs the first night (\(MoneyFormat.english.string(firstNight(offer))))"))
    #expect(!policy.contains("Free cancellation until"))
    #expect(late.details["freeCancellation"] == .bool(false))

    let quote = try backend.services.ledger.cancellationQuote(id: late.id, token: token)
    #expect(quote.rule == .hotelFirstNightCharged)
    #expect(quote.fee == firstNight(offer))
    #expect(quote.refund == offer.total - firstNight(offer))
    #expect(quote.deadline == Self.deadline && quote.deadlinePassed)
    #expect(quote.deadlineText == "2026-12-19 15:00 (Europe/Paris)")
    #expect(quote.card == "Visa •••• 4242")
    let cancelled = try backend.services.ledger.cancelReservation(id: late.id, token: token, accepting: quote)
    #expect(cancelled.cancellationFee == firstNight(offer))
    #expect(cancelled.refunded == quote.refund)
    #expect(try backend.services.ledger.reservation(id: late.id, token: token).cancellationFee == firstNight(offer))
  }

  @Test func hotelBookedBeforeTheDeadline_isFree_untilTheTermsChange_thenTheOldQuoteIsRefused() throws {
    let offer = try room()
    let early = try engine.book(HotelBookingRequest(offerId: offer.id, guestName: "Ada Lovelace"), token: token)
    #expect(
      early.details["cancellationPolicy"]?.stringValue?.hasPrefix("Free cancellation until 2026-12-19 15:00") == true)
    #expect(early.details["freeCancellation"] == .bool(true))
    let free = try backend.services.ledger.cancellationQuote(id: early.id, token: token)
    #expect(free.rule == .hotelFree && free.fee == Money.zero("EUR") && free.refund == offer.total)
    #expect(!free.deadlinePassed)
    // The deadline passes between the quote shown and the confirmation: nothing is cancelled.
    backend.clock.withLock { $0 = Self.deadline }
    let changed = errorCode {
      _ = try backend.services.ledger.cancelReservation(id: early.id, token: token, accepting: free)
    }
    #expect(changed == "cancellation_terms_changed")
    #expect(try backend.services.ledger.reservation(id: early.id, token: token).status == .confirmed)
    let now = try backend.services.ledger.cancellationQuote(id: early.id, token: token)
    #expect(now.fee == firstNight(offer))
    _ = try backend.services.ledger.cancelReservation(id: early.id, token: token, accepting: now)
    #expect(
      errorCode { _ = try backend.services.ledger.cancellationQuote(id: early.id, token: token) } == "already_cancelled"
    )
  }

  @Test func flightTerms_stepFromFullFareToHalfToTaxesOnly_withEachDeadline() throws {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let reservation = Reservation(
      id: "res_f", kind: .flight, status: .confirmed, total: Money(amount: 300, currency: "USD"),
      createdAt: start.addingTimeInterval(-30 * 86_400), summary: "SFO → JFK", startsAt: start,
      details: ["timeZone": .string("America/Los_Angeles")])
    let full = SQLiteFlightSeats.cancellationTerms(reservation, now: start.addingTimeInterval(-10 * 86_400))
    #expect(full.rule == .flightFullFare && full.deadline == start.addingTimeInterval(-7 * 86_400))
    let half = SQLiteFlightSeats.cancellationTerms(reservation, now: start.addingTimeInterval(-3 * 86_400))
    #expect(half.rule == .flightHalfFare && half.deadline == start.addingTimeInterval(-86_400))
    let taxes = SQLiteFlightSeats.cancellationTerms(reservation, now: start.addingTimeInterval(-3600))
    #expect(taxes.rule == .flightTaxesOnly && taxes.deadline == start)
    #expect(full.policy.contains("(America/Los_Angeles)"))
  }

  @Test func carTerms_freeUntilPickup_thenNotCancellable() throws {
    let start = backend.clock.withLock { $0 }.addingTimeInterval(86_400)
    let reservation = Reservation(
      id: "res_c", kind: .car, status: .confirmed, total: Money(amount: 120, currency: "USD"),
      createdAt: start.addingTimeInterval(-86_400), summary: "Zephyr CDAR", startsAt: start,
      details: ["timeZone": .string("America/Los_Angeles")])
    let terms = SQLiteCarRentals.cancellation.terms(reservation, start.addingTimeInterval(-60))
    #expect(terms.rule == .carFreeUntilPickup && terms.deadline == start)
    #expect(try SQLiteCarRentals.cancellation.refund(reservation, start.addingTimeInterval(-60)) == reservation.total)
    #expect(errorCode { _ = try SQLiteCarRentals.cancellation.refund(reservation, start) } == "not_cancellable")
  }
}
