import Common
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

/// Where a map puts a longitude and latitude: dot coordinates of an equirectangular projection
/// centred on the viewport (see ``MapViewport``), `x = (lon − left) × xScale`,
/// `y = (top − lat) × yScale`.
public struct MapProjection: Sendable {
  /// Longitude of the left edge and latitude of the top edge, degrees.
  public let left: Double
  public let top: Double
  /// Dots per degree of longitude and of latitude.
  public let xScale: Double
  public let yScale: Double
  public let dotWidth: Int
  public let dotHeight: Int

  public init(viewport: MapViewport, dotWidth: Int, dotHeight: Int) {
    let step = viewport.degreesPerDot(dotWidth: dotWidth)
    left = viewport.longitude - step.longitude * Double(dotWidth) / 2
    top = viewport.latitude + step.latitude * Double(dotHeight) / 2
    xScale = 1 / step.longitude
    yScale = 1 / step.latitude
    self.dotWidth = dotWidth
    self.dotHeight = dotHeight
  }

  /// Longitude of the right edge (may pass 180) and latitude of the bottom edge (may pass −90).
  public var right: Double { left + Double(dotWidth) / xScale }
  public var bottom: Double { top - Double(dotHeight) / yScale }

  /// The dot of a place, its longitude taken in the copy of the world the view shows; nil off the view.
  public func dot(latitude: Double, longitude: Double) -> (x: Double, y: Double)? {
    var dx = longitude - left
    dx -= 360 * (dx / 360).rounded(.down)
    let fx = dx * xScale
    let fy = (top - latitude) * yScale
    guard fx >= 0, fy >= 0, fx < Double(dotWidth), fy < Double(dotHeight) else { return nil }
    return (fx, fy)
  }
}

/// A braille map of markers over the world: each marker a dot, each cluster a 2 × 2 block of dots
/// with its count written beside it where there is room (the largest clusters first, never
/// overlapping); a bottom line gives the zoom, the centre and how many places are on screen.
///
/// Given a ``Basemap`` (Common), the ground is drawn first at the level of detail of the zoom:
/// land and water told apart (colour themes fill the cells' backgrounds; the monochrome theme
/// puts a faint dot in every fourth land cell left empty, a regular texture), shores and lake
/// shores as lines, country
/// borders dotted from zoom 3; given ``MapPlaces``, cities (and from zoom 7 airports) are named,
/// most important first, where a name fits without covering another name, a marker or a count.
///
/// It draws what it is given — clustering is the caller's (e.g. a hotel index that returns the
/// clusters of ``MapViewport/region(width:height:)``); markers outside the view are skipped.
/// Rendering is one multiply-add per marker plus a bit set, so 100,000 markers fit well within a
/// frame (see the Performance section of the README).
public struct MapView: Widget {
  public var markers: [MapMarker]
  public var viewport: MapViewport
  public var title: String?
  /// The ground under the markers; nil draws them on a blank field.
  public var basemap: Basemap?
  /// The places to name; nil names none.
  public var places: MapPlaces?

  public init(
    markers: [MapMarker], viewport: MapViewport, title: String? = nil, basemap: Basemap? = nil,
    places: MapPlaces? = nil
  ) {
    self.markers = markers
    self.viewport = viewport
    self.title = title
    self.basemap = basemap
    self.places = places
  }

  /// The cells the braille canvas gets inside `area` (border and status line excluded): use it
  /// to ask the index for ``MapViewport/region(width:height:)``.
  public static func canvasArea(in area: Rect) -> Rect { area.inset(top: 1, left: 1, bottom: 2, right: 1) }

  /// The map's keys, for a screen's footer.
  public static let keyHints = [KeyHint("←↑→↓", "pan"), KeyHint("+ -", "zoom"), KeyHint("0", "world")]

  /// Count labels written at most, largest clusters first.
  static let maximumLabels = 48
  /// Borders are drawn from this zoom on (below it they are noise at a cell's size).
  public static let borderZoom = 3

