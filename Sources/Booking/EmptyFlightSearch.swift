import Common
import Foundation

/// Why a flight search found nothing: which of its conditions emptied it.
///
/// Found by asking the same search again with one condition relaxed at a time (each a real
/// search, so the answer is the service's, never a guess): another cabin, up to 2 stops per
/// direction, no carrier, one adult, one-way. A condition is named when relaxing it alone finds
/// flights. When none alone does, the route and dates have no flights at all
/// (``conditions`` empty).
///
/// Used by `booking search` (its text) and the Flights tab (its message); the words for each are
/// ``commandLineText(_:)`` (may name options) and ``screenText(_:)`` (never names an option).
public struct EmptyFlightSearch: Hashable, Sendable {
  /// A condition of the search that, relaxed alone, finds flights.
  public enum Condition: Hashable, Sendable {
    /// The cabin asked is not sold: `others` are, in ``Cabin`` order.
    case cabin(others: [Cabin])
    /// More stops per direction (up to 2) find flights.
    case stops
    /// Other carriers fly the route.
    case carrier
    /// Fewer passengers fit: the flights have fewer seats left than adults asked.
    case adults
    /// The outbound has flights; the return date has none.
    case returnDate
  }

  /// The most stops per direction a search accepts (`--max-stops` 0, 1 or 2).
  public static let mostStops = 2

  /// The search that found nothing.
  public var request: FlightSearchRequest
  /// The conditions that emptied it, in the order above; empty when no single one did.
  public var conditions: [Condition]

  /// The explanation of `request` emptied by `conditions` (none: the route has no flights then).
  public init(request: FlightSearchRequest, conditions: [Condition]) {
    self.request = request
    self.conditions = conditions
  }

  /// Asks `search` with each condition of `request` relaxed alone (at most 3 other cabins, then
  /// stops, carrier, adults and the return: up to 7 searches, each limited to one offer).
  /// - Throws: what `search` throws (a service that fails now fails the explanation too).
  public init(request: FlightSearchRequest, search: (FlightSearchRequest) throws -> [FlightOffer]) throws {
    self.request = request
    var probe = request
    probe.limit = 1
    func finds(_ change: (inout FlightSearchRequest) -> Void) throws -> Bool {
      var relaxed = probe
      change(&relaxed)
      return try !search(relaxed).isEmpty
    }
    var found: [Condition] = []
    var cabins: [Cabin] = []
    for cabin in Cabin.allCases where cabin != request.cabin {
      if try finds({ $0.cabin = cabin }) { cabins.append(cabin) }
    }
    if !cabins.isEmpty { found.append(.cabin(others: cabins)) }
    if request.maxStops < Self.mostStops, try finds({ $0.maxStops = Self.mostStops }) {
      found.append(.stops)
    }
    if request.carrier != nil, try finds({ $0.carrier = nil }) { found.append(.carrier) }
    if request.adults > 1, try finds({ $0.adults = 1 }) { found.append(.adults) }
    if request.returnDate != nil, try finds({ $0.returnDate = nil }) { found.append(.returnDate) }
    conditions = found
  }

  /// The explanation for `booking search`: `No flights from SFO to JFK on 2026-12-20 in First
  /// with at most 2 stops: First is not sold on this route that day; Business and Economy are
  /// (try --cabin business).`
  public var commandLineText: String { text(screen: false) }

  /// The explanation for the Flights tab: the same facts, with the form's words for what to change
  /// (`choose another class`), never an option name.
  public var screenText: String { text(screen: true) }

  private func text(screen: Bool) -> String {
    var asked = L("No flights from \(request.origin) to \(request.destination) on \(request.departureDate)")
    if let back = request.returnDate { asked += L(" (back \(back))") }
    if request.cabin != .economy { asked += " in \(request.cabin.displayName)" }
    if let carrier = request.carrier { asked += L(" flown by \(carrier)") }
    asked += request.maxStops == 0 ? " nonstop" : " with at most \(FlightText.stops(request.maxStops))"
    if request.adults > 1 { asked += L(" for \(request.adults) adults") }
    guard !conditions.isEmpty else {
      let wider = request.maxStops < Self.mostStops || request.cabin != .economy
      return asked + L(": no flights fly this route that day")
        + (wider ? L(" in any class with up to \(FlightText.stops(Self.mostStops))") : "")
        + (screen ? L("; try another date or nearby airports.") : L(" (try another --date or nearby airports)."))
    }
    let reasons = conditions.map { condition -> String in
      switch condition {
      case .cabin(let others):
        let names = Self.list(others.map(\.displayName))
        // The advice names the class nearest the one asked.
        let order = Cabin.allCases
        let position = { (cabin: Cabin) in
          abs((order.firstIndex(of: cabin) ?? 0) - (order.firstIndex(of: request.cabin) ?? 0))
        }
        let nearest = others.min { position($0) < position($1) } ?? .economy
        let advice = screen ? "choose another class" : "try --cabin \(nearest.rawValue)"
        return L("\(request.cabin.displayName) is not sold on this route that day; \(names) ")
          + (others.count == 1 ? "is" : "are") + " (\(advice))"
      case .stops:
        let more = FlightText.stops(Self.mostStops)
        return L("there are flights with up to \(more)")
          + (screen ? L(" (choose more stops)") : L(" (try --max-stops \(Self.mostStops))"))
      case .carrier:
        return L("other airlines fly it") + (screen ? L(" (choose all carriers)") : L(" (try without --carrier)"))
      case .adults:
        return L("no flight has \(request.adults) seats left together; fewer passengers fit")
          + (screen ? L(" (change adults)") : L(" (try fewer --adults)"))
      case .returnDate:
        return L("the outbound has flights, the return on \(request.returnDate.map(\.description) ?? "") has none")
          + (screen ? L(" (choose another return date)") : L(" (try another --return)"))
      }
    }
    return asked + ": " + reasons.joined(separator: "; ") + "."
  }

  /// `A`, `A and B`, `A, B and C`.
  static func list(_ names: [String]) -> String {
    guard names.count > 1, let last = names.last else { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + L(" and ") + last
  }
}
