import Common
import Foundation

/// Booked seats per flight, local departure date and cabin: what the fares' load factor and the
/// offers' `seatsAvailable` read. A snapshot, keyed by pattern index, day and cabin.
struct SeatLoad: Sendable {
  private var booked: [Int64: Int32]

  init() { booked = [:] }

  @inline(__always)
  static func key(pattern: Int32, day: Int32, cabin: Int) -> Int64 {
    Int64(pattern) << 32 | Int64(day) << 2 | Int64(cabin)
  }

  /// Adds `seats` booked on `pattern` on local date `day` in `cabin`.
  mutating func add(pattern: Int32, day: Int32, cabin: Int, seats: Int32) {
    booked[Self.key(pattern: pattern, day: day, cabin: cabin), default: 0] += seats
  }

  @inline(__always)
  func seats(pattern: Int32, day: Int32, cabin: Int) -> Int32 {
    booked.isEmpty ? 0 : booked[Self.key(pattern: pattern, day: day, cabin: cabin)] ?? 0
  }
}

/// The connection search over a ``FlightNetwork``: one direction, one local departure date.
///
/// ## Rules
/// - **Minimum connection time**: 45 minutes when both flights of the connection are domestic
///   (within the hub's country), else 60 minutes. Connections are only at the same airport:
///   arriving at LGA never connects to a departure from JFK.
/// - **Maximum layover**: 10 hours.
/// - **No back-tracking**: a connection airport is never one of the origin or destination
///   airports, nor visited twice; the flown distance is at most 1.5 × the great-circle distance
///   from origin to destination + 600 km.
/// - **Result set**: every nonstop itinerary, plus each connecting itinerary that no other
///   itinerary departing within 60 minutes of it beats on price, total duration and stops at once
///   (each at most as good and one strictly better; of exact ties the first found is kept).
/// - Every segment must have the requested cabin and at least `adults` seats left in it.
struct ItinerarySearch {
  static let minimumConnectionDomestic: Int32 = 45
  static let minimumConnectionInternational: Int32 = 60
  static let maximumLayover: Int32 = 600
  static let sameHour: Int32 = 60

  /// One itinerary found, compact: up to three (pattern, local date) legs.
  struct Candidate {
    var patterns: (Int32, Int32, Int32) = (-1, -1, -1)
    var days: (Int32, Int32, Int32) = (0, 0, 0)
    var count: Int32 = 0
    var departure: Int32 = 0
    var arrival: Int32 = 0
    /// Per passenger, cents, after the connection discount.
    var fareCents: Int64 = 0
    var taxCents: Int64 = 0
    var seats: Int32 = 0

    var stops: Int32 { count - 1 }
    var duration: Int32 { arrival - departure }
    var totalCents: Int64 { fareCents + taxCents }

    func pattern(_ index: Int) -> Int32 {
      index == 0 ? patterns.0 : index == 1 ? patterns.1 : patterns.2
    }
    func day(_ index: Int) -> Int32 { index == 0 ? days.0 : index == 1 ? days.1 : days.2 }
  }

  let network: FlightNetwork
  let load: SeatLoad
  let cabin: Int
  let adults: Int32
  /// Today's date (days since 1970), for the advance-purchase part of fares.
  let today: Int32

  // MARK: Pricing

  /// Prices and checks seats of a leg list; false when a leg lacks the cabin or the seats.
  @inline(__always)
  func price(_ candidate: inout Candidate) -> Bool {
    let patterns = network.patterns
    let indices = candidate.patterns
    return price(&candidate) { leg in
      patterns[Int(leg == 0 ? indices.0 : leg == 1 ? indices.1 : indices.2)]
    }
  }

  /// ``price(_:)`` with the legs' patterns given (`pattern(leg)`: the search has them at hand).
  @inline(__always)
  private func price(_ candidate: inout Candidate, pattern: (Int) -> FlightNetwork.Pattern) -> Bool {
    var fare: Int64 = 0
    var tax: Int64 = 0
    var seats: Int32 = .max
    for leg in 0..<Int(candidate.count) {
      let index = candidate.pattern(leg)
      let day = candidate.day(leg)
      let pattern = pattern(leg)
      let capacity = network.aircraft[Int(pattern.aircraft)].seats[cabin]
      let booked = load.seats(pattern: index, day: day, cabin: cabin)
      let left = capacity - booked
      if left < adults { return false }
      seats = min(seats, left)
      let segmentFare = FarePolicy.segmentFareCents(
        distanceKm: pattern.distanceKm, level: pattern.fareLevel, cabin: cabin, daysAhead: day - today, booked: booked,
        capacity: capacity)
      fare += segmentFare
      tax += FarePolicy.segmentTaxCents(fareCents: segmentFare)
    }
    candidate.fareCents = FarePolicy.itineraryFareCents(sumOfSegments: fare, segments: Int(candidate.count))
    candidate.taxCents = tax
    candidate.seats = seats
    return true
  }

