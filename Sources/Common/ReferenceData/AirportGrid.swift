import Foundation

/// A latitude/longitude grid of airport indices for ``ReferenceData/nearestAirport(to:)``: cells of
/// ``cellDegrees`` × ``cellDegrees`` degrees (rows from the South Pole, columns from 180° W), each
/// listing the indices of the airports inside it in ascending order (compressed: one array of
/// indices and one of cell starts).
///
/// The search visits rings of cells around the query's cell (ring k: the cells whose row and
/// column are both within k of it, columns wrapping round the antimeridian) and stops when the
/// nearest airport found is nearer than every airport outside the rings could be. That lower
/// bound is the smaller of
/// - the latitude gap to the first row not visited (a great-circle distance is at least the
///   difference of latitudes), and
/// - the great-circle distance from the point to the nearest meridian not visited:
///   `asin(cos φ × sin Δλ)` for a longitude gap Δλ (clamped to 90°; any path to a longitude
///   farther than Δλ crosses that meridian or a pole, which is no nearer),
///
/// less a metre for floating-point error. Distances are those of
/// ``Geography/distanceKm(_:_:)`` and ties go to the lower airport index, so the answer is exactly
/// that of a scan of every airport (the first airport at the least distance).
struct AirportGrid: Sendable {
  /// The side of a cell in degrees: 1.
  static let cellDegrees = 1.0
  static let rows = 180
  static let columns = 360
  /// The margin taken off every lower bound, in kilometres (1 m), for rounding in the distances.
  static let marginKm = 1e-3

  private let coordinates: [Coordinate]
  /// For cell `row * columns + column`, its airports are `indices[starts[cell]..<starts[cell + 1]]`.
  private let starts: [Int32]
  private let indices: [Int32]

  init(_ coordinates: [Coordinate]) {
    self.coordinates = coordinates
    var counts = [Int32](repeating: 0, count: Self.rows * Self.columns + 1)
    let cells = coordinates.map { Self.cell(row: Self.row(of: $0.latitude), column: Self.column(of: $0.longitude)) }
    for cell in cells { counts[cell + 1] += 1 }
    for cell in 0..<Self.rows * Self.columns { counts[cell + 1] += counts[cell] }
    var next = counts
    var indices = [Int32](repeating: 0, count: coordinates.count)
    for (index, cell) in cells.enumerated() {
      indices[Int(next[cell])] = Int32(index)
      next[cell] += 1
    }
    starts = counts
    self.indices = indices
  }

  static func row(of latitude: Double) -> Int {
    min(rows - 1, max(0, Int(((latitude + 90) / cellDegrees).rounded(.down))))
  }

  static func column(of longitude: Double) -> Int {
    let column = Int(((longitude + 180) / cellDegrees).rounded(.down)) % columns
    return column < 0 ? column + columns : column
  }

  private static func cell(row: Int, column: Int) -> Int { row * columns + column }

  /// The index of the airport nearest `point` (the lowest index among equally near ones), or nil
  /// when there are none.
  func nearest(to point: Coordinate) -> Int? {
    guard !coordinates.isEmpty else { return nil }
    let centreRow = Self.row(of: point.latitude)
    let centreColumn = Self.column(of: point.longitude)
    let cosLatitude = cos(point.latitude * .pi / 180)
    // The longitude in [-180, 180), as the columns count it (180° E is column 0, like 180° W).
    let longitude = point.longitude - 360 * ((point.longitude + 180) / 360).rounded(.down)
    let kmPerDegree = Geography.earthRadiusKm * .pi / 180
    var best: (index: Int, distance: Double)?

    func visit(row: Int, columnOffset: Int) {
      var column = (centreColumn + columnOffset) % Self.columns
      if column < 0 { column += Self.columns }
      let cell = Self.cell(row: row, column: column)
      for slot in Int(starts[cell])..<Int(starts[cell + 1]) {
        let index = Int(indices[slot])
        let distance = Geography.distanceKm(point, coordinates[index])
        if let current = best, distance > current.distance || (distance == current.distance && index > current.index) {
          continue
        }
        best = (index, distance)
      }
    }
    /// The least distance to any point of `row`'s band of latitudes (0 inside it).
    func rowDistanceKm(_ row: Int) -> Double {
      let south = -90 + Double(row) * Self.cellDegrees
      let north = south + Self.cellDegrees
      return max(0, south - point.latitude, point.latitude - north) * kmPerDegree
    }

    var ring = 0
    while true {
      // Column offsets covering every column once: -ring...ring while they fit, else all columns.
      let allColumns = 2 * ring + 1 >= Self.columns
      let blockOffsets = allColumns ? (-ring..<(-ring + Self.columns)) : (-ring..<(ring + 1))
      // Offsets new in this ring for rows already visited: the two edge columns, or what remains.
      let newOffsets: [Int]
      if ring == 0 {
        newOffsets = []
      } else if !allColumns {
        newOffsets = [-ring, ring]
      } else if 2 * (ring - 1) + 1 < Self.columns {
        newOffsets = Array(ring..<(Self.columns - ring + 1))
      } else {
        newOffsets = []
      }
      for row in max(0, centreRow - ring)...min(Self.rows - 1, centreRow + ring) {
        if let current = best, rowDistanceKm(row) - Self.marginKm > current.distance { continue }
        if ring == 0 || abs(row - centreRow) == ring {
          for offset in blockOffsets { visit(row: row, columnOffset: offset) }
        } else {
          for offset in newOffsets { visit(row: row, columnOffset: offset) }
        }
      }
      let allRows = centreRow - ring <= 0 && centreRow + ring >= Self.rows - 1
      if allRows && allColumns { break }
      if let current = best {
        var bound = Double.infinity
        if centreRow - ring > 0 { bound = min(bound, rowDistanceKm(centreRow - ring - 1)) }
        if centreRow + ring < Self.rows - 1 { bound = min(bound, rowDistanceKm(centreRow + ring + 1)) }
        if !allColumns {
          let west = -180 + Double(centreColumn - ring) * Self.cellDegrees
          let east = -180 + Double(centreColumn + ring + 1) * Self.cellDegrees
          let gap = min(90, max(0, min(longitude - west, east - longitude)))
          let angle = asin(min(1, max(0, cosLatitude) * sin(gap * .pi / 180)))
          bound = min(bound, angle * Geography.earthRadiusKm)
        }
        if current.distance < bound - Self.marginKm { break }
      }
      ring += 1
    }
    return best?.index
  }
}

/// An ``AirportGrid`` built once, on first use, by whichever thread asks first (the others wait).
final class LazyAirportGrid: @unchecked Sendable {
  private let lock = NSLock()
  private var built: AirportGrid?

  /// The grid of `airports` (the same array on every call: the reference data's).
  func grid(_ airports: [Airport]) -> AirportGrid {
    lock.lock()
    defer { lock.unlock() }
    if let built { return built }
    let grid = AirportGrid(airports.map(\.coordinate))
    built = grid
    return grid
  }
}
