import Backend
import Common
import CommonUI
import Foundation

/// The hotel map as the interactive app draws it: the clustering index asked for the region a
/// 120×40 map shows, then one frame of the braille map over the basemap (ground, shores, borders,
/// place names) rendered into a cell buffer, at several zoom levels, with every hotel of the
/// world loaded.
extension BenchmarkSuite {
  func hotelMap() -> [Figure] {
    guard let reference = try? ReferenceData.shared(), let world = try? HotelBackend.world(),
      let basemap = try? Basemap.shared(), let places = try? MapPlaces.shared()
    else { return [] }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-map-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    // A store file, read as a user's would be (not the in-memory schema of a store never written).
    guard (try? Store.open(dataDirectory: directory, migrations: BackendServices.migrations)) != nil,
      let services = try? BackendServices(dataDirectory: directory),
      let engine = try? HotelBackend.service(services: services)
    else { return [] }
    let screen = Rect(width: 120, height: 40)
    let canvas = MapView.canvasArea(in: screen)
    var generator = SeededGenerator(seed: 21)
    let centres = (0..<50).map { _ in reference.cities[Int(generator.next() % UInt64(min(500, reference.cities.count)))]
    }
    var figures: [Figure] = []
    for zoom in [0, 3, 6, 9, 12] {
      var drawn = 0
      let times = sample(count: count(100), warmup: 3) { index in
        let city = centres[index % centres.count]
        let viewport = MapViewport(latitude: city.latitude, longitude: city.longitude, zoom: zoom)
        let region = viewport.region(width: canvas.width, height: canvas.height)
        let rect = GeoRect(
          south: max(-90, region.minLatitude), west: max(-180, region.minLongitude),
          north: min(90, region.maxLatitude), east: min(180, region.maxLongitude))
        let markers = (try? engine.mapMarkers(in: rect, maxMarkers: 2000)) ?? []
        var buffer = Buffer(area: screen)
        MapView(
          markers: markers.map { MapMarker(latitude: $0.latitude, longitude: $0.longitude, count: $0.count) },
          viewport: viewport, title: "Hotels", basemap: basemap, places: places
        ).render(in: screen, into: &buffer)
        drawn += markers.count
      }
      figures.append(
        Figure(
          name: "hotels.map-frame.zoom\(zoom)", unit: "ms", target: 8, values: times,
          note:
            "viewport query + one 120×40 frame over the basemap; \(drawn / max(1, times.count)) markers on average, "
            + "\(world.count) hotels loaded"))
    }
    // A dense frame for the view itself: the most markers the index ever returns, drawn at once.
    let dense =
      ((try? engine.mapMarkers(in: GeoRect(south: -90, west: -180, north: 90, east: 180), maxMarkers: 10_000)) ?? [])
      .map { MapMarker(latitude: $0.latitude, longitude: $0.longitude, count: $0.count) }
    let frames = sample(count: count(30), warmup: 2) { _ in
      var buffer = Buffer(area: screen)
      MapView(markers: dense, viewport: MapViewport(), title: "Hotels", basemap: basemap, places: places)
        .render(in: screen, into: &buffer)
    }
    figures.append(
      Figure(
        name: "hotels.map-frame.dense", unit: "ms", target: 16, values: frames,
        note: "one 120×40 frame of \(dense.count) markers (the index's maximum), world view"))
    return figures
  }
}
