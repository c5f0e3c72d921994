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
    var fare: Int64 = 0
    var tax: Int64 = 0
    var seats: Int32 = .max
    for leg in 0..<Int(candidate.count) {
      let index = candidate.pattern(leg)
      let day = candidate.day(leg)
      let pattern = network.patterns[Int(index)]
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
    let patterns = network.patterns
    var isEndpoint = [Bool](repeating: false, count: airports.count)
    var isDestination = [Bool](repeating: false, count: airports.count)
    for origin in origins { isEndpoint[Int(origin)] = true }
    for destination in destinations {
      isEndpoint[Int(destination)] = true
      isDestination[Int(destination)] = true
    }
    // Distance budget per origin: 1.5 × the nearest destination + 600 km. (When an airport is
    // given twice, the last entry counts, as a dictionary by airport would keep it.)
    var budget = [Int32](repeating: .max, count: airports.count)
    for origin in origins {
      let a = airports[Int(origin)]
      var nearest = Double.greatestFiniteMagnitude
      for destination in destinations {
        let b = airports[Int(destination)]
        nearest = min(nearest, greatCircleKm(a.latitude, a.longitude, b.latitude, b.longitude))
      }
      budget[Int(origin)] = Int32(nearest * 1.5 + 600)
    }

    // Feeders: per connection airport, its flights into a destination (sorted by departure minute):
    // `feederLists[feederSlot[airport]]` (slot -1: none), with the shortest feeder's distance.
    // Arrays by airport index rather than dictionaries: each first leg asks for its hub's.
    var feederSlot = [Int32](repeating: -1, count: maxStops > 0 ? airports.count : 0)
    var feederLists: [[Int32]] = []
    var feederDistance: [Int32] = []
    if maxStops > 0 {
      for destination in destinations {
        let range = Int(network.arrivalStart[Int(destination)])..<Int(network.arrivalStart[Int(destination) + 1])
        for position in range {
          let index = network.arrivalList[position]
          let pattern = network.arrivalPatterns[position]
          if isEndpoint[Int(pattern.origin)] { continue }
          var slot = Int(feederSlot[Int(pattern.origin)])
          if slot < 0 {
            slot = feederLists.count
            feederSlot[Int(pattern.origin)] = Int32(slot)
            feederLists.append([])
            feederDistance.append(.max)
          }
          feederLists[slot].append(index)
          feederDistance[slot] = min(feederDistance[slot], pattern.distanceKm)
        }
      }
      for slot in feederLists.indices {
        feederLists[slot].sort { patterns[Int($0)].departureMinute < patterns[Int($1)].departureMinute }
      }
    }
    // Second legs for two-stop itineraries, per first connection airport (built on demand):
    // `middleLists[middleSlot[hub]]`.
    var middleSlot = [Int32](repeating: -1, count: maxStops >= 2 ? airports.count : 0)
    var middleLists: [[Int32]] = []

    var results: [Candidate] = []
    results.reserveCapacity(256)

    for origin in origins {
      let limit = budget[Int(origin)]
      let range = Int(network.departureStart[Int(origin)])..<Int(network.departureStart[Int(origin) + 1])
      for position in range {
        let firstIndex = network.departureList[position]
        let first = network.departurePatterns[position]
        guard network.flies(first, on: day) else { continue }
        // With one stop at most, a first leg to a hub without feeders in the budget leads nowhere:
        // skipped before its times are computed.
        if maxStops == 1 && !isDestination[Int(first.destination)] {
          let feeders = Int(feederSlot[Int(first.destination)])
          if feeders < 0 || first.distanceKm >= limit || first.distanceKm + feederDistance[feeders] > limit { continue }
        }
        let departure = network.departureUTC(first, day: day)
        let arrival = departure + first.blockMinutes
        if isDestination[Int(first.destination)] {
          var candidate = Candidate()
          candidate.patterns.0 = firstIndex
          candidate.days.0 = day
          candidate.count = 1
          candidate.departure = departure
          candidate.arrival = arrival
          if price(&candidate) { results.append(candidate) }
          continue
        }
        if maxStops == 0 || isEndpoint[Int(first.destination)] || first.distanceKm >= limit { continue }
        let hub = first.destination
        // One stop.
        let hubFeeders = Int(feederSlot[Int(hub)])
        if hubFeeders >= 0, first.distanceKm + feederDistance[hubFeeders] <= limit {
          scan(feederLists[hubFeeders], at: hub, after: arrival, arrivingDomestic: first.isDomestic) {
            secondIndex, secondDay, secondUTC in
            let second = patterns[Int(secondIndex)]
            guard first.distanceKm + second.distanceKm <= limit else { return }
            var candidate = Candidate()
            candidate.patterns = (firstIndex, secondIndex, -1)
            candidate.days = (day, secondDay, 0)
            candidate.count = 2
            candidate.departure = departure
            candidate.arrival = secondUTC + second.blockMinutes
            if price(&candidate) { results.append(candidate) }
          }
        }
        // Two stops.
        guard maxStops >= 2 else { continue }
        var middle = Int(middleSlot[Int(hub)])
        if middle < 0 {
          var list: [Int32] = []
          let hubRange = Int(network.departureStart[Int(hub)])..<Int(network.departureStart[Int(hub) + 1])
          for position in hubRange {
            let index = network.departureList[position]
            let pattern = network.departurePatterns[position]
            let slot = Int(feederSlot[Int(pattern.destination)])
            if slot >= 0, !isEndpoint[Int(pattern.destination)], pattern.distanceKm + feederDistance[slot] <= limit {
              list.append(index)
            }
          }
          middle = middleLists.count
          middleSlot[Int(hub)] = Int32(middle)
          middleLists.append(list)
        }
        if middleLists[middle].isEmpty { continue }
        scan(middleLists[middle], at: hub, after: arrival, arrivingDomestic: first.isDomestic) {
          secondIndex, secondDay, secondUTC in
          let second = patterns[Int(secondIndex)]
          let hub2 = second.destination
          let hub2Feeders = Int(feederSlot[Int(hub2)])
          guard hub2 != hub, hub2Feeders >= 0,
            first.distanceKm + second.distanceKm + feederDistance[hub2Feeders] <= limit
          else { return }
          let list = feederLists[hub2Feeders]
          let secondArrival = secondUTC + second.blockMinutes
          scan(list, at: hub2, after: secondArrival, arrivingDomestic: second.isDomestic) {
            thirdIndex, thirdDay, thirdUTC in
            let third = patterns[Int(thirdIndex)]
            guard first.distanceKm + second.distanceKm + third.distanceKm <= limit, third.destination != hub else {
              return
            }
            var candidate = Candidate()
            candidate.patterns = (firstIndex, secondIndex, thirdIndex)
            candidate.days = (day, secondDay, thirdDay)
            candidate.count = 3
            candidate.departure = departure
            candidate.arrival = thirdUTC + third.blockMinutes
            if price(&candidate) { results.append(candidate) }
          }
        }
      }
    }
    return Self.resultSet(results)
  }

  /// Calls `body` for each pattern of `list` (departures of `airport` sorted by local minute) that
  /// leaves within the legal connection window after UTC minute `arrival`, with its local date
  /// and UTC departure.
  @inline(__always)
  private func scan(
    _ list: [Int32], at airport: Int32, after arrival: Int32, arrivingDomestic: Bool,
    _ body: (Int32, Int32, Int32) -> Void
  ) {
    let zone = network.zones[Int(network.airports[Int(airport)].zone)]
    let earliest = arrival + Self.minimumConnectionDomestic
    let latest = arrival + Self.maximumLayover
    let localEarliest = zone.local(fromUTC: earliest)
    let localLatest = zone.local(fromUTC: latest)
    let firstDay = Self.floorDiv(localEarliest - 60, 1440)
    let lastDay = Self.floorDiv(localLatest + 60, 1440)
    let patterns = network.patterns
    var day = firstDay
    while day <= lastDay {
      let lowMinute = localEarliest - 60 - day * 1440
      let highMinute = localLatest + 60 - day * 1440
      // First pattern with departureMinute >= lowMinute.
      var low = 0
      var high = list.count
      while low < high {
        let middle = (low + high) >> 1
        if patterns[Int(list[middle])].departureMinute < lowMinute { low = middle + 1 } else { high = middle }
      }
      var position = low
      while position < list.count {
        let index = list[position]
        let pattern = patterns[Int(index)]
        if pattern.departureMinute > highMinute { break }
        position += 1
        guard network.flies(pattern, on: day) else { continue }
        let departure = zone.utc(fromLocal: day * 1440 + pattern.departureMinute)
        let minimum =
          arrivingDomestic && pattern.isDomestic ? Self.minimumConnectionDomestic : Self.minimumConnectionInternational
        guard departure >= arrival + minimum, departure <= latest else { continue }
        body(index, day, departure)
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
