import Common
import Foundation
import Reactive

/// The hotel search form: place, date range, guests and rooms.
///
/// Inputs: ``placeChanged(_:)``, ``checkInChanged(_:)``, ``checkOutChanged(_:)``,
/// ``guestsChanged(_:)``, ``roomsChanged(_:)``, ``searchTapped()``. Outputs: ``nights`` (nil until
/// the range is valid), ``problems`` (each part of the form with what to fix and how — a missing
/// check-in or check-out is chosen in the calendar), ``validationMessage`` (the first of them,
/// nil when the form is valid), ``isSearchEnabled``, and ``searches``: the request sent when
/// search is tapped on a valid form. The rules are those of ``HotelSearchRequest`` (1–30 nights,
/// check-in not on a day past at every place: ``TravelToday``; the service judges the rest at the
/// hotel, in its time zone).
public final class HotelSearchFormViewModel {
  /// A part of the form, for its messages.
  public enum Field: Hashable, Sendable, CaseIterable {
    case place, dates, guests
  }

  @Published public private(set) var nights: Int?
  @Published public private(set) var problems: [Field: String] = [:]
  @Published public private(set) var validationMessage: String?
  @Published public private(set) var isSearchEnabled = false

  /// Requests to run, one per tap on a valid form.
  public var searches: AnyPublisher<HotelSearchRequest, Never> { searchSubject.eraseToAnyPublisher() }

  private struct Form: Equatable {
    var place = ""
    var checkIn: LocalDate?
    var checkOut: LocalDate?
    var guests = 2
    var rooms = 1
  }

  @Published private var form = Form()
  private let searchSubject = PassthroughSubject<HotelSearchRequest, Never>()
  private let today: TravelToday

  /// - Parameter today: today from the app's clock (``TravelToday``).
  public init(today: TravelToday) {
    self.today = today
    let today = today
    $form.map { Self.validate($0, today: today).nights }.removeDuplicates().assign(to: &$nights)
    $form.map { Self.validate($0, today: today).problems }.removeDuplicates().assign(to: &$problems)
    $form.map { Self.validate($0, today: today).message }.removeDuplicates().assign(to: &$validationMessage)
    $form.map { Self.validate($0, today: today).message == nil }.removeDuplicates().assign(to: &$isSearchEnabled)
  }

  private static func validate(_ form: Form, today: TravelToday) -> (
    nights: Int?, problems: [Field: String], message: String?
  ) {
    var problems: [Field: String] = [:]
    var nights: Int?
    if let checkIn = form.checkIn {
      if today.isPastEverywhere(checkIn) {
        problems[.dates] = today.pastMessage(L("Check-in"), "\(checkIn)")
      } else if let checkOut = form.checkOut {
        if let stay = DateRange(start: checkIn, end: checkOut) {
          if stay.count <= HotelSearchRequest.maxNights {
            nights = stay.count
          } else {
            problems[.dates] = L("A stay is at most \(HotelSearchRequest.maxNights) nights.")
          }
        } else {
          problems[.dates] = L("Check-out must be after check-in.")
        }
      } else {
        problems[.dates] = L("Choose check-out in the calendar (Enter on a day after check-in).")
      }
    } else {
      problems[.dates] = L("Choose check-in and check-out in the calendar (Enter on each day).")
    }
    if form.place.trimmingCharacters(in: .whitespaces).isEmpty { problems[.place] = L("Choose a place.") }
    if !(1...HotelSearchRequest.maxGuests).contains(form.guests) {
      problems[.guests] = L("Guests: 1 to \(HotelSearchRequest.maxGuests).")
    } else if !(1...HotelSearchRequest.maxRooms).contains(form.rooms) || form.rooms > form.guests {
      problems[.guests] = L("Rooms: 1 to \(min(HotelSearchRequest.maxRooms, max(1, form.guests))).")
    } else if form.guests > form.rooms * 4 {
      problems[.guests] = L("\(form.guests) guests need at least \((form.guests + 3) / 4) rooms.")
    }
    // The first thing to fix, in the order the old form said them: the stay, the place, the guests.
    let message = problems[.dates] ?? problems[.place] ?? problems[.guests]
    return (nights, problems, message)
  }

  public func placeChanged(_ place: String) { form.place = place }
  public func checkInChanged(_ date: LocalDate) { form.checkIn = date }
  public func checkOutChanged(_ date: LocalDate) { form.checkOut = date }
  public func guestsChanged(_ count: Int) { form.guests = count }
  public func roomsChanged(_ count: Int) { form.rooms = count }

  /// Sends a request on ``searches`` when the form is valid.
  public func searchTapped() {
    guard Self.validate(form, today: today).message == nil, let checkIn = form.checkIn, let checkOut = form.checkOut
    else { return }
    searchSubject.send(
      HotelSearchRequest(
        place: form.place.trimmingCharacters(in: .whitespaces), checkIn: checkIn, checkOut: checkOut,
        guests: form.guests, rooms: form.rooms))
  }
}
