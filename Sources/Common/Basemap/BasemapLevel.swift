import Foundation
import Synchronization

/// A run of consecutive points of a level's coast or border arrays, with its bounding box: what a
/// map culls against its view before drawing the run's segments.
public struct PolylineRun: Sendable, Hashable {
  /// The first and last point (inclusive) of the run in the level's arrays; its segments are
  /// `first → first+1 → … → last`.
  public var first: Int32
  public var last: Int32
  /// Bounding box in grid units.
  public var minX: Int32
  public var minY: Int32
  public var maxX: Int32
  public var maxY: Int32
  /// For coast runs the GSHHG level of the ring (1 land, 2 lake, 3 island in a lake, 4 pond,
  /// 5 Antarctica); 0 for a border.
  public var kind: UInt8
}

/// One level of detail of the ``Basemap``, decoded: the rings (land, lakes, islands in lakes,
/// Antarctica) and the country borders, as grid coordinates, plus runs of at most
/// ``runLength`` segments for culling, and the level's ``LandIndex`` built on first use.
///
/// Coordinates are integers in grid units: longitude × ``unitsPerDegree`` (−180…180 east positive)
/// and latitude × ``unitsPerDegree`` (−90…90 north positive). Every ring is closed (its first point
/// repeated at its end), never crosses the antimeridian (GSHHG cuts such polygons in two along it),
/// and the artificial edges of a cut (along ±180°, 0° for Antarctica, and the South Pole) are
/// left out of ``coastRuns``, so only real shores are drawn.
public final class BasemapLevel: Sendable {
  /// Segments per run at most.
  public static let runLength = 32

  public let info: Basemap.LevelInfo
  /// GSHHG resolution letter.
  public var name: Character { info.name }
  public var unitsPerDegree: Int { info.unitsPerDegree }
  public let degreesPerUnit: Double
  /// Ring points (closed rings), grid units.
  public let xs: [Int32]
  public let ys: [Int32]
  /// Ring `r` is points `ringStarts[r] ..< ringStarts[r + 1]`.
  public let ringStarts: [Int32]
  /// GSHHG level of each ring (1–5); 0x80 set on a ring cut along a meridian.
  public let ringKinds: [UInt8]
  /// Border line points, grid units; line `b` is `borderStarts[b] ..< borderStarts[b + 1]`.
  public let borderXs: [Int32]
  public let borderYs: [Int32]
  public let borderStarts: [Int32]
  /// The shores, in runs of at most ``runLength`` segments (points in ``xs``/``ys``).
  public let coastRuns: [PolylineRun]
  /// The borders, in runs of at most ``runLength`` segments (points in ``borderXs``/``borderYs``).
  public let borderRuns: [PolylineRun]
  private let landIndex = Mutex<LandIndex?>(nil)

