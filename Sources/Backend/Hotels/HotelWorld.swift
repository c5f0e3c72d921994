import Common
import Foundation

/// The generated hotel inventory of the whole world, in a compact form that builds in a few
/// milliseconds and answers radius searches and map viewports from a Morton-ordered index.
///
/// ## The model (same inputs, same hotels)
/// - **Cities**: every city given (the app passes GeoNames cities with population ≥ 100,000).
/// - **How many**: `3 + population / 25,000` hotels around each city's centre (≈ 133,000 for the
///   6,204 cities of `Shared/geonames/cities.csv`; Shanghai ≈ 1,000, a city of 100,000 people 7),
///   plus, around each airport, one hotel per 25 routes (``Airport/hotelCount``: Atlanta 73,
///   Frankfurt 39; ≈ 4,000 at 694 airports), whatever the size of the city proper: the airport's
///   hotels belong to the nearest city within 50 km (``City/airports``; an airport with none has
///   no hotels), numbered after its centre's.
/// - **Where**: on land, within `2 + 4 × √(population / 1,000,000)` km of the centre, capped at
///   30 km (Paris ≈ 7.8 km, Shanghai 22 km). The density falls off from the centre as
///   `exp(−r / r₀)` with `r₀` a quarter of that radius (a dense core: half of a city's hotels
///   within about half the radius, a third within a quarter of it): the distance is drawn from
///   a gamma(2, r₀) distribution (truncated at the radius), the bearing uniformly (a point of the
///   unit disc, normalised). A point in
///   the water (the sea, a bay, a strait, a lake: ``LandIndex`` of the finest ``Basemap`` level,
///   GSHHG intermediate) is drawn again, up to ``placementAttempts`` times, so coastal cities
///   keep the same falloff over their land only. A city whose land is too small for that (a
///   small island) places the hotel on a lattice point of its land within the radius, jittered
///   and tested again (``landLattice(around:radiusKm:land:)``); a centre with no land at all
///   within its radius looks within twice, four times … the radius, up to 64 km. An airport's
///   hotels are drawn the same way within 5 km of it, with r₀ = 1 km (half within 1.7 km), and
///   run an airport shuttle nine times in ten; an airport with no land within 5 km in the
///   shoreline data (Kansai, on its reclaimed island) has them on the nearest shore.
/// - **Identity and seed**: hotel `n` of the city with GeoNames id `g` is `h<g>-<n>`; every
///   attribute comes from a SplitMix64 generator seeded with `(g, n)`, so a hotel does not change
///   when other cities are added or removed.
/// - **Stars** 1–5 (big cities have more 4–5 stars), **guest rating** 1.0–10.0 around
///   `5.6 + 0.6 × stars`, **amenities** with star-dependent likelihoods, **rooms** (see
///   ``HotelPricing`` for rates): the attributes that searches filter on are stored; names, rooms,
///   descriptions and reviews are derived from the seed only when asked for.
///
/// ## The index
/// Hotels are sorted by the Morton (Z-order) code of their position on a 2²⁰ × 2²⁰ longitude ×
/// latitude grid. Any grid cell at any level is then one contiguous run of the array, found by
/// two binary searches, so a radius search visits only the few cells around the centre, and a map
/// viewport is answered cell by cell with prefix sums of the coordinates for cluster centroids.
public final class HotelWorld: Sendable {
  /// A city hotels are generated around (from the reference data).
  public struct City: Sendable, Hashable {
    public var geonameId: Int
    public var name: String
    /// ISO 3166-1 alpha-2.
    public var countryCode: String
    /// GeoNames continent code: AF, AN, AS, EU, NA, OC, SA.
    public var continent: String
    public var latitude: Double
    public var longitude: Double
    public var population: Int
    /// IANA time zone.
    public var timeZone: String
    /// ISO 4217 code of the country's currency.
    public var currencyCode: String

    /// The airports whose hotels belong to this city (those it is the nearest city of), busiest
    /// first; empty for a city without one.
    public var airports: [Airport]

    public init(
      geonameId: Int, name: String, countryCode: String, continent: String, latitude: Double, longitude: Double,
      population: Int, timeZone: String, currencyCode: String, airports: [Airport] = []
    ) {
      self.geonameId = geonameId
      self.name = name
      self.countryCode = countryCode
      self.continent = continent
      self.latitude = latitude
      self.longitude = longitude
      self.population = population
      self.timeZone = timeZone
      self.currencyCode = currencyCode
      self.airports = airports
    }

