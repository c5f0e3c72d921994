import Common
import CommonUI
import Foundation
import Reactive

/// The radar map: every aircraft of a ``RadarFrame`` over the ground of the ``Basemap`` (land and
/// water, shores, borders, place names; see ``MapView``).
///
/// Each aircraft is one braille dot. Where few are in view (at most ``arrowLimit``), each is an
/// arrow pointing along its course (8 directions) instead. The traveller's booked flights are
/// arrows with their flight number in the warning style, the selected flight in the selection
/// style, drawn last so they stay on top. The bottom line gives the zoom, the centre, the
/// aircraft in the air and in view, and the instant (UTC).
public struct RadarView: Widget {
  public var frame: RadarFrame
  public var flights: [RadarFlight]
  public var viewport: MapViewport
  public var title: String?
  public var basemap: Basemap?
  public var places: MapPlaces?

  /// Aircraft in view up to which each is drawn as an arrow.
  public static let arrowLimit = 200

  public init(
    frame: RadarFrame, flights: [RadarFlight], viewport: MapViewport, title: String? = nil, basemap: Basemap? = nil,
    places: MapPlaces? = nil
  ) {
    self.frame = frame
    self.flights = flights
    self.viewport = viewport
    self.title = title
    self.basemap = basemap
    self.places = places
  }

  /// The arrow for a course: `↑` north, `↗` north-east … `↖` north-west.
  public static func arrow(heading: Double) -> String {
    let arrows = ["↑", "↗", "→", "↘", "↓", "↙", "←", "↖"]
    let sector = Int(((heading.truncatingRemainder(dividingBy: 360) + 360 + 22.5) / 45).rounded(.down)) % 8
    return arrows[sector]
  }

  public func render(in area: Rect, into buffer: inout Buffer) {
    guard area.width >= 6, area.height >= 4 else { return }
    Block(title: title).render(in: area, into: &buffer)
    let mapArea = MapView.canvasArea(in: area)
    var canvas = BrailleCanvas(width: mapArea.width, height: mapArea.height)
    let projection = MapProjection(viewport: viewport, dotWidth: canvas.dotWidth, dotHeight: canvas.dotHeight)
    let theme = buffer.theme
    var land: [Bool] = []
    if let basemap, let level = try? basemap.level(forZoom: viewport.zoom) {
      land = MapView.drawGround(level, projection, zoom: viewport.zoom, theme: theme, into: &canvas)
    }
    let width = mapArea.width
    var taken = [Bool](repeating: false, count: width * mapArea.height)
    // Every aircraft's dot; the cells of those in view.
    let dotWidth = Double(canvas.dotWidth)
    let dotHeight = Double(canvas.dotHeight)
    let left = projection.left
    let top = projection.top
    let xScale = projection.xScale
    let yScale = projection.yScale
    var inView: [Int] = []
    inView.reserveCapacity(min(frame.count, 4096))
    var cells = [Int32](repeating: -1, count: frame.count)
    frame.latitudes.withUnsafeBufferPointer { latitudes in
      frame.longitudes.withUnsafeBufferPointer { longitudes in
        for i in 0..<latitudes.count {
          var dx = longitudes[i] - left
          if dx < 0 { dx += 360 } else if dx >= 360 { dx -= 360 }
          let fx = dx * xScale
          let fy = (top - latitudes[i]) * yScale
          guard fx >= 0, fy >= 0, fx < dotWidth, fy < dotHeight else { continue }
          let x = Int(fx)
          let y = Int(fy)
          let cell = (y >> 2) * width + (x >> 1)
          cells[i] = Int32(cell)
          inView.append(i)
          if inView.count <= Self.arrowLimit { continue }
          canvas.set(dotX: x, dotY: y, style: theme.marker)
          taken[cell] = true
        }
      }
    }
    let arrows = inView.count <= Self.arrowLimit
    if arrows {
      for i in inView {
        let cell = Int(cells[i])
        canvas.label(Self.arrow(heading: frame.headings[i]), x: cell % width, y: cell / width, style: theme.marker)
        taken[cell] = true
      }
    }
    // Booked flights, then the selected one, with their flight numbers.
    var emphasised = frame.booked.map { ($0, theme.warning) }
    if let selected = frame.selected { emphasised.append((selected, theme.selection)) }
    for (i, style) in emphasised where cells[i] >= 0 {
      let cell = Int(cells[i])
      let column = cell % width
      let row = cell / width
      canvas.label(Self.arrow(heading: frame.headings[i]), x: column, y: row, style: style)
      taken[cell] = true
      let code = i < flights.count ? flights[i].key.flight.code : ""
      if !code.isEmpty, column + 1 + code.count <= width {
        canvas.label(code, x: column + 1, y: row, style: style)
        for c in column + 1...column + code.count { taken[row * width + c] = true }
      }
    }
    MapView.drawLandTexture(land, theme: theme, into: &canvas)
    if let places {
      MapView.label(places, projection, zoom: viewport.zoom, theme: theme, taken: &taken, into: &canvas)
    }
    canvas.render(in: mapArea, into: &buffer)
    let ns = viewport.latitude >= 0 ? "N" : "S"
    let ew = viewport.longitude >= 0 ? "E" : "W"
    let center =
      String(format: "%.2f", abs(viewport.latitude)) + "°\(ns) " + String(format: "%.2f", abs(viewport.longitude))
      + "°\(ew)"
    let time = Self.utc.string(from: frame.instant)
    let status =
      L(
        "zoom \(viewport.zoom) · \(center) · \(Self.grouped(frame.count)) in the air · \(Self.grouped(inView.count)) in view · \(time) UTC"
      )
    Label(status, style: theme.muted)
      .render(in: Rect(x: area.x + 1, y: area.bottom - 2, width: area.width - 2, height: 1), into: &buffer)
  }