  // MARK: Search

  /// Itineraries from any of `origins` to any of `destinations` (airport indices) leaving on local
  /// date `day` (days since 1970 at the origin), with at most `maxStops` connections; filtered by
  /// the result-set rule, in no particular order.
  func run(origins: [Int32], destinations: [Int32], day: Int32, maxStops: Int) -> [Candidate] {
    let airports = network.airports
    // What the search knows of each airport, in one array by airport index (one cache line per
    // first leg's destination, not one per question): endpoint and destination marks, and the
    // slot of its feeders (below).
    var marks = [AirportMarks](repeating: AirportMarks(), count: airports.count)
    for origin in origins { marks[Int(origin)].isEndpoint = true }
    for destination in destinations {
      marks[Int(destination)].isEndpoint = true
      marks[Int(destination)].isDestination = true
    }

    // Feeders: per connection airport, its flights into a destination with their patterns, sorted
    // by departure minute: `feeders[feederStart[slot]..<feederStart[slot + 1]]` for the slot
    // `marks[airport].feederSlot` (-1: none), with the shortest feeder's distance. One flat list,
    // counted then filled (slots in order of first arrival, as they were found).
    var feederStart: [Int32] = [0]
    var feederDistance: [Int32] = []
    var feeders: [Leg] = []
    if maxStops > 0 {
      var counts: [Int32] = []
      for destination in destinations {
        for position in network.arrivalRange(of: destination) {
          let pattern = network.arrivalPatterns[position]
          let origin = Int(pattern.origin)
          if marks[origin].isEndpoint { continue }
          var slot = Int(marks[origin].feederSlot)
          if slot < 0 {
            slot = counts.count
            marks[origin].feederSlot = Int32(slot)
            counts.append(0)
            feederDistance.append(.max)
          }
          counts[slot] += 1
          feederDistance[slot] = min(feederDistance[slot], pattern.distanceKm)
        }
      }
      feederStart.reserveCapacity(counts.count + 1)
      for count in counts { feederStart.append(feederStart[feederStart.count - 1] + count) }
      var fill = feederStart
      // The same positions as counted above: every element is initialised exactly once.
      feeders = [Leg](unsafeUninitializedCapacity: Int(feederStart[feederStart.count - 1])) { buffer, initialized in
        for destination in destinations {
          for position in network.arrivalRange(of: destination) {
            let pattern = network.arrivalPatterns[position]
            let origin = Int(pattern.origin)
            if marks[origin].isEndpoint { continue }
            let slot = Int(marks[origin].feederSlot)
            (buffer.baseAddress! + Int(fill[slot])).initialize(
              to: Leg(index: network.arrivalList[position], pattern: pattern))
            fill[slot] += 1
          }
        }
        initialized = buffer.count
      }
      // An airport's arrivals are in departure-minute order already (FlightNetwork's lists), so
      // only feeders into several destinations need ordering (stable: ties as found).
      if destinations.count > 1 {
        for slot in counts.indices {
          feeders[Int(feederStart[slot])..<Int(feederStart[slot + 1])].sort {
            $0.pattern.departureMinute < $1.pattern.departureMinute
          }
        }
      }
    }
    // Second legs for two-stop itineraries, per first connection airport (built on demand):
    // `middles[middleRanges[marks[hub].middleSlot]]`.
    var middleRanges: [Range<Int>] = []
    var middles: [Leg] = []

    var results: [Candidate] = []
    results.reserveCapacity(256)

    for origin in origins {
      // Distance budget of the origin: 1.5 × the nearest destination + 600 km.
      let a = airports[Int(origin)]
      var nearest = Double.greatestFiniteMagnitude
      for destination in destinations {
        let b = airports[Int(destination)]
        nearest = min(nearest, greatCircleKm(a.latitude, a.longitude, b.latitude, b.longitude))
      }
      let limit = Int32(nearest * 1.5 + 600)
      let range = Int(network.departureStart[Int(origin)])..<Int(network.departureStart[Int(origin) + 1])
      for position in range {
        let firstIndex = network.departureList[position]
        let first = network.departurePatterns[position]
        guard network.flies(first, on: day) else { continue }
        // With one stop at most, a first leg to a hub without feeders in the budget leads nowhere:
        // skipped before its times are computed.
        let hubMarks = marks[Int(first.destination)]
        if maxStops == 1 && !hubMarks.isDestination {
          let feeders = Int(hubMarks.feederSlot)
          if feeders < 0 || first.distanceKm >= limit || first.distanceKm + feederDistance[feeders] > limit { continue }
        }
        let departure = network.departureUTC(first, day: day)
        let arrival = departure + first.blockMinutes
        if hubMarks.isDestination {
          var candidate = Candidate()
          candidate.patterns.0 = firstIndex
          candidate.days.0 = day
          candidate.count = 1
          candidate.departure = departure
          candidate.arrival = arrival
          if price(&candidate, pattern: { _ in first }) { results.append(candidate) }
          continue
        }
        if maxStops == 0 || hubMarks.isEndpoint || first.distanceKm >= limit { continue }
        let hub = first.destination
        // One stop.
        let hubFeeders = Int(hubMarks.feederSlot)
        if hubFeeders >= 0, first.distanceKm + feederDistance[hubFeeders] <= limit {
          scan(
            feeders, Int(feederStart[hubFeeders])..<Int(feederStart[hubFeeders + 1]), at: hub, after: arrival,
            arrivingDomestic: first.isDomestic
          ) { secondIndex, second, secondDay, secondUTC in
            guard first.distanceKm + second.distanceKm <= limit else { return }
            var candidate = Candidate()
            candidate.patterns = (firstIndex, secondIndex, -1)
            candidate.days = (day, secondDay, 0)
            candidate.count = 2
            candidate.departure = departure
            candidate.arrival = secondUTC + second.blockMinutes
            if price(&candidate, pattern: { $0 == 0 ? first : second }) { results.append(candidate) }
          }
        }
        // Two stops.
        guard maxStops >= 2 else { continue }
        var middle = Int(marks[Int(hub)].middleSlot)
        if middle < 0 {
          let start = middles.count
          for position in network.departureRange(of: hub) {
            let pattern = network.departurePatterns[position]
            let destinationMarks = marks[Int(pattern.destination)]
            let slot = Int(destinationMarks.feederSlot)
            if slot >= 0, !destinationMarks.isEndpoint, pattern.distanceKm + feederDistance[slot] <= limit {
              middles.append(Leg(index: network.departureList[position], pattern: pattern))
            }
          }
          middle = middleRanges.count
          marks[Int(hub)].middleSlot = Int32(middle)
          middleRanges.append(start..<middles.count)
        }
        if middleRanges[middle].isEmpty { continue }
        scan(middles, middleRanges[middle], at: hub, after: arrival, arrivingDomestic: first.isDomestic) {
          secondIndex, second, secondDay, secondUTC in
          let hub2 = second.destination
          let hub2Feeders = Int(marks[Int(hub2)].feederSlot)
          guard hub2 != hub, hub2Feeders >= 0,
            first.distanceKm + second.distanceKm + feederDistance[hub2Feeders] <= limit
          else { return }
          let secondArrival = secondUTC + second.blockMinutes
          scan(
            feeders, Int(feederStart[hub2Feeders])..<Int(feederStart[hub2Feeders + 1]), at: hub2,
            after: secondArrival, arrivingDomestic: second.isDomestic
          ) { thirdIndex, third, thirdDay, thirdUTC in
            guard first.distanceKm + second.distanceKm + third.distanceKm <= limit, third.destination != hub else {
              return
            }
            var candidate = Candidate()
            candidate.patterns = (firstIndex, secondIndex, thirdIndex)
            candidate.days = (day, secondDay, thirdDay)
            candidate.count = 3
            candidate.departure = departure
            candidate.arrival = thirdUTC + third.blockMinutes
            if price(&candidate, pattern: { $0 == 0 ? first : $0 == 1 ? second : third }) {
              results.append(candidate)
            }
          }
        }
      }
    }
    return Self.resultSet(results)
  }

