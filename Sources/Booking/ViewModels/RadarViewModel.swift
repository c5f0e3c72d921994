import Common
import CommonUI
import Foundation
import Reactive

/// Every aircraft in the air, moving on the map (the radar screen and `booking radar`).
///
/// Inputs: the radar and status services, the traveller's session token, the view's keys
/// (``handle(_:)``) and the frame clock (``frame()`` per drawn frame). Outputs: ``viewport``,
/// ``flights`` (the airborne set), ``booked`` (the traveller's operations, highlighted),
/// ``selected`` and ``selectedStatus`` (the flight picked with Tab, and its live status),
/// ``message`` (loading, or why the radar is empty).
///
/// The airborne set changes only when an aircraft takes off or lands, so it is read from the
/// service (on the background queue) when the view opens and again each ``refreshInterval`` of
/// simulated time (a minute; the clock may run 600× faster); in between, each frame moves every
/// aircraft along its great circle to the clock's instant (``RadarFlight/position(at:)``, about
/// 0.1 µs each), so positions are smooth at any frame rate and any clock speed.
public final class RadarViewModel {
  /// Simulated seconds between two reads of the airborne set.
  public static let refreshInterval: TimeInterval = 60

  @Published public private(set) var viewport: MapViewport
  @Published public private(set) var flights: [RadarFlight] = []
  @Published public private(set) var booked: Set<FlightStatusKey> = []
  @Published public private(set) var selected: FlightStatusKey?
  @Published public private(set) var selectedStatus: FlightStatus?
  /// Whether the map keeps the selected aircraft in its centre.
  @Published public private(set) var following = false
  @Published public private(set) var message: String? = L("Loading the flights in the air…")
  /// The simulated instant the airborne set was read at.
  public private(set) var loadedAt: Date?

  public let clock: TravelClock
  private let radar: any FlightRadarService
  private let status: (any FlightStatusService)?
  private let token: @Sendable () -> String?
  private let mainQueue: AnySchedulerOf<DispatchQueue>
  private let backgroundQueue: AnySchedulerOf<DispatchQueue>
  private var loading = false
  private var subscriptions = Set<AnyCancellable>()
  private var indexOfKey: [FlightStatusKey: Int] = [:]

  /// - Parameters:
  ///   - radar: the flights in the air; its clock is the radar's.
  ///   - status: live status for the selected flight (nil: the panel shows the track only).
  ///   - token: the signed-in traveller's session token (nil: no booked flights to highlight).
  ///   - viewport: where the map opens (default: the whole world).
  public init(
    radar: any FlightRadarService, status: (any FlightStatusService)? = nil,
    token: @escaping @Sendable () -> String? = { nil }, viewport: MapViewport = MapViewport(),
    mainQueue: AnySchedulerOf<DispatchQueue>, backgroundQueue: AnySchedulerOf<DispatchQueue>
  ) {
    self.radar = radar
    self.status = status
    self.token = token
    self.viewport = viewport
    self.mainQueue = mainQueue
    self.backgroundQueue = backgroundQueue
    clock = radar.clock
  }

  // MARK: Loading

  /// Reads the airborne set now (and the booked flights, and the selection's status).
  public func reload() {
    guard !loading else { return }
    loading = true
    let instant = clock.now()
    let radar = radar
    let status = status
    let token = token
    let selected = selected
    ServiceCall.result(on: backgroundQueue, deliverOn: mainQueue) {
      () throws -> (flights: [RadarFlight], booked: Set<FlightStatusKey>, status: FlightStatus?) in
      let flights = try radar.airborne(at: instant)
      let booked = token().flatMap { try? radar.bookedOperations(token: $0) } ?? []
      let selectedStatus = selected.flatMap { key in try? status?.status(key) }
      return (flights, booked, selectedStatus)
    }
    .sink { [weak self] result in
      guard let self else { return }
      loading = false
      loadedAt = instant
      switch result {
      case .success(let loaded):
        indexOfKey = Dictionary(loaded.flights.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { a, _ in a })
        flights = loaded.flights
        booked = loaded.booked
        if let selected, indexOfKey[selected] == nil {
          // Landed: keep its last status on the panel, stop following.
          following = false
          selectedStatus = loaded.status ?? selectedStatus
        } else if selected != nil {
          selectedStatus = loaded.status ?? selectedStatus
        }
        message = loaded.flights.isEmpty ? L("No flight is in the air at this moment.") : nil
      case .failure(let error):
        message = error.message
      }
    }
    .store(in: &subscriptions)
  }

  /// Called for each frame drawn: reads the airborne set again once the clock has moved a
  /// ``refreshInterval`` past the last read, and keeps a followed aircraft in the centre.
  /// - Returns: the frame to draw at the clock's instant.
  public func frame() -> RadarFrame {
    let instant = clock.now()
    if loadedAt.map({ abs(instant.timeIntervalSince($0)) >= Self.refreshInterval }) ?? !loading { reload() }
    let frame = RadarFrame(flights: flights, at: instant, booked: booked, selected: selected.flatMap { indexOfKey[$0] })
    if following, let index = frame.selected {
      viewport.latitude = min(85, max(-85, frame.latitudes[index]))
      viewport.longitude = frame.longitudes[index]
    }
    return frame
  }

  // MARK: Keys

