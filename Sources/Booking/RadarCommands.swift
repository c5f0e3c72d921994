import Common
import CommonUI
import Foundation
import Reactive

/// `booking radar` (`travel flights radar`): every flight in the air, live on a map of the world.
enum RadarCommands {
  /// The map of `--once` when neither `--width` nor `--height` is given: 100 × 34 cells.
  static let defaultSize = (width: 100, height: 34)
  /// The zoom `--near` opens at (about 1,400 km across), and the `--json` radius it keeps.
  static let nearZoom = 5
  static let defaultRadiusKm = 500.0

  static func radar(_ services: BookingServices) -> Command {
    Command(
      name: "radar",
      summary: L("Every flight in the air, moving on a map of the world (or one frame, or JSON positions)."),
      discussion: """
        The flights of the live status simulation ('booking status', 'booking board') in the air at the app's clock,
        each along the great circle from its origin to its destination (or its alternate when it diverted), with its
        course. On a terminal the map is live: arrows pan, + and - zoom, 0 shows the world, Tab selects the next
        aircraft in view (its route, share flown, course, landing and live status show under the map), b jumps to
        your booked flights in the air (highlighted with their flight numbers), f follows the selected aircraft,
        Esc clears the selection, q quits.
        --once prints one frame of the map (monochrome text) and exits; --json prints the positions: {"instant",
        "airborne", "flights": [{"flight", "operation", "origin", "destination", "latitude", "longitude", "heading",
        "progress", "flownKm", "remainingKm", "takeoff", "landing", "booked"}]}, with --near only those within
        --radius-km. --clock-start 2026-12-20T14:00Z shows another moment; --clock-speed 600 runs ten minutes a second.
        """,
      options: [
        .option(
          "near", "PLACE", help: L("Centre on an airport (FRA), a city (Zurich) or lat,lon."), default: L("the world")),
        .option("zoom", "N", help: L("Zoom 0 (the world) to 12."), default: L("0; 5 with --near")),
        .option(
          "radius-km", "KM", help: L("With --near and --json: the flights within this distance."), default: "500"),
        .flag("once", help: L("Print one frame of the map and exit.")),
        .option("width", "COLUMNS", help: L("With --once: the map's width in cells (40–400)."), default: "100"),
        .option("height", "ROWS", help: L("With --once: the map's height in cells (12–200)."), default: "34"),
      ],
      examples: [
        "--once", "--near FRA --once", "--near 40.64,-73.78 --json --radius-km 200", "--clock-speed 60",
      ],
      action: { invocation in
        let context = invocation.context
        let zoom = try whole(invocation, "zoom", in: 0...12)
        let radius = try number(invocation, "radius-km", in: 1...20_000) ?? defaultRadiusKm
        let width = try whole(invocation, "width", in: 40...400) ?? defaultSize.width
        let height = try whole(invocation, "height", in: 12...200) ?? defaultSize.height
        let radar = try services.radarService(context)
        var viewport = MapViewport(zoom: zoom ?? 0)
        var center: (name: String, latitude: Double, longitude: Double)?
        if let near = invocation.value("near") {
          let place = try resolve(near)
          center = place
          viewport = MapViewport(latitude: place.latitude, longitude: place.longitude, zoom: zoom ?? nearZoom)
        }
        let token = (try? SessionFile(dataDirectory: context.dataDirectory).read()) ?? nil
        if context.json {
          let instant = radar.clock.now()
          let flights = try radar.airborne(at: instant)
          let booked = token.flatMap { try? radar.bookedOperations(token: $0) } ?? []
          var positions = flights.map { FlightPosition($0, at: instant, booked: booked.contains($0.key)) }
          if let center {
            positions = positions.filter {
              GreatCircleTrack(
                fromLatitude: center.latitude, fromLongitude: center.longitude, toLatitude: $0.latitude,
                toLongitude: $0.longitude
              ).distanceKm <= radius
            }
          }
          try context.emit(json: RadarDocument(instant: instant, airborne: flights.count, flights: positions)) { "" }
          return
        }
        let status = try? services.statusService(context)
        let interactive = !invocation.flag("once") && Terminal.isInteractive && Thread.isMainThread
        guard interactive else {
          let text = try MainActor.assumeIsolated {
            try frameText(radar: radar, status: status, token: token, viewport: viewport, width: width, height: height)
          }
          context.console.print(text)
          return
        }
        try MainActor.assumeIsolated {
          let model = RadarViewModel(
            radar: radar, status: status, token: { token }, viewport: viewport,
            mainQueue: DispatchQueue.main.eraseToAnyScheduler(),
            backgroundQueue: DispatchQueue.global(qos: .userInitiated).eraseToAnyScheduler())
          let app = InteractiveApp.assemble(
            name: invocation.path.first ?? "booking",
            features: [InteractiveFeature(tab: AppTab(L("Radar"), root: RadarScreen(model: model)))],
            useColor: context.useColor)
          try app.run()
        }
      }
    )
  }

  /// One frame of the radar as text (monochrome), the airborne set read synchronously.
  @MainActor
  static func frameText(
    radar: any FlightRadarService, status: (any FlightStatusService)?, token: String?, viewport: MapViewport,
    width: Int, height: Int
  ) throws -> String {
    let instant = radar.clock.now()
    let flights = try radar.airborne(at: instant)
    let booked = token.flatMap { try? radar.bookedOperations(token: $0) } ?? []
    let frame = RadarFrame(flights: flights, at: instant, booked: booked)
    let view = RadarView(
      frame: frame, flights: flights, viewport: viewport, title: L("Flights in the air"),
      basemap: try? Basemap.shared(),
      places: try? MapPlaces.shared())
    return view.rendered(width: width, height: height, theme: .monochrome).plainText
  }

  /// `FRA`, `NYC`, `Zurich`, `47.46,8.55`: a place as flight searches take it
  /// (``ReferenceData/resolvePlace(_:)``), and its centre.
  /// - Throws: ``ServiceError`` `unknown_place`, `ambiguous_place` (invalid input) and the others
  ///   of ``ReferenceData/resolvePlace(_:)``; `reference_data_unavailable`.
  static func resolve(_ text: String) throws -> (name: String, latitude: Double, longitude: Double) {
    let place = try ReferenceData.shared().resolvePlace(text)
    return (place.displayName, place.coordinate.latitude, place.coordinate.longitude)
  }

  static func whole(_ invocation: Invocation, _ name: String, in range: ClosedRange<Int>) throws -> Int? {
    guard let text = invocation.value(name) else { return nil }
    guard let value = Int(text), range.contains(value) else {
      throw CLIError.usage(
        L(
          "invalid --\(name) \(EchoedInput.quoted(text)): expected a whole number from \(range.lowerBound) to \(range.upperBound)"
        )
      )
    }
    return value
  }

  static func number(_ invocation: Invocation, _ name: String, in range: ClosedRange<Double>) throws -> Double? {
    guard let text = invocation.value(name) else { return nil }
    guard let value = Double(text), value.isFinite, range.contains(value) else {
      throw CLIError.usage(
        L(
          "invalid --\(name) \(EchoedInput.quoted(text)): expected a number from \(Int(range.lowerBound)) to \(Int(range.upperBound))"
        )
      )
    }
    return value
  }
}

/// `booking radar --json`.
struct RadarDocument: Encodable {
  var instant: Date
  /// Flights in the air in the whole world.
  var airborne: Int
  /// The flights listed (all, or those within `--radius-km` of `--near`).
  var flights: [FlightPosition]
}
