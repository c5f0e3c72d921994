import Backend
import Booking
import Common
import CommonUI
import Foundation

/// The radar (issue #21): every flight in the air in the world's busiest hour, moved along its
/// great circle and drawn over the basemap, frame after frame, as the Radar screen does at
/// 30 frames a second. Target: each frame (positions of every airborne aircraft + one 120×40
/// braille frame with ground, shores, borders, names, aircraft) p99 ≤ 8 ms, at the world view,
/// over a continent and around a hub.
extension BenchmarkSuite {
  func radarFigures() -> [Figure] {
    guard let operations = try? FlightsWiring.operations(), let basemap = try? Basemap.shared(),
      let places = try? MapPlaces.shared()
    else { return [Figure.failed("radar.frame.world", target: 8, "flight operations or map data unavailable")] }
    // The peak: of the UTC day 30 days from now, the quarter hour with the most flights in the air.
    let day = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 86_400).rounded(.down) * 86_400 + 30 * 86_400)
    var peak = (instant: day, count: 0)
    let reads = sample(count: quick ? 8 : 96, warmup: 0) { quarter in
      let instant = day.addingTimeInterval(Double(quarter) * 900 * (quick ? 12 : 1))
      let count = operations.radarFlights(at: instant).count
      if count > peak.count { peak = (instant, count) }
    }
    // The hour from the peak: 30 frames a second of a clock running 60× (one simulated second
    // per frame; one simulated hour is 3,600 frames), the airborne set read again each minute.
    let screen = Rect(width: 120, height: 40)
    let views: [(name: String, viewport: MapViewport)] = [
      ("world", MapViewport()),
      ("europe", MapViewport(latitude: 50, longitude: 10, zoom: 3)),
      ("hub", MapViewport(latitude: 50.03, longitude: 8.57, zoom: 7)),
    ]
    var figures = [
      Figure(
        name: "radar.airborne-read", unit: "ms", target: nil, values: reads,
        note: "every flight in the air at an instant, from the simulation (read once a simulated minute); "
          + "peak \(peak.count) at \(ISO8601DateFormatter().string(from: peak.instant))")
    ]
    // The airborne set of each simulated minute, read beforehand (the app reads it in the
    // background, outside the frame).
    let frames = count(900)
    let sets = (0...(frames / 60)).map { operations.radarFlights(at: peak.instant.addingTimeInterval(Double($0) * 60)) }
    let booked = Set(sets[0].prefix(3).map(\.key))
    for (name, viewport) in views {
      var moved = 0
      let times = sample(count: frames, warmup: 3) { index in
        let flights = sets[index / 60]
        let frame = RadarFrame(
          flights: flights, at: peak.instant.addingTimeInterval(Double(index)), booked: booked, selected: 0)
        var buffer = Buffer(area: screen)
        RadarView(
          frame: frame, flights: flights, viewport: viewport, title: "Flights in the air", basemap: basemap,
          places: places
        ).render(in: screen, into: &buffer)
        moved += frame.count
      }
      figures.append(
        Figure(
          name: "radar.frame.\(name)", unit: "ms", goal: .p99AtMost, target: 8, values: times,
          note: "\(moved / max(1, times.count + 3)) aircraft moved and drawn per 120×40 frame over the basemap, "
            + "zoom \(viewport.zoom); \(frames) frames, one simulated second apart, from the peak"))
    }
    return figures
  }
}
