import Foundation

/// A live flight-status topic of the server's `/v1/stream` (see `StreamMessage`): one flight, or
/// one airport's board for one local date.
///
/// Names (case as shown; the airport is an IATA code, the date local to the airport):
/// - `flight:LH400-2026-12-20-FRA` — one operation (``FlightStatusKey/id``);
/// - `board:FRA:departures:2026-12-20`, `board:FRA:arrivals:2026-12-20` — a board; without the
///   date (`board:FRA:departures`) the board of the airport's local date when the subscription
///   starts. A client that may resume later names the date: a board's sequence numbers belong to
///   its date.
///
/// Events (`event` of a stream message, `data` the document `booking status|board --json` prints):
/// - ``snapshotEvent`` `flight.snapshot` `{"flightStatus": FlightStatus}` or `board.snapshot`
///   `{"board": FlightBoard}`, first, numbered with the snapshot's sequence, when a subscription
///   starts without `after`;
/// - ``updateEvent`` `flight.update` `{"update": FlightStatusUpdate}` or `board.update`
///   `{"boardUpdate": FlightBoardUpdate}` for each change, numbered by the flight's
///   ``FlightStatus/sequence`` or the board's ``FlightBoardUpdate/sequence``.
/// A subscription with `after` gets the changes numbered after it (no snapshot): nothing missed,
/// nothing twice.
public enum FlightStatusTopic: Hashable, Sendable, CustomStringConvertible {
  case flight(FlightStatusKey)
  case board(airport: String, direction: BoardDirection, date: LocalDate?)

  /// The prefixes of the topic names.
  public static let flightPrefix = "flight:"
  public static let boardPrefix = "board:"

  /// Parses a topic name.
  /// - Throws: ``ServiceError`` `invalid_topic` (invalid input) naming what is accepted.
  public init(parsing name: String) throws {
    if name.hasPrefix(Self.flightPrefix) {
      let id = String(name.dropFirst(Self.flightPrefix.count))
      guard let key = FlightStatusKey(id: id) else {
        throw ServiceError.invalid(
          "invalid_topic",
          "invalid topic \"\(name)\": expected flight:FLIGHT-DATE-ORIGIN, like flight:LH400-2026-12-20-FRA")
      }
      self = .flight(key)
      return
    }
    if name.hasPrefix(Self.boardPrefix) {
      let parts = name.dropFirst(Self.boardPrefix.count).split(separator: ":", omittingEmptySubsequences: false)
      let airport = parts.first.map(String.init) ?? ""
      let direction = parts.count > 1 ? BoardDirection(rawValue: String(parts[1])) : nil
      let date = parts.count > 2 ? LocalDate(String(parts[2])) : nil
      guard (2...3).contains(parts.count), airport.count == 3,
        airport.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }), let direction,
        parts.count == 2 || date != nil
      else {
        throw ServiceError.invalid(
          "invalid_topic",
          "invalid topic \"\(name)\": expected board:AIRPORT:departures or board:AIRPORT:arrivals, then "
            + "optionally :YYYY-MM-DD, like board:FRA:departures:2026-12-20")
      }
      self = .board(airport: airport, direction: direction, date: date)
      return
    }
    throw ServiceError.invalid(
      "invalid_topic", "invalid topic \"\(name)\": a flight-status topic starts with flight: or board:")
  }

  /// The topic's name (`flight:LH400-2026-12-20-FRA`, `board:FRA:departures:2026-12-20`).
  public var name: String {
    switch self {
    case .flight(let key): Self.flightPrefix + key.id
    case .board(let airport, let direction, let date):
      Self.boardPrefix + "\(airport):\(direction.rawValue)" + (date.map { ":\($0)" } ?? "")
    }
  }

  public var description: String { name }

  /// `flight.snapshot` or `board.snapshot`.
  public var snapshotEvent: String { isFlight ? "flight.snapshot" : "board.snapshot" }
  /// `flight.update` or `board.update`.
  public var updateEvent: String { isFlight ? "flight.update" : "board.update" }

  private var isFlight: Bool {
    if case .flight = self { return true }
    return false
  }
}

extension FlightBoard {
  /// The board after `update`: the flight it names replaced by its new status (a flight not on
  /// the board changes nothing but the sequence), ``sequence`` set to the update's and ``asOf`` to
  /// the change's instant. Whoever keeps a board current from its feed (the server's fan-out, a
  /// remote client) folds the updates with this.
  public mutating func apply(_ update: FlightBoardUpdate) {
    let status = update.update.flightStatus
    if let index = flights.firstIndex(where: { $0.key == status.key }) { flights[index] = status }
    sequence = update.sequence
    if let at = status.updatedAt { asOf = at }
  }
}