    /// Hotels generated around the city's centre: `3 + population / 25,000`.
    public var centreHotelCount: Int { 3 + population / 25_000 }
    /// Hotels generated for this city: around its centre, then around each of its ``airports``.
    public var hotelCount: Int { airports.reduce(centreHotelCount) { $0 + $1.hotelCount } }
    /// Radius (km) hotels are placed within.
    public var radiusKm: Double { min(30, 2 + 4 * (Double(population) / 1_000_000).squareRoot()) }
  }

  /// An airport with hotels around it: the hotels travellers take before an early flight or
  /// after a late one, whatever the size of the city the airport serves.
  public struct Airport: Sendable, Hashable {
    /// IATA code.
    public var iata: String
    public var latitude: Double
    public var longitude: Double
    /// Routes at the airport (OpenFlights, departures plus arrivals).
    public var routes: Int

    public init(iata: String, latitude: Double, longitude: Double, routes: Int) {
      self.iata = iata
      self.latitude = latitude
      self.longitude = longitude
      self.routes = routes
    }

    /// Hotels generated around the airport: one per ``routesPerHotel`` routes (Atlanta's 1,826
    /// routes: 73; an airport of fewer than 25 routes: none).
    public var hotelCount: Int { routes / HotelWorld.routesPerHotel }
    /// Radius (km) the airport's hotels are placed within, when the shoreline data has land
    /// within it (every airport but Kansai, whose island it lacks).
    public static let radiusKm = 5.0
    /// How far from an airport without land within ``radiusKm`` its hotels may stand: on the
    /// nearest shore, within 1 km beyond the first land found.
    public static let farthestShoreKm = 20.0
  }

  /// Routes at an airport per hotel around it (``Airport/hotelCount``).
  public static let routesPerHotel = 25

  public let cities: [City]
  /// Hotels in Morton order (the index): position, city, number within the city, stored attributes.
  let latitudes: [Double]
  let longitudes: [Double]
  let mortonCodes: [UInt64]
  let cityIndexes: [Int32]
  let ordinals: [Int32]
  let stars: [UInt8]
  /// Guest rating in tenths (10…100).
  let ratings: [UInt8]
  let amenityMasks: [UInt16]
  /// Prefix sums of latitudes and longitudes (count + 1 entries) for cluster centroids.
  let latitudePrefix: [Double]
  let longitudePrefix: [Double]
  /// Index of the first hotel of each city in generation order, and generation order → Morton order.
  let cityFirstHotel: [Int32]
  let sortedPosition: [Int32]
  let cityByGeonameId: [Int: Int32]

  /// The number of hotels.
  public var count: Int { latitudes.count }

  /// Generates the hotels around `cities` on the land of the shared ``Basemap``'s finest level.
  /// - Throws: ``ServiceError`` `map_data_unavailable` when the basemap cannot be loaded.
  public convenience init(cities: [City]) throws(ServiceError) {
    let land = try Basemap.sharedFinest().land()
    self.init(cities: cities, land: land)
  }