  static let utc: DateFormatter = {
    let format = DateFormatter()
    format.locale = Locale(identifier: "en_US_POSIX")
    format.timeZone = TimeZone(identifier: "UTC")
    format.dateFormat = "yyyy-MM-dd HH:mm"
    return format
  }()

  /// 12345 → "12,345".
  static func grouped(_ value: Int) -> String {
    let digits = String(value)
    var out = ""
    for (index, character) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
      out.append(character)
    }
    return out
  }
}

/// The radar screen (Flights tab, and `booking radar` on a terminal): ``RadarView`` over a
/// ``RadarViewModel``, with a panel for the selected flight (route, share flown, course, distance
/// left, landing time, live status). Redrawn ``framesPerSecond`` times a second while open.
@MainActor
public final class RadarScreen: Screen {
  public let title = L("Radar")
  /// Frames drawn per second while the screen is open.
  public static let framesPerSecond = 30
  public let model: RadarViewModel
  private let basemap: Basemap?
  private let places: MapPlaces?
  private let ticks = PassthroughSubject<Void, Never>()
  /// The frame timer, cancelled when the screen goes.
  private var timer: AnyCancellable?
  private var subscriptions = Set<AnyCancellable>()
  /// The map's canvas size at the last frame (for Tab's "in view").
  private var canvas = (columns: 80, rows: 20)

  /// - Parameters:
  ///   - ticker: the scheduler frames are asked on (the main queue; nil: no timer, tests draw by hand).
  public init(
    model: RadarViewModel, basemap: Basemap? = try? Basemap.shared(), places: MapPlaces? = try? MapPlaces.shared(),
    ticker: AnySchedulerOf<DispatchQueue>? = DispatchQueue.main.eraseToAnyScheduler()
  ) {
    self.model = model
    self.basemap = basemap
    self.places = places
    if let ticker {
      let interval = DispatchQueue.SchedulerTimeType.Stride.milliseconds(1000 / Self.framesPerSecond)
      let ticks = ticks
      timer = AnyCancellable(
        ticker.schedule(after: ticker.now.advanced(by: interval), interval: interval) { ticks.send(()) })
    }
    model.reload()
  }

