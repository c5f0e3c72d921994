/// A route as stored: indices instead of strings (16 bytes instead of about 70), so loading
/// 66,000 routes allocates almost nothing; ``RouteTable/route(_:airports:)`` makes the ``Route``.
struct PackedRoute: Hashable, Sendable {
  /// Index of the airline code in ``RouteTable/strings``.
  var airline: UInt32
  /// Index of the origin in ``ReferenceData/airports``.
  var origin: UInt16
  /// Index of the destination in ``ReferenceData/airports``.
  var destination: UInt16
  var codeshare: Bool
  var stops: UInt8
  /// Index of the aircraft list in ``RouteTable/equipment``.
  var equipment: UInt32
}

/// The routes of ``ReferenceData``, packed, sorted by origin then destination (airport order).
struct RouteTable: Sendable {
  /// The strings that ``PackedRoute/airline`` points into.
  let strings: [String]
  /// The distinct aircraft lists.
  let equipment: [[String]]
  let routes: [PackedRoute]

  init(strings: [String], equipment: [[String]], routes: [PackedRoute]) {
    self.strings = strings
    self.equipment = equipment
    self.routes = routes
  }

  /// Packs `routes` between `airports` (sorted by IATA code); routes with an unknown airport are
  /// dropped, the rest sorted by origin, destination, then their order in `routes`.
  init(routes: [Route], airports: [Airport]) {
    var airportIndex: [String: UInt16] = [:]
    for (index, airport) in airports.enumerated() { airportIndex[airport.iata] = UInt16(truncatingIfNeeded: index) }
    var strings: [String] = []
    var stringIDs: [String: UInt32] = [:]
    var equipment: [[String]] = []
    var equipmentIDs: [[String]: UInt32] = [:]
    var packed: [(route: PackedRoute, order: Int)] = []
    for (order, route) in routes.enumerated() {
      guard let origin = airportIndex[route.origin], let destination = airportIndex[route.destination] else { continue }
      let airline = stringIDs[route.airline] ?? UInt32(strings.count)
      if airline == UInt32(strings.count) {
        strings.append(route.airline)
        stringIDs[route.airline] = airline
      }
      let list = equipmentIDs[route.equipment] ?? UInt32(equipment.count)
      if list == UInt32(equipment.count) {
        equipment.append(route.equipment)
        equipmentIDs[route.equipment] = list
      }
      packed.append(
        (
          PackedRoute(
            airline: airline, origin: origin, destination: destination, codeshare: route.codeshare,
            stops: UInt8(clamping: route.stops), equipment: list), order
        ))
    }
    packed.sort {
      ($0.route.origin, $0.route.destination, $0.order) < ($1.route.origin, $1.route.destination, $1.order)
    }
    self.init(strings: strings, equipment: equipment, routes: packed.map(\.route))
  }

  /// The route `packed` stands for.
  func route(_ packed: PackedRoute, airports: [Airport]) -> Route {
    Route(
      airline: strings[Int(packed.airline)], origin: airports[Int(packed.origin)].iata,
      destination: airports[Int(packed.destination)].iata, codeshare: packed.codeshare, stops: Int(packed.stops),
      equipment: equipment[Int(packed.equipment)])
  }
}
