import Foundation

/// A position on the Earth in decimal degrees (WGS84): latitude −90…90 (north positive),
/// longitude −180…180 (east positive).
public struct Coordinate: Hashable, Sendable, Codable, CustomStringConvertible {
  /// Decimal degrees, −90…90.
  public var latitude: Double
  /// Decimal degrees, −180…180.
  public var longitude: Double

  /// A checked coordinate.
  /// - Throws: ``ServiceError`` `invalid_coordinate` (invalid input) when the latitude is outside
  ///   −90…90, the longitude outside −180…180, or either is not a finite number.
  public init(latitude: Double, longitude: Double) throws(ServiceError) {
    guard latitude.isFinite, (-90.0...90.0).contains(latitude) else {
      throw ServiceError.invalid(
        "invalid_coordinate",
        "latitude \(Self.text(latitude)) is out of range: expected -90 to 90 degrees (lat,lon like 48.85,2.35)")
    }
    guard longitude.isFinite, (-180.0...180.0).contains(longitude) else {
      throw ServiceError.invalid(
        "invalid_coordinate",
        "longitude \(Self.text(longitude)) is out of range: expected -180 to 180 degrees (lat,lon like 48.85,2.35)")
    }
    self.latitude = latitude
    self.longitude = longitude
  }

  /// A coordinate from values known to be in range (reference data).
  init(uncheckedLatitude latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }

  /// Parses `lat,lon` in decimal degrees (`48.85,2.35`, `-33.9, 151.2`).
  /// - Returns: nil when `text` does not start like a coordinate (its first part is not a number).
  /// - Throws: ``ServiceError`` `invalid_coordinate` when it starts like one but is malformed or
  ///   out of range.
  public static func parse(_ text: String) throws(ServiceError) -> Coordinate? {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
      .map { $0.trimmingCharacters(in: .whitespaces) }
    guard parts.count >= 2, let latitude = Double(parts[0]) else { return nil }
    guard parts.count == 2, let longitude = Double(parts[1]) else {
      throw ServiceError.invalid(
        "invalid_coordinate",
        "invalid coordinate \"\(text)\": expected lat,lon in decimal degrees, like 48.85,2.35")
    }
    return try Coordinate(latitude: latitude, longitude: longitude)
  }

  /// The great-circle distance to `other` in kilometres (see ``Geography/distanceKm(_:_:)``).
  public func distanceKm(to other: Coordinate) -> Double { Geography.distanceKm(self, other) }

  /// `48.85341,2.34880` (5 decimals, about a metre).
  public var description: String { "\(Self.text(latitude, decimals: 5)),\(Self.text(longitude, decimals: 5))" }

  static func text(_ value: Double, decimals: Int? = nil) -> String {
    guard let decimals else { return value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : "\(value)" }
    return String(format: "%.\(decimals)f", value)
  }
}

/// Great-circle geometry on a spherical Earth.
public enum Geography {
  /// The mean Earth radius in kilometres used for every distance: 6371.0088 km, the IUGG mean
  /// radius R1 = (2a + b) / 3 of the WGS84 ellipsoid. Distances are within about 0.5 % of the
  /// ellipsoidal ones.
  public static let earthRadiusKm = 6371.0088

  /// The great-circle distance between `a` and `b` in kilometres (haversine formula on a sphere
  /// of radius ``earthRadiusKm``).
  public static func distanceKm(_ a: Coordinate, _ b: Coordinate) -> Double {
    let lat1 = a.latitude * .pi / 180
    let lat2 = b.latitude * .pi / 180
    let dLat = lat2 - lat1
    let dLon = (b.longitude - a.longitude) * .pi / 180
    let h = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
    return 2 * earthRadiusKm * asin(min(1, h.squareRoot()))
  }
}

/// The smallest latitude/longitude box that contains every point within `radiusKm` of a centre,
/// for a quick pre-filter before ``Geography/distanceKm(_:_:)``. Degrees throughout.
///
/// Near a pole (the circle reaches it) the box spans every longitude. When the circle crosses
/// the antimeridian, ``minLongitude`` is greater than ``maxLongitude`` (the box wraps round 180°);
/// ``contains(_:)`` handles both cases.
public struct BoundingBox: Hashable, Sendable, Codable {
  public var minLatitude: Double
  public var maxLatitude: Double
  /// Western edge; greater than ``maxLongitude`` when the box crosses the antimeridian.
  public var minLongitude: Double
  /// Eastern edge.
  public var maxLongitude: Double

  public init(minLatitude: Double, maxLatitude: Double, minLongitude: Double, maxLongitude: Double) {
    self.minLatitude = minLatitude
    self.maxLatitude = maxLatitude
    self.minLongitude = minLongitude
    self.maxLongitude = maxLongitude
  }

  /// The box around the circle of `radiusKm` kilometres (≥ 0) about `center`.
  public init(center: Coordinate, radiusKm: Double) {
    let angular = max(0, radiusKm) / Geography.earthRadiusKm  // radians
    let latitude = center.latitude * .pi / 180
    var minLat = latitude - angular
    var maxLat = latitude + angular
    var minLon = -Double.pi
    var maxLon = Double.pi
    if minLat > -Double.pi / 2 && maxLat < Double.pi / 2 && angular < Double.pi / 2 {
      let dLon = asin(min(1, sin(angular) / cos(latitude)))
      minLon = center.longitude * .pi / 180 - dLon
      maxLon = center.longitude * .pi / 180 + dLon
      if minLon < -Double.pi { minLon += 2 * Double.pi }
      if maxLon > Double.pi { maxLon -= 2 * Double.pi }
    } else {
      minLat = max(minLat, -Double.pi / 2)
      maxLat = min(maxLat, Double.pi / 2)
    }
    self.init(
      minLatitude: minLat * 180 / .pi, maxLatitude: maxLat * 180 / .pi,
      minLongitude: minLon * 180 / .pi, maxLongitude: maxLon * 180 / .pi)
  }

  /// Whether the box crosses the antimeridian (``minLongitude`` > ``maxLongitude``).
  public var crossesAntimeridian: Bool { minLongitude > maxLongitude }

  /// Whether `point` lies in the box (edges included).
  public func contains(_ point: Coordinate) -> Bool {
    guard point.latitude >= minLatitude, point.latitude <= maxLatitude else { return false }
    if crossesAntimeridian {
      return point.longitude >= minLongitude || point.longitude <= maxLongitude
    }
    return point.longitude >= minLongitude && point.longitude <= maxLongitude
  }
}