  public func render(in area: Rect, into buffer: inout Buffer) {
    guard area.width >= 6, area.height >= 4 else { return }
    Block(title: title).render(in: area, into: &buffer)
    let mapArea = Self.canvasArea(in: area)
    var canvas = BrailleCanvas(width: mapArea.width, height: mapArea.height)
    let projection = MapProjection(viewport: viewport, dotWidth: canvas.dotWidth, dotHeight: canvas.dotHeight)
    let theme = buffer.theme
    var land: [Bool] = []
    if let basemap, let level = try? basemap.level(forZoom: viewport.zoom) {
      land = Self.drawGround(level, projection, zoom: viewport.zoom, theme: theme, into: &canvas)
    }
    var taken = [Bool](repeating: false, count: mapArea.width * mapArea.height)
    let shown = drawMarkers(projection, theme: theme, taken: &taken, into: &canvas)
    Self.drawLandTexture(land, theme: theme, into: &canvas)
    if let places {
      Self.label(places, projection, zoom: viewport.zoom, theme: theme, taken: &taken, into: &canvas)
    }
    canvas.render(in: mapArea, into: &buffer)
    let ns = viewport.latitude >= 0 ? "N" : "S"
    let ew = viewport.longitude >= 0 ? "E" : "W"
    let center =
      String(format: "%.2f", abs(viewport.latitude)) + "°\(ns) " + String(format: "%.2f", abs(viewport.longitude))
      + "°\(ew)"
    let status = L("zoom \(viewport.zoom) · \(center) · \(shown) shown")
    Label(status, style: buffer.theme.muted)
      .render(in: Rect(x: area.x + 1, y: area.bottom - 2, width: area.width - 2, height: 1), into: &buffer)
  }

