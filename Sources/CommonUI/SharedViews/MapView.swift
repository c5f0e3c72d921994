import Foundation

/// A point on the map: one place (`count` 1) or a cluster of `count` places drawn at its centre.
public struct MapMarker: Hashable, Sendable {
  /// Degrees, −90…90 (north positive).
  public var latitude: Double
  /// Degrees, −180…180 (east positive).
  public var longitude: Double
  /// Places the marker stands for (1 = a single place).
  public var count: Int

  public init(latitude: Double, longitude: Double, count: Int = 1) {
    self.latitude = latitude
    self.longitude = longitude
    self.count = count
  }
}

/// The part of the world a map region covers, in degrees (what a clustering index is asked for).
public struct MapRegion: Hashable, Sendable {
  public var minLatitude: Double
  public var maxLatitude: Double
  public var minLongitude: Double
  public var maxLongitude: Double

  public func contains(latitude: Double, longitude: Double) -> Bool {
    latitude >= minLatitude && latitude <= maxLatitude && longitude >= minLongitude && longitude <= maxLongitude
  }
}

/// Where the map looks: a centre and a zoom level, changed by keys. Kept by the screen.
///
/// Zoom 0 shows 360° of longitude across the map; each level halves that (zoom 10 ≈ 0.35°, a
/// city). Longitude is scaled by cos(latitude of the centre), so shapes near the centre keep
/// their proportions (an equirectangular projection centred on the view; braille dots are
/// square, two columns by four rows per cell).
///
/// Keys (``handle(_:)``): arrows pan by a quarter of the view, `+`/`=` zoom in, `-` zoom out,
/// `0` back to the whole world.
public struct MapViewport: Hashable, Sendable {
  public var latitude: Double
  public var longitude: Double
  /// 0…18.
  public var zoom: Int

  public static let maximumZoom = 18

  public init(latitude: Double = 20, longitude: Double = 0, zoom: Int = 0) {
    self.latitude = min(85, max(-85, latitude))
    self.longitude = longitude
    self.zoom = min(Self.maximumZoom, max(0, zoom))
  }

  /// Degrees of longitude per braille dot at the centre's latitude, for a map `dotWidth` dots wide.
  func degreesPerDot(dotWidth: Int) -> (longitude: Double, latitude: Double) {
    let lonSpan = 360 / Double(1 << zoom)
    let perDot = lonSpan / Double(max(1, dotWidth))
    return (perDot, perDot * max(0.05, cos(latitude * .pi / 180)))
  }

  /// The region shown by a map of `width` × `height` cells centred on the viewport.
  public func region(width: Int, height: Int) -> MapRegion {
    let step = degreesPerDot(dotWidth: width * 2)
    let halfLon = step.longitude * Double(width * 2) / 2
    let halfLat = step.latitude * Double(height * 4) / 2
    return MapRegion(
      minLatitude: latitude - halfLat, maxLatitude: latitude + halfLat, minLongitude: longitude - halfLon,
      maxLongitude: longitude + halfLon)
  }

  /// Applies a map key. - Returns: whether the key was used.
  public mutating func handle(_ key: Key) -> Bool {
    let lonSpan = 360 / Double(1 << zoom)
    let latSpan = lonSpan / 2
    switch key {
    case .left: longitude -= lonSpan / 4
    case .right: longitude += lonSpan / 4
    case .up: latitude = min(85, latitude + latSpan / 4)
    case .down: latitude = max(-85, latitude - latSpan / 4)
    case .character("+"), .character("="): zoom = min(Self.maximumZoom, zoom + 1)
    case .character("-"), .character("_"): zoom = max(0, zoom - 1)
    case .character("0"): self = MapViewport()
    default: return false
    }
    if longitude > 180 { longitude -= 360 }
    if longitude < -180 { longitude += 360 }
    return true
  }
}

/// A braille map of markers: each marker a dot, each cluster a 2 × 2 block of dots with its
/// count written beside it where there is room (the largest clusters first, never overlapping);
/// a bottom line gives the zoom, the centre and how many places are on screen.
///
/// It draws what it is given — clustering is the caller's (e.g. a hotel index that returns the
/// clusters of ``MapViewport/region(width:height:)``); markers outside the view are skipped.
/// Rendering is one multiply-add per marker plus a bit set, so 100,000 markers fit well within a
/// frame (see the Performance section of the README).
public struct MapView: Widget {
  public var markers: [MapMarker]
  public var viewport: MapViewport
  public var title: String?