  /// Map keys (arrows pan, `+`/`-` zoom, `0` the world; panning stops following), Tab and
  /// Shift-Tab select the next and previous aircraft in view (by flight number), `b` the next
  /// booked flight in the air, `f` follows the selection, `c` clears it.
  /// - Parameters:
  ///   - columns, rows: the map's canvas in cells (for what is in view).
  /// - Returns: whether the key was used.
  public func handle(_ key: Key, columns: Int, rows: Int) -> Bool {
    switch key {
    case .tab: select(step: 1, columns: columns, rows: rows)
    case .backTab: select(step: -1, columns: columns, rows: rows)
    case .character("b"): selectNextBooked()
    case .character("f"):
      guard selected != nil, indexOfKey[selected!] != nil else { return false }
      following.toggle()
    case .character("c"):
      guard selected != nil else { return false }
      select(nil)
    default:
      var moved = viewport
      guard moved.handle(key) else { return false }
      if [.left, .right, .up, .down].contains(key) { following = false }
      if key == .character("0") { following = false }
      if following, let selected, let index = indexOfKey[selected] {
        // Zooming while following keeps the aircraft in the centre.
        let point = flights[index].position(at: clock.now())
        moved.latitude = point.latitude
        moved.longitude = point.longitude
      }
      viewport = moved
    }
    return true
  }

  /// Selects `key` (nil clears): the panel shows it at once and its status when read.
  public func select(_ key: FlightStatusKey?) {
    selected = key
    selectedStatus = nil
    if key == nil { following = false }
    guard let key, let status else { return }
    ServiceCall.result(on: backgroundQueue, deliverOn: mainQueue) { try status.status(key) }
      .sink { [weak self] result in
        guard let self, selected == key, case .success(let found) = result else { return }
        selectedStatus = found
      }
      .store(in: &subscriptions)
  }

  /// The aircraft in view at the clock's instant, by flight key (a stable order while they move).
  public func flightsInView(columns: Int, rows: Int) -> [FlightStatusKey] {
    let region = viewport.region(width: columns, height: rows)
    let instant = clock.now()
    var keys: [FlightStatusKey] = []
    for flight in flights {
      let point = flight.position(at: instant)
      var longitude = point.longitude
      while longitude < region.minLongitude { longitude += 360 }
      while longitude > region.maxLongitude + 360 { longitude -= 360 }
      if point.latitude >= region.minLatitude, point.latitude <= region.maxLatitude,
        longitude <= region.maxLongitude
      {
        keys.append(flight.key)
      }
    }
    return keys.sorted()
  }

  private func select(step: Int, columns: Int, rows: Int) {
    let visible = flightsInView(columns: columns, rows: rows)
    guard !visible.isEmpty else { return }
    guard let selected, let at = visible.firstIndex(of: selected) else {
      select(step > 0 ? visible.first : visible.last)
      return
    }
    select(visible[(at + step + visible.count) % visible.count])
  }

  private func selectNextBooked() {
    let airborne = flights.map(\.key).filter { booked.contains($0) }.sorted()
    guard !airborne.isEmpty else {
      message =
        booked.isEmpty
        ? L("No booked flight: book one, then watch it here.") : L("None of your flights is in the air now.")
      return
    }
    let next = selected.flatMap { airborne.firstIndex(of: $0) }.map { airborne[($0 + 1) % airborne.count] }
    select(next ?? airborne[0])
    following = true
    message = flights.isEmpty ? message : nil
  }

  /// Whether a status service answers for the selected flight.
  public var showsStatus: Bool { status != nil }

  /// The selected flight, if it is in the air.
  public var selectedFlight: RadarFlight? { selected.flatMap { indexOfKey[$0] }.map { flights[$0] } }
}

/// One frame of the radar: every airborne aircraft's position and course at an instant, in
/// parallel arrays (indices of ``RadarViewModel/flights``), and which are booked and selected.
public struct RadarFrame: Sendable {
  public let instant: Date
  public var latitudes: [Double]
  public var longitudes: [Double]
  public var headings: [Double]
  /// Indices of the traveller's booked flights.
  public var booked: [Int]
  /// Index of the selected flight, if it is in the air.
  public var selected: Int?

  public var count: Int { latitudes.count }

  /// The positions of `flights` at `instant`.
  ///
  /// Each frame moves thousands of aircraft, so the loop reads the flights in place (no copy of
  /// each flight's strings) and hashes a flight's key only when its flight number is one of the
  /// booked ones (a handful), not for every aircraft.
  public init(flights: [RadarFlight], at instant: Date, booked: Set<FlightStatusKey> = [], selected: Int? = nil) {
    self.instant = instant
    var latitudes = [Double](repeating: 0, count: flights.count)
    var longitudes = [Double](repeating: 0, count: flights.count)
    var headings = [Double](repeating: 0, count: flights.count)
    var bookedIndexes: [Int] = []
    let bookedNumbers = Set(booked.map(\.flight.number))
    flights.withUnsafeBufferPointer { flights in
      for index in flights.indices {
        let point = flights[index].track.point(at: flights[index].progress(at: instant))
        latitudes[index] = point.latitude
        longitudes[index] = point.longitude
        headings[index] = point.heading
        if !bookedNumbers.isEmpty, bookedNumbers.contains(flights[index].key.flight.number),
          booked.contains(flights[index].key)
        {
          bookedIndexes.append(index)
        }
      }
    }
    self.latitudes = latitudes
    self.longitudes = longitudes
    self.headings = headings
    self.booked = bookedIndexes
    self.selected = selected
  }
}