  /// Generates the hotels around `cities`, every one on `land`. Deterministic; linear in the
  /// number of hotels plus a sort.
  public init(cities: [City], land: LandIndex) {
    self.cities = cities
    var total = 0
    var firsts: [Int32] = []
    firsts.reserveCapacity(cities.count + 1)
    for city in cities {
      firsts.append(Int32(total))
      total += city.hotelCount
    }
    firsts.append(Int32(total))
    cityFirstHotel = firsts

    var lat = [Double](repeating: 0, count: total)
    var lon = [Double](repeating: 0, count: total)
    var codes = [UInt64](repeating: 0, count: total)
    var starArray = [UInt8](repeating: 0, count: total)
    var ratingArray = [UInt8](repeating: 0, count: total)
    var amenityArray = [UInt16](repeating: 0, count: total)
    var cityArray = [Int32](repeating: 0, count: total)
    var ordinalArray = [Int32](repeating: 0, count: total)
    var byId: [Int: Int32] = [:]
    byId.reserveCapacity(cities.count)
    for (cityIndex, city) in cities.enumerated() {
      byId[city.geonameId] = Int32(cityIndex)
      let first = Int(firsts[cityIndex])
      let bigCity = city.population >= 1_000_000
      // The discs the city's hotels are drawn in: its centre's, then each airport's.
      var discs = [Disc(city: city)]
      var ends = [city.centreHotelCount]
      for airport in city.airports where airport.hotelCount > 0 {
        discs.append(Disc(airport: airport))
        ends.append(ends[ends.count - 1] + airport.hotelCount)
      }
      var lattices = [LandLattice?](repeating: nil, count: discs.count)
      var disc = 0
      for n in 0..<city.hotelCount {
        let i = first + n
        while n >= ends[disc] { disc += 1 }
        var rng = SplitMix64(hotel: city.geonameId, ordinal: n)
        let (hLat, hLon) = Self.place(discs[disc], &rng, land: land, lattice: &lattices[disc])
        lat[i] = hLat
        lon[i] = hLon
        codes[i] = Morton.code(latitude: hLat, longitude: hLon)
        let s = Self.stars(&rng, bigCity: bigCity)
        starArray[i] = UInt8(s)
        let rating = 5.6 + 0.6 * Double(s) + (rng.unit() + rng.unit() - 1) * 2.2
        ratingArray[i] = UInt8(min(100, max(10, (rating * 10).rounded())))
        amenityArray[i] = Self.amenities(&rng, stars: s, latitude: hLat, atAirport: disc > 0)
        cityArray[i] = Int32(cityIndex)
        ordinalArray[i] = Int32(n)
      }
    }
    cityByGeonameId = byId

    // Sort into Morton order (ties by generation order, so the order is deterministic): one key
    // per hotel, the 40-bit code above a 23-bit generation index, sorted as plain integers.
    precondition(total < 1 << 23, "too many hotels for the index")
    var keys = [UInt64](repeating: 0, count: total)
    for i in 0..<total { keys[i] = codes[i] << 23 | UInt64(i) }
    Self.radixSort(&keys)
    let order = keys.map { Int($0 & 0x7F_FFFF) }
    var position = [Int32](repeating: 0, count: total)
    for (sorted, original) in order.enumerated() { position[original] = Int32(sorted) }
    sortedPosition = position
    latitudes = order.map { lat[$0] }
    longitudes = order.map { lon[$0] }
    mortonCodes = keys.map { $0 >> 23 }
    cityIndexes = order.map { cityArray[$0] }
    ordinals = order.map { ordinalArray[$0] }
    stars = order.map { starArray[$0] }
    ratings = order.map { ratingArray[$0] }
    amenityMasks = order.map { amenityArray[$0] }
    var latSum = [Double](repeating: 0, count: total + 1)
    var lonSum = [Double](repeating: 0, count: total + 1)
    for i in 0..<total {
      latSum[i + 1] = latSum[i] + latitudes[i]
      lonSum[i + 1] = lonSum[i] + longitudes[i]
    }
    latitudePrefix = latSum
    longitudePrefix = lonSum
  }

  /// Candidate points drawn for a hotel before falling back on the city's land lattice.
  static let placementAttempts = 32
  /// Points per side of the land lattice (``landLattice(around:radiusKm:land:)``).
  static let latticeSide = 33
  /// How far from its centre a city's lattice looks for land when there is none within its radius.
  static let farthestLatticeKm = 64.0

  /// Where a run of hotels is drawn: a centre, the radius they stay within (km), the scale r₀ of
  /// the density's falloff `exp(−r / r₀)` (km), how far the land lattice may look when the disc
  /// holds no land, and how it widens its look (km added each time; nil: doubling).
  struct Disc {
    var latitude: Double
    var longitude: Double
    var radiusKm: Double
    var scaleKm: Double
    var farthestKm: Double
    var widenKm: Double?

    /// A city's centre: its radius, r₀ a quarter of it, land looked for up to ``farthestLatticeKm``.
    init(city: City) {
      latitude = city.latitude
      longitude = city.longitude
      radiusKm = city.radiusKm
      scaleKm = radiusKm / 4
      farthestKm = HotelWorld.farthestLatticeKm
      widenKm = nil
    }

