import Foundation

/// A point along a great circle: where an aircraft is and which way it flies.
public struct TrackPoint: Hashable, Sendable, Codable {
  /// Degrees, −90…90, north positive.
  public var latitude: Double
  /// Degrees, −180…180, east positive.
  public var longitude: Double
  /// True course at the point, degrees clockwise from true north, 0 ≤ heading < 360 (no wind:
  /// track and heading are the same).
  public var heading: Double

  public init(latitude: Double, longitude: Double, heading: Double) {
    self.latitude = latitude
    self.longitude = longitude
    self.heading = heading
  }
}

/// The great circle from one point of the Earth to another (a sphere of radius
/// ``Geography/earthRadiusKm``), for placing an aircraft that flies it: the point reached after a
/// fraction of the distance, and the true course there.
///
/// The path is the spherical linear interpolation of the endpoints' unit vectors (the
/// "intermediate point" formula of Ed Williams' Aviation Formulary): for the central angle `d`
/// between A and B, the point at fraction `f` is `(sin((1 − f)d) A + sin(f d) B) / sin d`. The
/// course is the direction of the path's tangent there, resolved on the local north and east
/// axes, so it is exact at both ends too (the initial course at A, the final course at B).
/// Endpoints are precomputed once, so a position costs a few multiplications, two sines, an
/// arcsine and two arctangents (about 0.1 µs): a radar moves every aircraft in the air each frame.
///
/// Antipodal endpoints have no unique great circle; the one through the North Pole's side is
/// taken (A and B nearly antipodal still give a valid path). Identical endpoints give the point
/// itself, heading 0.
public struct GreatCircleTrack: Hashable, Sendable {
  /// Unit vectors of the start and the end (x towards 0°N 0°E, y towards 0°N 90°E, z the North Pole).
  let a: SIMD3<Double>
  let b: SIMD3<Double>
  /// Central angle between them, radians (0…π).
  public let angle: Double
  private let sinAngle: Double

  /// The great circle from (`fromLatitude`, `fromLongitude`) to (`toLatitude`, `toLongitude`), degrees.
  public init(fromLatitude: Double, fromLongitude: Double, toLatitude: Double, toLongitude: Double) {
    a = Self.unit(latitude: fromLatitude, longitude: fromLongitude)
    var end = Self.unit(latitude: toLatitude, longitude: toLongitude)
    if (a + end).squaredLength < 1e-20 {
      // Antipodes: nudge the end towards the North Pole so one great circle is chosen.
      end = Self.unit(latitude: toLatitude + 1e-7, longitude: toLongitude)
    }
    b = end
    // atan2 of |A × B| and A · B: accurate at every angle (acos loses digits near 0 and π).
    angle = atan2(Self.cross(a, b).length, (a * b).sum())
    sinAngle = sin(angle)
  }

  /// The great-circle distance, kilometres.
  public var distanceKm: Double { angle * Geography.earthRadiusKm }

  /// The point `fraction` of the way along (clamped to 0…1), with the course there.
  public func point(at fraction: Double) -> TrackPoint {
    let f = min(1, max(0, fraction.isFinite ? fraction : 0))
    let p: SIMD3<Double>
    let tangent: SIMD3<Double>
    if sinAngle < 1e-12 {
      p = a
      tangent = b - a
    } else {
      let wa = sin((1 - f) * angle) / sinAngle
      let wb = sin(f * angle) / sinAngle
      p = wa * a + wb * b
      // d/df of the interpolation, up to the positive factor `angle`.
      let ta = -cos((1 - f) * angle) / sinAngle
      let tb = cos(f * angle) / sinAngle
      tangent = ta * a + tb * b
    }
    let horizontal = (p.x * p.x + p.y * p.y).squareRoot()
    let latitude = atan2(p.z, horizontal) * 180 / .pi
    let longitude = horizontal < 1e-15 ? 0 : atan2(p.y, p.x) * 180 / .pi
    // Local axes: east = (−sin λ, cos λ, 0), north = (−sin φ cos λ, −sin φ sin λ, cos φ).
    let cosLon = horizontal < 1e-15 ? 1 : p.x / horizontal
    let sinLon = horizontal < 1e-15 ? 0 : p.y / horizontal
    let east = -tangent.x * sinLon + tangent.y * cosLon
    let north = -p.z * (tangent.x * cosLon + tangent.y * sinLon) + horizontal * tangent.z
    var heading = atan2(east, north) * 180 / .pi
    if heading < 0 { heading += 360 }
    if heading >= 360 { heading -= 360 }
    return TrackPoint(latitude: latitude, longitude: longitude, heading: heading)
  }

  static func unit(latitude: Double, longitude: Double) -> SIMD3<Double> {
    let phi = latitude * .pi / 180
    let lambda = longitude * .pi / 180
    return SIMD3(cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
  }

  static func cross(_ u: SIMD3<Double>, _ v: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x)
  }
}

extension SIMD3<Double> {
  fileprivate var squaredLength: Double { (self * self).sum() }
  fileprivate var length: Double { squaredLength.squareRoot() }
}