  public init(markers: [MapMarker], viewport: MapViewport, title: String? = nil) {
    self.markers = markers
    self.viewport = viewport
    self.title = title
  }

  /// The cells the braille canvas gets inside `area` (border and status line excluded): use it
  /// to ask the index for ``MapViewport/region(width:height:)``.
  public static func canvasArea(in area: Rect) -> Rect { area.inset(top: 1, left: 1, bottom: 2, right: 1) }

  /// The map's keys, for a screen's footer.
  public static let keyHints = [KeyHint("←↑→↓", "pan"), KeyHint("+ -", "zoom"), KeyHint("0", "world")]

  /// Labels written at most, largest clusters first.
  static let maximumLabels = 48

  public func render(in area: Rect, into buffer: inout Buffer) {
    guard area.width >= 6, area.height >= 4 else { return }
    Block(title: title).render(in: area, into: &buffer)
    let mapArea = Self.canvasArea(in: area)
    var canvas = BrailleCanvas(width: mapArea.width, height: mapArea.height)
    let dotWidth = canvas.dotWidth
    let dotHeight = canvas.dotHeight
    let step = viewport.degreesPerDot(dotWidth: dotWidth)
    let left = viewport.longitude - step.longitude * Double(dotWidth) / 2
    let top = viewport.latitude + step.latitude * Double(dotHeight) / 2
    let xScale = 1 / step.longitude
    let yScale = 1 / step.latitude
    let markerStyle = buffer.theme.marker
    let clusterStyle = buffer.theme.cluster
    var shown = 0
    var clusters: [(count: Int, x: Int, y: Int)] = []
    for marker in markers {
      var dx = (marker.longitude - left)
      if dx < 0 { dx += 360 } else if dx >= 360 { dx -= 360 }
      let fx = dx * xScale
      let fy = (top - marker.latitude) * yScale
      guard fx >= 0, fy >= 0, fx < Double(dotWidth), fy < Double(dotHeight) else { continue }
      let x = Int(fx)
      let y = Int(fy)
      shown += marker.count
      if marker.count > 1 {
        let bx = min(x, dotWidth - 2)
        let by = min(y, dotHeight - 2)
        canvas.setUnchecked(bx, by, clusterStyle)
        canvas.setUnchecked(bx + 1, by, clusterStyle)
        canvas.setUnchecked(bx, by + 1, clusterStyle)
        canvas.setUnchecked(bx + 1, by + 1, clusterStyle)
        clusters.append((marker.count, x, y))
      } else {
        canvas.setUnchecked(x, y, markerStyle)
      }
    }
    // Count labels beside the biggest clusters, without overlapping each other.
    if !clusters.isEmpty {
      if clusters.count > Self.maximumLabels {
        clusters.sort { $0.count > $1.count }
      }
      var taken = Set<Int>()
      var placed = 0
      for cluster in clusters where placed < Self.maximumLabels {
        let text = Self.abbreviated(cluster.count)
        let column = cluster.x / 2 + 1
        let row = cluster.y / 4
        let width = text.count
        guard column + width <= mapArea.width else { continue }
        let cells = (column..<column + width).map { row * mapArea.width + $0 }
        guard cells.allSatisfy({ !taken.contains($0) }) else { continue }
        cells.forEach { taken.insert($0) }
        canvas.label(text, x: column, y: row, style: clusterStyle)
        placed += 1
      }
    }
    canvas.render(in: mapArea, into: &buffer)
    let ns = viewport.latitude >= 0 ? "N" : "S"
    let ew = viewport.longitude >= 0 ? "E" : "W"
    let center =
      String(format: "%.2f", abs(viewport.latitude)) + "°\(ns) " + String(format: "%.2f", abs(viewport.longitude))
      + "°\(ew)"
    let status = "zoom \(viewport.zoom) · \(center) · \(shown) shown"
    Label(status, style: buffer.theme.muted)
      .render(in: Rect(x: area.x + 1, y: area.bottom - 2, width: area.width - 2, height: 1), into: &buffer)
  }

  /// 1234 → "1.2k", 56789 → "57k", 1234567 → "1.2M".
  static func abbreviated(_ count: Int) -> String {
    switch count {
    case ..<1000: "\(count)"
    case ..<10000: "\(count / 1000).\(count % 1000 / 100)k"
    case ..<1_000_000: "\(count / 1000)k"
    default: "\(count / 1_000_000).\(count % 1_000_000 / 100_000)M"
    }
  }
}
