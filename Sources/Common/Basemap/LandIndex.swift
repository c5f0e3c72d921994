import Foundation

/// Whether a point is on land, exactly as the level's polygons say (even–odd rule over every
/// ring, so land minus lakes plus islands in lakes), in well under a microsecond.
///
/// The globe is cut into a grid of ``Basemap/LevelInfo/indexCellsPerDegree`` cells per degree.
/// Building (one pass over the edges, a few milliseconds for the intermediate level):
/// - each cell records whether its centre is on land: a scanline through the centres of each row
///   collects where the row crosses an edge (the crossing-number rule), and the cells between
///   the 1st and 2nd, 3rd and 4th, … crossing are inside;
/// - the cells an edge's bounding box touches are *mixed* and keep the list of those edges
///   (compressed: a bit set of mixed cells with rank counts, and one edge array).
///
/// A query in a cell that no edge touches is answered by the cell's centre. In a mixed cell, the
/// segment from the centre to the point can only cross the cell's own edges, and each crossing
/// flips inside and outside, so the answer is the centre's status flipped once per crossing.
/// Centres are offset by a fraction of a grid unit that no vertex can have, so a centre never
/// lies on a vertex. Vertices on the segment's line count on one side only (half-open), as in
/// the crossing-number rule, so a shore passing exactly through it is counted once.
public struct LandIndex: Sendable {
  let columns: Int
  let rows: Int
  /// Cell side in grid units.
  let cellSize: Double
  let unitsPerDegree: Double
  /// Offsets of cell centres (fractions of a grid unit, never a vertex).
  static let offsetX = 0.318_309_886
  static let offsetY = 0.271_828_183
  /// Bit per cell: centre on land.
  let status: [UInt64]
  /// Bit per cell: some edge touches the cell.
  let mixed: [UInt64]
  /// For each word of `mixed`, the mixed cells before it.
  let rankBase: [Int32]
  /// For mixed cell of rank `k`, its edges are `edges[edgeStart[k] ..< edgeStart[k + 1]]`: the
  /// index `a` of the edge `a → a+1` in the level's points.
  let edgeStart: [Int32]
  let edges: [Int32]
  let xs: [Int32]
  let ys: [Int32]

  /// Cells with at least one edge (for the README's figures and tests).
  public var mixedCellCount: Int { edgeStart.count - 1 }
  /// Cells in the grid.
  public var cellCount: Int { columns * rows }

  init(level: BasemapLevel) {
    self.init(
      xs: level.xs, ys: level.ys, ringStarts: level.ringStarts, unitsPerDegree: level.unitsPerDegree,
      cellsPerDegree: level.info.indexCellsPerDegree)
  }