    /// An airport: within ``Airport/radiusKm`` (5 km), r₀ 1 km (half its hotels within 1.7 km).
    /// An airport on reclaimed land the shoreline data lacks (Kansai's island: no land within
    /// 5 km) has its hotels on the nearest shore, as Kansai's are across the bridge in Rinku
    /// Town: land looked for 1 km farther at a time, up to ``Airport/farthestShoreKm``.
    init(airport: Airport) {
      latitude = airport.latitude
      longitude = airport.longitude
      radiusKm = Airport.radiusKm
      scaleKm = 1
      farthestKm = Airport.farthestShoreKm
      widenKm = 1
    }
  }

  /// The land points of a disc's lattice, and the radius they were looked for within.
  struct LandLattice {
    var radiusKm: Double
    var points: [(latitude: Double, longitude: Double)]
  }

  /// A hotel's position: drawn with the disc's falloff until it is on land, else from the disc's
  /// land lattice (built on first need, shared by the disc's hotels).
  static func place(
    _ disc: Disc, _ rng: inout SplitMix64, land: LandIndex, lattice: inout LandLattice?
  ) -> (latitude: Double, longitude: Double) {
    let radius = disc.radiusKm
    let scale = disc.scaleKm
    let cosLat = max(0.05, cos(disc.latitude * .pi / 180))
    for _ in 0..<placementAttempts {
      // Gamma(2, r₀): the distance of a point whose density in the plane is ∝ exp(−r / r₀).
      let r = -scale * log(rng.unit() * rng.unit())
      guard r <= radius else { continue }
      // A uniform bearing without trigonometry: a point of the unit disc, normalised.
      var x = 0.0
      var y = 0.0
      var rho2 = 2.0
      while rho2 > 1 || rho2 < 1e-12 {
        x = rng.unit() * 2 - 1
        y = rng.unit() * 2 - 1
        rho2 = x * x + y * y
      }
      let rho = rho2.squareRoot()
      let point = offset((disc.latitude, disc.longitude), north: r * y / rho, east: r * x / rho, cosLat: cosLat)
      if land.isLand(latitude: point.latitude, longitude: point.longitude) { return point }
    }
    if lattice == nil {
      // The land within the radius; if there is none (a centre at sea), within twice, four
      // times … that radius (an airport: 1 km more at a time), up to the disc's farthest.
      var reach = radius
      var found = LandLattice(radiusKm: reach, points: landLattice(around: disc, radiusKm: reach, land: land))
      while found.points.isEmpty && reach < disc.farthestKm {
        reach = min(disc.farthestKm, disc.widenKm.map { reach + $0 } ?? reach * 2)
        found = LandLattice(radiusKm: reach, points: landLattice(around: disc, radiusKm: reach, land: land))
      }
      lattice = found
    }
    guard let found = lattice, !found.points.isEmpty else {
      // No land anywhere near: the centre (never happens with the shipped data and cities:
      // HotelWorldTests checks that every hotel is on land).
      return (disc.latitude, disc.longitude)
    }
    let reach = found.radiusKm
    let step = 2 * reach / Double(latticeSide - 1)
    let anchor = found.points[rng.int(found.points.count)]
    for _ in 0..<8 {
      let north = (rng.unit() - 0.5) * step
      let east = (rng.unit() - 0.5) * step
      let point = offset(anchor, north: north, east: east, cosLat: cosLat)
      if land.isLand(latitude: point.latitude, longitude: point.longitude),
        GreatCircle.kilometres(disc.latitude, disc.longitude, point.latitude, point.longitude) <= reach
      {
        return point
      }
    }
    return anchor
  }

  /// The point `north` and `east` km from `origin` (local equirectangular, `cosLat` the cosine of
  /// the city's latitude), latitude clamped to ±89.9°, longitude wrapped into −180…180.
  private static func offset(
    _ origin: (latitude: Double, longitude: Double), north: Double, east: Double, cosLat: Double
  ) -> (latitude: Double, longitude: Double) {
    let latitude = min(89.9, max(-89.9, origin.latitude + north / 111.195))
    var longitude = origin.longitude + east / (111.195 * cosLat)
    if longitude > 180 { longitude -= 360 }
    if longitude < -180 { longitude += 360 }
    return (latitude, longitude)
  }