  /// Decodes a level body written by ``BasemapCompiler``.
  /// - Throws: ``SharedResources/Failure/malformed(path:reason:)`` when the body is truncated or
  ///   its counts disagree with the directory.
  init(info: Basemap.LevelInfo, body: [UInt8]) throws {
    self.info = info
    degreesPerUnit = 1 / Double(info.unitsPerDegree)
    func malformed(_ reason: String) -> SharedResources.Failure {
      .malformed(path: BasemapCompiler.compiledPath, reason: "level \(info.name): \(reason)")
    }
    let limitX = Int64(180 * info.unitsPerDegree)
    let limitY = Int64(90 * info.unitsPerDegree)
    var reader = BinaryReader(body)
    var xs: [Int32] = []
    var ys: [Int32] = []
    xs.reserveCapacity(info.ringPointCount + info.ringCount)
    ys.reserveCapacity(info.ringPointCount + info.ringCount)
    var starts: [Int32] = [0]
    var kinds: [UInt8] = []
    starts.reserveCapacity(info.ringCount + 1)
    kinds.reserveCapacity(info.ringCount)
    func readPoints(_ xs: inout [Int32], _ ys: inout [Int32], minimum: Int) throws -> Int {
      let count = Int(try reader.varint())
      guard count >= minimum, count <= body.count else { throw malformed("a shape of \(count) points") }
      var x: Int64 = 0
      var y: Int64 = 0
      for _ in 0..<count {
        x += try reader.signedVarint()
        y += try reader.signedVarint()
        guard abs(x) <= limitX, abs(y) <= limitY else { throw malformed("a point off the globe") }
        xs.append(Int32(x))
        ys.append(Int32(y))
      }
      return count
    }
    do {
      for _ in 0..<info.ringCount {
        let kind = try reader.u8()
        guard (1...5).contains(kind & 0x7F) else { throw malformed("ring kind \(kind)") }
        let first = xs.count
        _ = try readPoints(&xs, &ys, minimum: 3)
        xs.append(xs[first])
        ys.append(ys[first])
        starts.append(Int32(xs.count))
        kinds.append(kind)
      }
      var borderXs: [Int32] = []
      var borderYs: [Int32] = []
      var borderStarts: [Int32] = [0]
      borderXs.reserveCapacity(info.borderPointCount)
      borderYs.reserveCapacity(info.borderPointCount)
      for _ in 0..<info.borderCount {
        _ = try readPoints(&borderXs, &borderYs, minimum: 2)
        borderStarts.append(Int32(borderXs.count))
      }
      guard reader.isAtEnd else { throw malformed("\(body.count - reader.offset) bytes after the borders") }
      self.borderXs = borderXs
      self.borderYs = borderYs
      self.borderStarts = borderStarts
    } catch is BinaryReader.Truncated {
      throw malformed("truncated")
    }
    guard xs.count == info.ringPointCount + info.ringCount else { throw malformed("ring point count") }
    self.xs = xs
    self.ys = ys
    ringStarts = starts
    ringKinds = kinds
    coastRuns = Self.runs(
      xs: xs, ys: ys, starts: starts, kinds: kinds, unitsPerDegree: info.unitsPerDegree)
    borderRuns = Self.runs(
      xs: self.borderXs, ys: self.borderYs, starts: self.borderStarts, kinds: nil, unitsPerDegree: info.unitsPerDegree)
  }

  /// Whether the edge `a → a+1` of a cut ring is one of the cut's artificial edges: along ±180°,
  /// along 0° (Antarctica's cut), or along the South Pole.
  static func isArtificial(
    _ ax: Int32, _ ay: Int32, _ bx: Int32, _ by: Int32, kind: UInt8, unitsPerDegree: Int
  ) -> Bool {
    guard kind & 0x80 != 0 else { return false }
    let edge = Int32(180 * unitsPerDegree)
    let pole = -Int32(90 * unitsPerDegree)
    if ax == bx && (ax == edge || ax == -edge || (ax == 0 && kind & 0x7F == 5)) { return true }
    return ay == pole && by == pole
  }

  private static func runs(
    xs: [Int32], ys: [Int32], starts: [Int32], kinds: [UInt8]?, unitsPerDegree: Int
  ) -> [PolylineRun] {
    var runs: [PolylineRun] = []
    runs.reserveCapacity(xs.count / runLength + starts.count)
    for shape in 0..<starts.count - 1 {
      let start = Int(starts[shape])
      let end = Int(starts[shape + 1])
      let kind = kinds?[shape] ?? 0
      var first = start
      var point = start
      func close(at last: Int) {
        guard last > first else { return }
        var run = PolylineRun(
          first: Int32(first), last: Int32(last), minX: .max, minY: .max, maxX: .min, maxY: .min, kind: kind & 0x7F)
        for i in first...last {
          run.minX = min(run.minX, xs[i])
          run.maxX = max(run.maxX, xs[i])
          run.minY = min(run.minY, ys[i])
          run.maxY = max(run.maxY, ys[i])
        }
        runs.append(run)
      }
      while point < end - 1 {
        if isArtificial(xs[point], ys[point], xs[point + 1], ys[point + 1], kind: kind, unitsPerDegree: unitsPerDegree)
        {
          close(at: point)
          first = point + 1
        } else if point + 1 - first >= runLength {
          close(at: point + 1)
          first = point + 1
        }
        point += 1
      }
      close(at: end - 1)
    }
    return runs
  }

  /// The level's land index (even–odd over every ring: land minus lakes, plus islands in lakes),
  /// built on first use (a few milliseconds for the intermediate level).
  public func land() -> LandIndex {
    landIndex.withLock { index in
      if let index { return index }
      let built = LandIndex(level: self)
      index = built
      return built
    }
  }

  /// Whether the point is on land at this level (see ``LandIndex/isLand(latitude:longitude:)``).
  public func isLand(latitude: Double, longitude: Double) -> Bool {
    land().isLand(latitude: latitude, longitude: longitude)
  }
}
