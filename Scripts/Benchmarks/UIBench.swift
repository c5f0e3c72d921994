import Common
import CommonUI
import Foundation

/// The terminal view layer: one frame of the map (braille canvas) at 120×40 with 100,000 places,
/// given raw (worst case: no clustering) and clustered on a grid of the view (what the hotel
/// clustering index hands over), plus a full ANSI redraw of such a frame. Places are spread over
/// Europe by a fixed-seed generator, so every run draws the same frame.
///
/// With the basemap (issue #21): the same 120×40 frame over the ground — land and water per cell,
/// shores, borders, place names — at zoom 0, 3, 6, 9, 12 and 15, each with 100,000 markers spread
/// over 1.5 × the view (about 44 % on screen), centred in turn on five coastal cities (Lisbon,
/// Marseille, Naples, Istanbul, Copenhagen) so shores cross every view; and the cost of a level's
/// first use (read, decode, land index) in a fresh basemap.
extension BenchmarkSuite {
  func uiFigures() -> [Figure] {
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> Double {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(seed >> 11) / Double(1 << 53)
    }
    let raw = (0..<100_000).map { _ in MapMarker(latitude: 36 + 24 * next(), longitude: -10 + 40 * next()) }
    var grid: [Int: (latitude: Double, longitude: Double, count: Int)] = [:]
    for marker in raw {
      let key = Int((marker.latitude - 36) / 0.4) * 1000 + Int((marker.longitude + 10) / 0.4)
      var cell = grid[key] ?? (0, 0, 0)
      cell.latitude += marker.latitude
      cell.longitude += marker.longitude
      cell.count += 1
      grid[key] = cell
    }
    let clustered = grid.values.map {
      MapMarker(latitude: $0.latitude / Double($0.count), longitude: $0.longitude / Double($0.count), count: $0.count)
    }
    let theme = (try? Theme.named(.dark, useColor: true)) ?? .monochrome
    let viewport = MapViewport(latitude: 48, longitude: 10, zoom: 3)
    func frame(_ markers: [MapMarker], _ viewport: MapViewport) -> Buffer {
      var buffer = Buffer(width: 120, height: 40, theme: theme)
      MapView(markers: markers, viewport: viewport, title: "Hotels").render(in: buffer.area, into: &buffer)
      return buffer
    }
    let rawFrame = sample(count: count(200)) { _ in _ = frame(raw, viewport) }
    let clusteredFrame = sample(count: count(200)) { _ in _ = frame(clustered, viewport) }
    var renderer = ANSIRenderer(useColor: true)
    var pan = viewport
    let panFrame = sample(count: count(200)) { index in
      _ = pan.handle(index % 2 == 0 ? .left : .right)
      _ = renderer.render(frame(raw, pan))
    }
    let redraw = sample(count: count(200)) { _ in
      renderer.invalidate()
      _ = renderer.render(frame(clustered, viewport))
    }
    var figures = basemapFigures(theme: theme, next: next)
    figures.insert(
      contentsOf: [
        Figure(
          name: "ui.map-frame.100k-raw", unit: "ms", target: 16, values: rawFrame,
          note: "MapView.render, 120×40 cells, 100,000 unclustered markers"),
        Figure(
          name: "ui.map-frame.100k-clustered", unit: "ms", target: 16, values: clusteredFrame,
          note: "\(clustered.count) clusters holding 100,000 places"),
        Figure(
          name: "ui.map-frame.pan-and-diff", unit: "ms", target: 16, values: panFrame,
          note: "render 100,000 markers after a pan + ANSI diff against the previous frame"),
        Figure(name: "ui.full-redraw", unit: "ms", target: 16, values: redraw, note: "render + every cell as ANSI"),
      ], at: 0)
    return figures
  }

  private func basemapFigures(theme: Theme, next: () -> Double) -> [Figure] {
    let basemap: Basemap
    let places: MapPlaces
    do {
      basemap = try Basemap.shared()
      places = try MapPlaces.shared()
    } catch {
      return [Figure.failed("ui.map-frame.basemap", target: 8, "cannot load the map data: \(error.message)")]
    }
    var figures: [Figure] = []
    // A level's first use: read from the file, decode, build the land index (fresh each time).
    if let url = try? SharedResources.url(BasemapCompiler.compiledPath) {
      // (Quick mode, a debug build: the crude level only; the frames below still build the others.)
      for index in quick ? [0] : Array(basemap.levels.indices) {
        let name = basemap.levels[index].name
        var mixed = 0
        let times = sample(count: quick ? 1 : 20, warmup: quick ? 0 : 1) { _ in
          guard let fresh = try? Basemap(contentsOf: url), let level = try? fresh.level(at: index) else { return }
          mixed = level.land().mixedCellCount
        }
        let info = basemap.levels[index]
        figures.append(
          Figure(
            name: "ui.basemap.first-use.\(name)", unit: "ms", target: 50, values: times,
            note: "read + decode + land index of level \(name): \(info.ringPointCount) ring points, "
              + "\(info.borderPointCount) border points, \(mixed) mixed cells"))
      }
    }
    let centres: [(Double, Double)] = [(38.72, -9.14), (43.30, 5.37), (40.85, 14.27), (41.01, 28.98), (55.68, 12.57)]
    let screen = Rect(width: 120, height: 40)
    let canvas = MapView.canvasArea(in: screen)
    for zoom in [0, 3, 6, 9, 12, 15] {
      let frames = centres.map { centre -> (MapViewport, [MapMarker]) in
        let viewport = MapViewport(latitude: centre.0, longitude: centre.1, zoom: zoom)
        let region = viewport.region(width: canvas.width, height: canvas.height)
        let height = (region.maxLatitude - region.minLatitude) * 1.5
        let width = (region.maxLongitude - region.minLongitude) * 1.5
        let markers = (0..<(quick ? 5_000 : 100_000)).map { _ in
          MapMarker(
            latitude: max(-89, min(89, centre.0 + (next() - 0.5) * height)),
            longitude: centre.1 + (next() - 0.5) * width)
        }
        return (viewport, markers)
      }
      let times = sample(count: count(100), warmup: quick ? 1 : centres.count) { index in
        let (viewport, markers) = frames[index % frames.count]
        var buffer = Buffer(width: 120, height: 40, theme: theme)
        MapView(markers: markers, viewport: viewport, title: "Hotels", basemap: basemap, places: places)
          .render(in: buffer.area, into: &buffer)
      }
      figures.append(
        Figure(
          name: "ui.map-frame.basemap.zoom\(zoom)", unit: "ms", target: 8, values: times,
          note: "120×40, ground (level \(basemap.levels[basemap.levelIndex(forZoom: zoom)].name)) + place names "
            + "+ 100,000 markers, five coastal centres"))
    }
    return figures
  }
}