  /// The points of a ``latticeSide`` × ``latticeSide`` lattice over a disc of `radius` km around
  /// the disc's centre that are on land.
  static func landLattice(around city: Disc, radiusKm radius: Double, land: LandIndex) -> [(
    latitude: Double, longitude: Double
  )] {
    let cosLat = max(0.05, cos(city.latitude * .pi / 180))
    let step = 2 * radius / Double(latticeSide - 1)
    var points: [(latitude: Double, longitude: Double)] = []
    for row in 0..<latticeSide {
      for column in 0..<latticeSide {
        let north = -radius + Double(row) * step
        let east = -radius + Double(column) * step
        guard north * north + east * east <= radius * radius else { continue }
        let point = offset((city.latitude, city.longitude), north: north, east: east, cosLat: cosLat)
        if land.isLand(latitude: point.latitude, longitude: point.longitude) { points.append(point) }
      }
    }
    return points
  }

  /// Sorts 64-bit keys (LSD radix sort, four 16-bit digits): linear, no comparisons.
  static func radixSort(_ keys: inout [UInt64]) {
    var buffer = [UInt64](repeating: 0, count: keys.count)
    var counts = [Int](repeating: 0, count: 1 << 16)
    for pass in 0..<4 {
      let shift = UInt64(pass * 16)
      for i in counts.indices { counts[i] = 0 }
      keys.withUnsafeBufferPointer { source in
        for key in source { counts[Int((key >> shift) & 0xFFFF)] += 1 }
      }
      var offset = 0
      for i in counts.indices {
        let count = counts[i]
        counts[i] = offset
        offset += count
      }
      keys.withUnsafeBufferPointer { source in
        buffer.withUnsafeMutableBufferPointer { target in
          for key in source {
            let digit = Int((key >> shift) & 0xFFFF)
            target[counts[digit]] = key
            counts[digit] += 1
          }
        }
      }
      swap(&keys, &buffer)
    }
  }

  private static let bigCityStars: [Double] = [0.06, 0.24, 0.58, 0.86]
  private static let starThresholds: [Double] = [0.09, 0.32, 0.70, 0.93]

  private static func stars(_ rng: inout SplitMix64, bigCity: Bool) -> Int {
    let u = rng.unit()
    let thresholds = bigCity ? bigCityStars : starThresholds
    for (index, threshold) in thresholds.enumerated() where u < threshold { return index + 1 }
    return 5
  }

  /// Likelihood of each amenity (in ``Amenity/allCases`` order) as `base + perStar × stars`;
  /// air conditioning is 0.95 within 35° of the equator.
  private static let amenityOdds: [(bit: UInt16, base: Double, perStar: Double)] = [
    (Amenity.wifi.bit, 0.96, 0), (Amenity.breakfast.bit, 0.35, 0.12), (Amenity.pool.bit, -0.1, 0.15),
    (Amenity.parking.bit, 0.45, 0.05), (Amenity.gym.bit, -0.2, 0.22), (Amenity.spa.bit, -0.5, 0.2),
    (Amenity.pets.bit, 0.3, 0), (Amenity.accessible.bit, 0.35, 0.1), (Amenity.restaurant.bit, 0.1, 0.18),
    (Amenity.bar.bit, 0.05, 0.17), (Amenity.airportShuttle.bit, 0.05, 0.04), (Amenity.airConditioning.bit, 0.3, 0.12),
  ]
  private static let airConditioningBit = Amenity.airConditioning.bit

  private static let airportShuttleBit = Amenity.airportShuttle.bit

  /// The amenities of a hotel; an airport's hotels run a shuttle to it nine times in ten.
  private static func amenities(_ rng: inout SplitMix64, stars: Int, latitude: Double, atAirport: Bool) -> UInt16 {
    let s = Double(stars)
    var mask: UInt16 = 0
    for odds in amenityOdds {
      var odd = odds.bit == airConditioningBit && abs(latitude) < 35 ? 0.95 : odds.base + odds.perStar * s
      if atAirport && odds.bit == airportShuttleBit { odd = 0.9 }
      if rng.unit() < odd { mask |= odds.bit }
    }
    return mask
  }

  // MARK: Ids

  /// The id of the hotel at Morton position `i`.
  func hotelId(at i: Int) -> String { "h\(cities[Int(cityIndexes[i])].geonameId)-\(ordinals[i])" }

  /// The Morton position of hotel `id`, or nil when no such hotel exists.
  func position(of id: String) -> Int? {
    guard id.hasPrefix("h"), let dash = id.firstIndex(of: "-"),
      let geonameId = Int(id[id.index(after: id.startIndex)..<dash]),
      let ordinal = Int(id[id.index(after: dash)...]), ordinal >= 0,
      let city = cityByGeonameId[geonameId]
    else { return nil }
    let first = Int(cityFirstHotel[Int(city)])
    guard ordinal < Int(cityFirstHotel[Int(city) + 1]) - first else { return nil }
    return Int(sortedPosition[first + ordinal])
  }

