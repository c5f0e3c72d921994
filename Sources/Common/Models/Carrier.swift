/// An airline code as the app's flights use it: who flies under it today, after what happened to
/// the airlines of the 2014 route data (`Shared/openflights/carrier_changes.csv`, each row with its
/// source; see `Shared/openflights/SOURCE.md`).
///
/// One per two-character IATA code used in the routes, plus each successor code. The name is the
/// one of the `airlines.csv` row the routes point to (their `airline_id`), or the current name the
/// changes file gives (`renamed`, `corrected`).
public struct Carrier: Hashable, Sendable, Codable {
  /// What became of the airline the routes name.
  public enum Status: String, Hashable, Sendable, Codable {
    /// It flies under this code (perhaps renamed, or not the airline OpenFlights names).
    case operating
    /// It was absorbed: its routes are flown by ``Carrier/successor``.
    case merged
    /// It stopped flying; its routes are not flown.
    case ceased
  }

  /// The IATA code (`UA`).
  public var code: String
  /// The airline's name today (`United Airlines`); for a merged or ceased one, its last name.
  public var name: String
  public var status: Status
  /// For ``Status/merged``: the code that flies its routes now (an operating carrier).
  public var successor: String?
  /// When the change took effect, as precisely as the source says (`2015-10-17`, `2017`); nil when
  /// nothing changed.
  public var since: String?
  /// Where the change was checked (a URL); nil when nothing changed.
  public var source: String?
  /// Its global alliance (`Star Alliance`, `oneworld`, `SkyTeam`) as of 2025
  /// (`Shared/openflights/alliances.csv`); nil when it belongs to none.
  public var alliance: String?

  public init(
    code: String, name: String, status: Status = .operating, successor: String? = nil, since: String? = nil,
    source: String? = nil, alliance: String? = nil
  ) {
    self.code = code
    self.name = name
    self.status = status
    self.successor = successor
    self.since = since
    self.source = source
    self.alliance = alliance
  }

  /// The code whose flights carry this code's routes: itself when operating, the successor when
  /// merged, nil when ceased.
  public var flyingCode: String? {
    switch status {
    case .operating: code
    case .merged: successor
    case .ceased: nil
    }
  }
}