  public var keyHints: [KeyHint] {
    MapView.keyHints + [KeyHint("Tab", "select"), KeyHint("b", "my flights"), KeyHint("f", "follow")]
  }

  public var changes: AnyPublisher<Void, Never> {
    ticks.merge(with: model.$flights.map { _ in () }, model.$selectedStatus.map { _ in () })
      .merge(with: model.$message.map { _ in () })
      .eraseToAnyPublisher()
  }

  /// Rows of the selection panel under the map.
  static let panelRows = 3

  public func render(in area: Rect, into buffer: inout Buffer) {
    let parts = area.rows([.fill, .length(Self.panelRows)])
    let mapArea = MapView.canvasArea(in: parts[0])
    canvas = (mapArea.width, mapArea.height)
    let frame = model.frame()
    RadarView(
      frame: frame, flights: model.flights, viewport: model.viewport, title: L("Flights in the air"), basemap: basemap,
      places: places
    ).render(in: parts[0], into: &buffer)
    let lines = Self.panel(model: model, frame: frame)
    for (index, line) in lines.prefix(Self.panelRows).enumerated() {
      Label(line.text, style: line.emphasised ? buffer.theme.accent : buffer.theme.base)
        .render(in: parts[1].row(index), into: &buffer)
    }
  }

  /// The panel's lines: the selected flight, else the message or how to select one.
  static func panel(model: RadarViewModel, frame: RadarFrame) -> [(text: String, emphasised: Bool)] {
    guard let key = model.selected else {
      let hint =
        model.booked.isEmpty
        ? L("Tab selects an aircraft in view; its route and live status show here.")
        : L("Tab selects an aircraft in view; b jumps to your flights in the air (highlighted).")
      return [(model.message ?? hint, false)]
    }
    var lines: [(String, Bool)] = []
    if let flight = model.selectedFlight {
      let progress = flight.progress(at: frame.instant)
      let point = flight.track.point(at: progress)
      let left = Int((flight.track.distanceKm * (1 - progress)).rounded())
      let mine = model.booked.contains(key) ? " · your flight" : ""
      lines.append(
        (
          L(
            "\(key.flight) \(flight.origin) → \(flight.destination)\(mine) · \(Int((progress * 100).rounded(.down)))% flown · "
              + "course \(Int(point.heading.rounded()) % 360)° · \(RadarView.grouped(left)) km to go · lands "
              + "\(RadarView.utc.string(from: flight.landing).suffix(5)) UTC")
            + (model.following ? L(" · following") : ""),
          true
        ))
    } else {
      lines.append((L("\(key.flight) from \(key.origin) is not in the air now."), true))
    }
    if let status = model.selectedStatus {
      lines.append((FlightStatusText.state(status) + " · " + Self.times(status), false))
    } else if model.showsStatus {
      lines.append((L("Reading its status…"), false))
    }
    return lines
  }

  /// `took off 07:21 (FRA) · landing 09:55 (JFK) · arrival gate B44`, local times at each airport.
  static func times(_ status: FlightStatus) -> String {
    let off = status.runwayDeparture.actual.map {
      L("took off \($0.localTimeText) (\(status.departure.airport))")
    }
    let on = (status.runwayArrival.actual ?? status.runwayArrival.estimated).map {
      L("landing \($0.localTimeText) (\(status.arrival.airport))")
    }
    let gate = status.arrival.gate.map { L("arrival gate \($0)") }
    return [off, on, gate].compactMap { $0 }.joined(separator: " · ")
  }

  public func handle(_ key: Key) -> KeyResult {
    if key == .escape, model.selected != nil {
      model.select(nil)
      return .handled
    }
    return model.handle(key, columns: canvas.columns, rows: canvas.rows) ? .handled : .ignored
  }
}