  func city(at i: Int) -> City { cities[Int(cityIndexes[i])] }

  /// A generator positioned on hotel `i`'s seed after the stored attributes (for derived ones).
  func rng(at i: Int, stream: UInt64) -> SplitMix64 {
    var rng = SplitMix64(hotel: city(at: i).geonameId, ordinal: Int(ordinals[i]))
    rng.state &+= stream &* 0x9E37_79B9_7F4A_7C15
    return rng
  }

  // MARK: Spatial queries

  /// The hotels within `radiusKm` (great circle) of a point: Morton positions and distances.
  func hotels(nearLatitude latitude: Double, longitude: Double, radiusKm: Double) -> [(index: Int, km: Double)] {
    var result: [(index: Int, km: Double)] = []
    let latSpan = radiusKm / 111.195
    // The level whose cells are at least as tall as the radius: ~2×2 to 3×3 cells cover the box.
    let level = max(0, min(Morton.bits, Int(log2(180 / max(latSpan, 1e-6)))))
    let cells = 1 << level
    let south = max(-90, latitude - latSpan)
    let north = min(90, latitude + latSpan)
    let y0 = Morton.cell(latitude: south, level: level)
    let y1 = Morton.cell(latitude: north, level: level)
    let cosLat = cos(latitude * .pi / 180)
    let polar = north >= 89.9 || south <= -89.9 || cosLat < 1e-6
    let lonSpan = polar ? 180 : min(180, latSpan / max(cos(max(abs(south), abs(north)) * .pi / 180), 1e-6))
    var xs: [Int]
    if lonSpan >= 180 {
      xs = Array(0..<cells)
    } else {
      let x0 = Morton.cell(longitude: longitude - lonSpan, level: level)
      let x1 = Morton.cell(longitude: longitude + lonSpan, level: level)
      xs = []
      var x = x0
      while true {
        xs.append(x)
        if x == x1 || xs.count >= cells { break }
        x = (x + 1) % cells
      }
    }
    for y in y0...y1 {
      for x in xs {
        let range = cellRange(x: x, y: y, level: level)
        for i in range {
          let km = GreatCircle.kilometres(latitude, longitude, latitudes[i], longitudes[i])
          if km <= radiusKm { result.append((i, km)) }
        }
      }
    }
    return result
  }

  /// The Morton positions of the hotels in cell (`x`, `y`) of `level` (2^level cells each way).
  func cellRange(x: Int, y: Int, level: Int) -> Range<Int> {
    let shift = UInt64(2 * (Morton.bits - level))
    let prefix = Morton.interleave(UInt64(x), UInt64(y))
    let low = prefix << shift
    let high = (prefix + 1) << shift
    return lowerBound(low)..<lowerBound(high)
  }

  private func lowerBound(_ code: UInt64) -> Int {
    var low = 0
    var high = mortonCodes.count
    while low < high {
      let mid = (low + high) / 2
      if mortonCodes[mid] < code { low = mid + 1 } else { high = mid }
    }
    return low
  }