  /// A flight pattern and its index: the lists a search scans hold the patterns themselves, read
  /// in a row, rather than indices to look up in ``FlightNetwork/patterns`` (a cache miss each).
  struct Leg {
    var index: Int32
    var pattern: FlightNetwork.Pattern
  }

  /// One airport as a search sees it.
  struct AirportMarks {
    /// The slot of its flights into a destination in the search's feeder lists; -1: none.
    var feederSlot: Int32 = -1
    /// The slot of its second legs of two-stop itineraries (built when first needed); -1: none yet.
    var middleSlot: Int32 = -1
    /// One of the origins or destinations (never a connection).
    var isEndpoint = false
    var isDestination = false
  }

  /// Calls `body` for each leg of `legs[range]` (departures of `airport` sorted by local minute)
  /// that leaves within the legal connection window after UTC minute `arrival`, with its pattern
  /// index, pattern, local date and UTC departure.
  @inline(__always)
  private func scan(
    _ legs: [Leg], _ range: Range<Int>, at airport: Int32, after arrival: Int32, arrivingDomestic: Bool,
    _ body: (Int32, FlightNetwork.Pattern, Int32, Int32) -> Void
  ) {
    let zone = network.zones[Int(network.airports[Int(airport)].zone)]
    let earliest = arrival + Self.minimumConnectionDomestic
    let latest = arrival + Self.maximumLayover
    let localEarliest = zone.local(fromUTC: earliest)
    let localLatest = zone.local(fromUTC: latest)
    let firstDay = Self.floorDiv(localEarliest - 60, 1440)
    let lastDay = Self.floorDiv(localLatest + 60, 1440)
    var day = firstDay
    while day <= lastDay {
      let lowMinute = localEarliest - 60 - day * 1440
      let highMinute = localLatest + 60 - day * 1440
      // First leg with departureMinute >= lowMinute.
      var low = range.lowerBound
      var high = range.upperBound
      while low < high {
        let middle = (low + high) >> 1
        if legs[middle].pattern.departureMinute < lowMinute { low = middle + 1 } else { high = middle }
      }
      var position = low
      while position < range.upperBound {
        let index = legs[position].index
        let pattern = legs[position].pattern
        if pattern.departureMinute > highMinute { break }
        position += 1
        guard network.flies(pattern, on: day) else { continue }
        let departure = zone.utc(fromLocal: day * 1440 + pattern.departureMinute)
        let minimum =
          arrivingDomestic && pattern.isDomestic ? Self.minimumConnectionDomestic : Self.minimumConnectionInternational
        guard departure >= arrival + minimum, departure <= latest else { continue }
        body(index, pattern, day, departure)
      }
      day += 1
    }
  }