  /// An index of closed rings (points in grid units; ring `r` is `ringStarts[r] ..< ringStarts[r+1]`,
  /// its last point equal to its first). `unitsPerDegree` must be a multiple of `cellsPerDegree`.
  init(xs: [Int32], ys: [Int32], ringStarts: [Int32], unitsPerDegree: Int, cellsPerDegree: Int) {
    self.xs = xs
    self.ys = ys
    self.unitsPerDegree = Double(unitsPerDegree)
    let columns = 360 * cellsPerDegree
    let rows = 180 * cellsPerDegree
    self.columns = columns
    self.rows = rows
    let side = max(1, unitsPerDegree / cellsPerDegree)
    let size = Double(side)
    cellSize = size
    let originX = -180 * Double(unitsPerDegree)
    let originY = -90 * Double(unitsPerDegree)
    let words = (columns * rows + 63) / 64
    // Each point's cell column and row, once (integer division: the cell side is whole units).
    let count = xs.count
    var cellX = [Int32](repeating: 0, count: count)
    var cellY = [Int32](repeating: 0, count: count)
    let shiftX = 180 * unitsPerDegree
    let shiftY = 90 * unitsPerDegree
    xs.withUnsafeBufferPointer { xs in
      ys.withUnsafeBufferPointer { ys in
        for i in 0..<count {
          cellX[i] = Int32(min(columns - 1, max(0, (Int(xs[i]) + shiftX) / side)))
          cellY[i] = Int32(min(rows - 1, max(0, (Int(ys[i]) + shiftY) / side)))
        }
      }
    }
    /// Calls `body` with each edge `a → a+1` of every ring and its cell box.
    func forEachEdge(_ body: (_ a: Int, _ c0: Int, _ c1: Int, _ r0: Int, _ r1: Int) -> Void) {
      for ring in 0..<ringStarts.count - 1 {
        let start = Int(ringStarts[ring])
        let end = Int(ringStarts[ring + 1])
        guard end - start >= 2 else { continue }
        for a in start..<end - 1 {
          let ca = Int(cellX[a])
          let cb = Int(cellX[a + 1])
          let ra = Int(cellY[a])
          let rb = Int(cellY[a + 1])
          body(a, min(ca, cb), max(ca, cb), min(ra, rb), max(ra, rb))
        }
      }
    }
    // Pass 1: mark mixed cells, collect the scanline crossings (row, x).
    var mixed = [UInt64](repeating: 0, count: words)
    var crossingRows: [Int32] = []
    var crossingXs: [Double] = []
    mixed.withUnsafeMutableBufferPointer { mixed in
      forEachEdge { a, c0, c1, r0, r1 in
        for r in r0...r1 {
          for c in c0...c1 {
            let cell = r * columns + c
            mixed[cell >> 6] |= 1 << UInt64(cell & 63)
          }
        }
        let ay = ys[a]
        let by = ys[a + 1]
        guard ay != by else { return }
        // Rows whose centre line y_c lies strictly between the endpoints' latitudes.
        let low = Double(min(ay, by))
        let high = Double(max(ay, by))
        let first = max(0, Int(((low - originY - Self.offsetY) / size - 0.5).rounded(.up)))
        let last = min(rows - 1, Int(((high - originY - Self.offsetY) / size - 0.5).rounded(.down)))
        guard first <= last else { return }
        let ax = Double(xs[a])
        let slope = Double(xs[a + 1] - xs[a]) / Double(by - ay)
        for r in first...last {
          let yc = originY + (Double(r) + 0.5) * size + Self.offsetY
          guard (Double(ay) > yc) != (Double(by) > yc) else { continue }
          crossingRows.append(Int32(r))
          crossingXs.append(ax + (yc - Double(ay)) * slope)
        }
      }
    }
    // Rank of each mixed cell.
    var rankBase = [Int32](repeating: 0, count: words + 1)
    for word in 0..<words { rankBase[word + 1] = rankBase[word] + Int32(mixed[word].nonzeroBitCount) }
    let mixedCount = Int(rankBase[words])
    func rank(_ cell: Int) -> Int {
      let word = cell >> 6
      let below = mixed[word] & ((1 << UInt64(cell & 63)) &- 1)
      return Int(rankBase[word]) + below.nonzeroBitCount
    }
    // Passes 2 and 3: count, then place, each edge in its cells (through buffer pointers: no
    // copy-on-write checks in the loops).
    var edgeStart = [Int32](repeating: 0, count: mixedCount + 1)
    edgeStart.withUnsafeMutableBufferPointer { counts in
      forEachEdge { _, c0, c1, r0, r1 in
        for r in r0...r1 {
          for c in c0...c1 { counts[rank(r * columns + c) + 1] += 1 }
        }
      }
      for k in 0..<mixedCount { counts[k + 1] += counts[k] }
    }
    var fill = Array(edgeStart.dropLast())
    var edges = [Int32](repeating: 0, count: Int(edgeStart[mixedCount]))
    fill.withUnsafeMutableBufferPointer { fill in
      edges.withUnsafeMutableBufferPointer { edges in
        forEachEdge { a, c0, c1, r0, r1 in
          for r in r0...r1 {
            for c in c0...c1 {
              let k = rank(r * columns + c)
              edges[Int(fill[k])] = Int32(a)
              fill[k] += 1
            }
          }
        }
      }
    }
    // Centres: per row, the crossings sorted; cells between pairs of crossings are inside.
    var status = [UInt64](repeating: 0, count: words)
    var rowStart = [Int](repeating: 0, count: rows + 1)
    for r in crossingRows { rowStart[Int(r) + 1] += 1 }
    for r in 0..<rows { rowStart[r + 1] += rowStart[r] }
    var byRow = [Double](repeating: 0, count: crossingXs.count)
    var cursor = rowStart
    for (i, r) in crossingRows.enumerated() {
      byRow[cursor[Int(r)]] = crossingXs[i]
      cursor[Int(r)] += 1
    }
    for r in 0..<rows where rowStart[r + 1] > rowStart[r] {
      byRow[rowStart[r]..<rowStart[r + 1]].sort()
      var k = rowStart[r]
      while k + 1 < rowStart[r + 1] {
        // Cells whose centre x_c satisfies left < x_c < right.
        let left = byRow[k]
        let right = byRow[k + 1]
        let c0 = max(0, Int(((left - originX - Self.offsetX) / size - 0.5).rounded(.up)))
        let c1 = min(columns - 1, Int(((right - originX - Self.offsetX) / size - 0.5).rounded(.down)))
        if c0 <= c1 { Self.setBits(&status, from: r * columns + c0, through: r * columns + c1) }
        k += 2
      }
    }
    self.status = status
    self.mixed = mixed
    self.rankBase = rankBase
    self.edgeStart = edgeStart
    self.edges = edges
  }