  /// Markers for a map viewport: single hotels, or clusters (centroid and count) of the grid cells
  /// that hold more than one hotel, at the grid level that gives about `maxMarkers` cells.
  func markers(in viewport: GeoRect, maxMarkers: Int) -> [HotelMapMarker] {
    let south = max(-90, min(viewport.south, viewport.north))
    let north = min(90, max(viewport.south, viewport.north))
    var width = viewport.east - viewport.west
    if width < 0 { width += 360 }
    width = min(360, max(width, 1e-9))
    let height = max(north - south, 1e-9)
    let target = Double(max(1, maxMarkers))
    // The level whose cells are about height / √target tall: about `target` cells in the viewport.
    let fromHeight = log2(target.squareRoot() * 180 / height)
    let level = max(0, min(Morton.bits, Int(fromHeight.rounded(.down))))
    let cells = 1 << level
    let y0 = Morton.cell(latitude: south, level: level)
    let y1 = Morton.cell(latitude: north, level: level)
    let x0 = Morton.cell(longitude: viewport.west, level: level)
    let columns = min(cells, Int((width / (360 / Double(cells))).rounded(.up)) + 1)
    var ranges: [Range<Int>] = []
    var total = 0
    for y in y0...y1 {
      for step in 0..<columns {
        let range = cellRange(x: (x0 + step) % cells, y: y, level: level)
        if range.isEmpty { continue }
        ranges.append(range)
        total += range.count
      }
    }
    var markers: [HotelMapMarker] = []
    func single(_ i: Int) {
      guard inside(latitudes[i], longitudes[i], south: south, north: north, viewport: viewport) else { return }
      markers.append(
        HotelMapMarker(
          latitude: latitudes[i], longitude: longitudes[i], count: 1, hotelId: hotelId(at: i), stars: Int(stars[i])))
    }
    // Few enough to show one by one: every hotel of the viewport.
    if total <= maxMarkers {
      for range in ranges { for i in range { single(i) } }
      return markers
    }
    for range in ranges {
      if range.count == 1 {
        single(range.lowerBound)
      } else {
        let n = Double(range.count)
        let cLat = (latitudePrefix[range.upperBound] - latitudePrefix[range.lowerBound]) / n
        let cLon = (longitudePrefix[range.upperBound] - longitudePrefix[range.lowerBound]) / n
        markers.append(HotelMapMarker(latitude: cLat, longitude: cLon, count: range.count))
      }
    }
    return markers
  }

  private func inside(_ lat: Double, _ lon: Double, south: Double, north: Double, viewport: GeoRect) -> Bool {
    guard lat >= south, lat <= north else { return false }
    if viewport.west <= viewport.east { return lon >= viewport.west && lon <= viewport.east }
    return lon >= viewport.west || lon <= viewport.east
  }
}

/// Z-order codes of positions on a 2²⁰ × 2²⁰ longitude × latitude grid.
enum Morton {
  static let bits = 20

  static func cell(latitude: Double, level: Int) -> Int {
    let cells = 1 << level
    return min(cells - 1, max(0, Int((latitude + 90) / 180 * Double(cells))))
  }

  static func cell(longitude: Double, level: Int) -> Int {
    let cells = 1 << level
    var lon = longitude
    while lon < -180 { lon += 360 }
    while lon >= 180 { lon -= 360 }
    return min(cells - 1, max(0, Int((lon + 180) / 360 * Double(cells))))
  }

  static func code(latitude: Double, longitude: Double) -> UInt64 {
    interleave(UInt64(cell(longitude: longitude, level: bits)), UInt64(cell(latitude: latitude, level: bits)))
  }

  /// Bits of `x` at even positions, bits of `y` at odd positions.
  static func interleave(_ x: UInt64, _ y: UInt64) -> UInt64 { spread(x) | (spread(y) << 1) }

  private static func spread(_ value: UInt64) -> UInt64 {
    var v = value & 0xFFFFF
    v = (v | (v << 16)) & 0x0000_FFFF_0000_FFFF
    v = (v | (v << 8)) & 0x00FF_00FF_00FF_00FF
    v = (v | (v << 4)) & 0x0F0F_0F0F_0F0F_0F0F
    v = (v | (v << 2)) & 0x3333_3333_3333_3333
    v = (v | (v << 1)) & 0x5555_5555_5555_5555
    return v
  }
}

/// Great-circle distance: the haversine formula of `Geography.distanceKm` on raw degrees (no
/// `Coordinate` values in the index's inner loop), same Earth radius.
enum GreatCircle {
  static func kilometres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
    let rad = Double.pi / 180
    let dLat = (lat2 - lat1) * rad
    let dLon = (lon2 - lon1) * rad
    let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * rad) * cos(lat2 * rad) * sin(dLon / 2) * sin(dLon / 2)
    return 2 * Geography.earthRadiusKm * asin(min(1, a.squareRoot()))
  }
}

/// SplitMix64 (Steele, Lea and Flood 2014): a small, fast, well-mixed deterministic generator.
struct SplitMix64 {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  init(hotel geonameId: Int, ordinal: Int) {
    state = UInt64(truncatingIfNeeded: geonameId) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(ordinal) &* 0xD1B5_4A32_D192_ED03
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Uniform in [0, 1).
  mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

  /// Uniform in `0..<bound`.
  mutating func int(_ bound: Int) -> Int { bound <= 1 ? 0 : Int(next() % UInt64(bound)) }
}