  /// Markers and cluster counts; marks the cells they use in `taken`. - Returns: places shown.
  private func drawMarkers(
    _ projection: MapProjection, theme: Theme, taken: inout [Bool], into canvas: inout BrailleCanvas
  ) -> Int {
    let dotWidth = canvas.dotWidth
    let dotHeight = canvas.dotHeight
    let width = canvas.width
    let left = projection.left
    let top = projection.top
    let xScale = projection.xScale
    let yScale = projection.yScale
    let markerStyle = theme.marker
    let clusterStyle = theme.cluster
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
        taken[(by >> 2) * width + (bx >> 1)] = true
        taken[((by + 1) >> 2) * width + ((bx + 1) >> 1)] = true
        clusters.append((marker.count, x, y))
      } else {
        canvas.setUnchecked(x, y, markerStyle)
        taken[(y >> 2) * width + (x >> 1)] = true
      }
    }
    // Count labels beside the biggest clusters, without overlapping each other.
    if !clusters.isEmpty {
      if clusters.count > Self.maximumLabels {
        clusters.sort { $0.count > $1.count }
      }
      var labelled = [Bool](repeating: false, count: taken.count)
      var placed = 0
      for cluster in clusters where placed < Self.maximumLabels {
        let text = Self.abbreviated(cluster.count)
        let column = cluster.x / 2 + 1
        let row = cluster.y / 4
        let textWidth = text.count
        guard column + textWidth <= width else { continue }
        let cells = (column..<column + textWidth).map { row * width + $0 }
        guard cells.allSatisfy({ !labelled[$0] }) else { continue }
        for cell in cells {
          labelled[cell] = true
          taken[cell] = true
        }
        canvas.label(text, x: column, y: row, style: clusterStyle)
        placed += 1
      }
    }
    return shown
  }

  /// Monochrome themes only: a faint dot in every other land cell of every other row, staggered
  /// (a light, regular texture that irregular markers stand out from), where nothing else was
  /// drawn. Call it after the markers. `land` is ``drawGround(_:_:zoom:theme:into:)``'s result.
  public static func drawLandTexture(_ land: [Bool], theme: Theme, into canvas: inout BrailleCanvas) {
    guard !land.isEmpty, !theme.usesColor else { return }
    let width = canvas.width
    for cell in 0..<min(land.count, width * canvas.height) where land[cell] {
      let column = cell % width
      let row = cell / width
      if row & 1 == 0, column & 1 == (row >> 1) & 1, canvas.pattern(cellX: column, cellY: row) == 0 {
        canvas.set(dotX: column * 2, dotY: row * 4 + 2, style: theme.mapLand)
      }
    }
  }

  /// The ground of `level`: land/water per cell (returned, row by row; filled in colour themes),
  /// shores, and borders from ``borderZoom``. For maps that draw their own markers over the
  /// ground (the radar); then ``drawLandTexture(_:theme:into:)`` and
  /// ``label(_:_:zoom:theme:taken:into:)``.
  public static func drawGround(
    _ level: BasemapLevel, _ projection: MapProjection, zoom: Int, theme: Theme, into canvas: inout BrailleCanvas
  ) -> [Bool] {
    let width = canvas.width
    let height = canvas.height
    let landIndex = level.land()
    var land = [Bool](repeating: false, count: width * height)
    for row in 0..<height {
      let latitude = projection.top - (Double(row * 4) + 2) / projection.yScale
      guard latitude > -90, latitude < 90 else { continue }
      for column in 0..<width {
        let longitude = projection.left + (Double(column * 2) + 1) / projection.xScale
        let isLand = landIndex.isLand(latitude: latitude, longitude: longitude)
        land[row * width + column] = isLand
        if theme.usesColor {
          canvas.fill(cellX: column, cellY: row, style: isLand ? theme.mapLand : theme.mapWater)
        }
      }
    }
    drawRuns(
      level.coastRuns, xs: level.xs, ys: level.ys, level: level, projection, style: theme.mapCoast, dotted: false,
      into: &canvas)
    if zoom >= borderZoom {
      drawRuns(
        level.borderRuns, xs: level.borderXs, ys: level.borderYs, level: level, projection, style: theme.mapBorder,
        dotted: true, into: &canvas)
    }
    return land
  }

  /// Draws the segments of the runs that meet the view (each copy of the world the view shows).
  static func drawRuns(
    _ runs: [PolylineRun], xs: [Int32], ys: [Int32], level: BasemapLevel, _ projection: MapProjection, style: Style,
    dotted: Bool, into canvas: inout BrailleCanvas
  ) {
    let unit = level.degreesPerUnit
    let perDegree = Double(level.unitsPerDegree)
    let south = max(-90, projection.bottom)
    let north = min(90, projection.top)
    guard south < north else { return }
    let minY = Int32((south * perDegree).rounded(.down))
    let maxY = Int32((north * perDegree).rounded(.up))
    for shift in [-360.0, 0, 360] {
      // The view, in the coordinates of the copy of the world shifted by `shift` degrees.
      let west = max(-180, projection.left - shift)
      let east = min(180, projection.right - shift)
      guard west < east else { continue }
      let minX = Int32((west * perDegree).rounded(.down))
      let maxX = Int32((east * perDegree).rounded(.up))
      let xScale = unit * projection.xScale
      let xOffset = (shift - projection.left) * projection.xScale
      let yScale = unit * projection.yScale
      let yOffset = projection.top * projection.yScale
      for run in runs where run.maxX >= minX && run.minX <= maxX && run.maxY >= minY && run.minY <= maxY {
        var previous = (
          x: Double(xs[Int(run.first)]) * xScale + xOffset, y: yOffset - Double(ys[Int(run.first)]) * yScale
        )
        var i = Int(run.first) + 1
        let last = Int(run.last)
        while i <= last {
          let point = (x: Double(xs[i]) * xScale + xOffset, y: yOffset - Double(ys[i]) * yScale)
          // Skip points that stay in the same dot (coarse zooms): draw when the dot changes.
          if Int(point.x) != Int(previous.x) || Int(point.y) != Int(previous.y) || i == last {
            canvas.line(from: previous, to: point, style: style, dotted: dotted)
            previous = point
          }
          i += 1
        }
      }
    }
  }

  /// Names places where they fit: centred on the place, else right or left of it, with a blank
  /// cell around each name; never over a marker, a count or another name (`taken`: one flag per
  /// canvas cell, row by row, set where something is drawn; names set their cells too).
  public static func label(
    _ places: MapPlaces, _ projection: MapProjection, zoom: Int, theme: Theme, taken: inout [Bool],
    into canvas: inout BrailleCanvas
  ) {
    let width = canvas.width
    let height = canvas.height
    let limit = max(3, width * height / 200)
    // Places tried at most (in view, their spot free): the most important ones decide.
    var tries = limit * 20
    var placed = 0
    func place(_ place: MapPlace, style: Style) {
      guard let (fx, fy) = projection.dot(latitude: place.latitude, longitude: place.longitude),
        fx >= 0, fy >= 0, fx < Double(canvas.dotWidth), fy < Double(canvas.dotHeight)
      else { return }
      let column = Int(fx) / 2
      let row = Int(fy) / 4
      // Every spot tried covers the place's own cell (or keeps it as the margin).
      guard !taken[row * width + column] else { return }
      tries -= 1
      let text = DisplayWidth.truncate(place.label, to: 16)
      let textWidth = DisplayWidth.of(text)
      for start in [column - textWidth / 2, column + 1, column - textWidth] {
        guard start >= 0, start + textWidth <= width else { continue }
        var free = true
        check: for r in max(0, row - 1)...min(height - 1, row + 1) {
          for c in max(0, start - 1)...min(width - 1, start + textWidth) where taken[r * width + c] {
            free = false
            break check
          }
        }
        guard free else { continue }
        for c in start..<start + textWidth { taken[row * width + c] = true }
        canvas.label(text, x: start, y: row, style: style)
        placed += 1
        return
      }
    }
    for city in places.cities {
      guard placed < limit, tries > 0 else { break }
      place(city, style: theme.mapLabel)
    }
    if zoom >= MapPlaces.airportZoom {
      tries = limit * 20
      for airport in places.airports {
        guard placed < limit, tries > 0 else { break }
        place(airport, style: theme.muted)
      }
    }
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