  @inline(__always)
  static func floorDiv(_ value: Int32, _ divisor: Int32) -> Int32 {
    value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
  }

  /// Every nonstop, plus the connecting candidates not dominated by one departing within an hour.
  static func resultSet(_ candidates: [Candidate]) -> [Candidate] {
    guard candidates.count > 1 else { return candidates }
    let order = candidates.indices.sorted {
      (candidates[$0].departure, $0) < (candidates[$1].departure, $1)
    }
    var kept: [Candidate] = []
    kept.reserveCapacity(candidates.count)
    var windowStart = 0
    for (position, index) in order.enumerated() {
      let candidate = candidates[index]
      if candidate.count == 1 {
        kept.append(candidate)
        continue
      }
      while candidates[order[windowStart]].departure <= candidate.departure - sameHour { windowStart += 1 }
      var dominated = false
      var cursor = windowStart
      while cursor < order.count {
        let otherIndex = order[cursor]
        let other = candidates[otherIndex]
        if other.departure >= candidate.departure + sameHour { break }
        cursor += 1
        if otherIndex == index { continue }
        let price = other.totalCents <= candidate.totalCents
        let duration = other.duration <= candidate.duration
        let stops = other.count <= candidate.count
        guard price && duration && stops else { continue }
        let strictly =
          other.totalCents < candidate.totalCents || other.duration < candidate.duration
          || other.count < candidate.count
        if strictly || cursor - 1 < position {
          dominated = true
          break
        }
      }
      if !dominated { kept.append(candidate) }
    }
    return kept
  }
}