  private static func setBits(_ bits: inout [UInt64], from first: Int, through last: Int) {
    var word = first >> 6
    let lastWord = last >> 6
    let headMask: UInt64 = ~0 << UInt64(first & 63)
    let tailMask: UInt64 = (last & 63) == 63 ? ~0 : (1 << UInt64((last & 63) + 1)) - 1
    if word == lastWord {
      bits[word] |= headMask & tailMask
      return
    }
    bits[word] |= headMask
    word += 1
    while word < lastWord {
      bits[word] = ~0
      word += 1
    }
    bits[lastWord] |= tailMask
  }

  /// Whether (`latitude`, `longitude`) in degrees is on land. Longitudes wrap (any value), latitudes
  /// clamp to −90…90.
  public func isLand(latitude: Double, longitude: Double) -> Bool {
    guard latitude.isFinite, longitude.isFinite else { return false }
    var lon = longitude
    if lon < -180 || lon > 180 {
      lon = (lon + 180).truncatingRemainder(dividingBy: 360)
      if lon < 0 { lon += 360 }
      lon -= 180
    }
    let lat = min(90, max(-90, latitude))
    let x = (lon + 180) * unitsPerDegree
    let y = (lat + 90) * unitsPerDegree
    let column = min(columns - 1, max(0, Int(x / cellSize)))
    let row = min(rows - 1, max(0, Int(y / cellSize)))
    let cell = row * columns + column
    let word = cell >> 6
    let bit: UInt64 = 1 << UInt64(cell & 63)
    var inside = status[word] & bit != 0
    guard mixed[word] & bit != 0 else { return inside }
    let k = Int(rankBase[word]) + (mixed[word] & (bit &- 1)).nonzeroBitCount
    // The point and the centre, relative to the grid's origin (−180°, −90°) in grid units.
    let originX = -180 * unitsPerDegree
    let originY = -90 * unitsPerDegree
    let cx = (Double(column) + 0.5) * cellSize + Self.offsetX + originX
    let cy = (Double(row) + 0.5) * cellSize + Self.offsetY + originY
    let px = x + originX - cx
    let py = y + originY - cy
    for e in Int(edgeStart[k])..<Int(edgeStart[k + 1]) {
      let a = Int(edges[e])
      let ax = Double(xs[a]) - cx
      let ay = Double(ys[a]) - cy
      let bx = Double(xs[a + 1]) - cx
      let by = Double(ys[a + 1]) - cy
      // A and B on different sides of the line through C and P (on the line counts as one side)…
      let da = px * ay - py * ax
      let db = px * by - py * bx
      guard (da > 0) != (db > 0) else { continue }
      // … and C (the origin) and P on different sides of the line through A and B.
      let ex = bx - ax
      let ey = by - ay
      let ec = ex * -ay - ey * -ax
      let ep = ex * (py - ay) - ey * (px - ax)
      if (ec > 0) != (ep > 0) { inside.toggle() }
    }
    return inside
  }
}
