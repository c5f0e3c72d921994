import CommonUI
import Foundation

/// The terminal view layer: one frame of the map (braille canvas) at 120×40 with 100,000 places,
/// given raw (worst case: no clustering) and clustered on a grid of the view (what the hotel
/// clustering index hands over), plus a full ANSI redraw of such a frame. Places are spread over
/// Europe by a fixed-seed generator, so every run draws the same frame.
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
    return [
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
    ]
  }
}
