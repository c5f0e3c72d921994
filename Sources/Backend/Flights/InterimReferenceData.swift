import Common
import Foundation

// Interim: reads the CSVs of `Shared/` directly until the compiled `ReferenceData` of Common is
// on main; then the wiring switches to it and this file goes.

extension FlightNetworkInput {
  /// Airports (airportsdata), airlines and non-codeshare direct routes (OpenFlights.org) and
  /// aircraft type names from the CSVs of `Shared/`.
  static func shared() throws -> FlightNetworkInput {
    let airports = try CSVTable.shared("airports/airports.csv")
    let path = "airports/airports.csv"
    let (iata, name, city, country) = (
      try airports.column("iata", in: path), try airports.column("name", in: path),
      try airports.column("city", in: path), try airports.column("country", in: path)
    )
    let (lat, lon, tz) = (
      try airports.column("lat", in: path), try airports.column("lon", in: path), try airports.column("tz", in: path)
    )
    let airportList = airports.rows.filter { !$0[iata].isEmpty }.map {
      Airport(
        iata: $0[iata], name: $0[name], city: $0[city], country: $0[country], latitude: Double($0[lat]) ?? 0,
        longitude: Double($0[lon]) ?? 0, timeZone: $0[tz])
    }
    var airlines: [String: String] = [:]
    for row in try CSVTable.shared("openflights/airlines.csv").rows
    where row.count > 7 && row[3].count == 2 && row[3] != "\\N" && row[3] != "-" {
      if row[7] == "Y" || airlines[row[3]] == nil { airlines[row[3]] = row[1] }
    }
    let routes = try CSVTable.shared("openflights/routes.csv").rows.filter {
      $0.count > 8 && $0[6] != "Y" && $0[7] == "0"
    }
    .map {
      Route(
        airline: $0[0], origin: $0[2], destination: $0[4], equipment: $0[8].split(separator: " ").map(String.init))
    }
    var names: [String: String] = [:]
    for row in try CSVTable.shared("openflights/aircraft_types.csv").rows where row.count > 1 && row[1] != "\\N" {
      names[row[1]] = row[0]
    }
    return FlightNetworkInput(airports: airportList, airlines: airlines, routes: routes, aircraftNames: names)
  }
}

/// Interim place resolution over the network's airports: IATA airport codes, IATA metropolitan
/// codes (`Shared/airports/iata_metro_areas.csv`) and city names (diacritics-insensitive).
enum InterimPlaces {
  static func fold(_ text: String) -> String {
    text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "en_US_POSIX"))
      .trimmingCharacters(in: .whitespaces)
  }

  static func resolver(_ network: FlightNetwork) -> FlightEngine.PlaceResolver {
    var metros: [String: [String]] = [:]
    if let table = try? CSVTable.shared("airports/iata_metro_areas.csv") {
      for row in table.rows where row.count > 3 { metros[row[1], default: []].append(row[3]) }
    }
    var byCity: [String: [String]] = [:]
    for airport in network.airports { byCity[fold(airport.city), default: []].append(airport.iata) }
    return { [metros, byCity] text in
      let trimmed = text.trimmingCharacters(in: .whitespaces)
      let code = trimmed.uppercased()
      if code.count == 3, network.airportIndex[code] != nil { return [code] }
      if code.count == 3, let airports = metros[code] { return airports }
      if let airports = byCity[fold(trimmed)] { return airports }
      throw ServiceError.invalid(
        "unknown_place",
        "unknown place \"\(trimmed)\": expected an IATA airport or city code like SFO or NYC, or a city name like Paris"
      )
    }
  }

  static func suggester(_ network: FlightNetwork) -> FlightEngine.AirportSuggester {
    { query, limit in
      let folded = fold(query)
      let code = query.uppercased()
      var exact: [AirportSummary] = []
      var rest: [AirportSummary] = []
      for airport in network.airports {
        let summary = AirportSummary(
          iata: airport.iata, name: airport.name, city: airport.city, country: airport.country,
          timeZone: network.zones[Int(airport.zone)].identifier)
        if airport.iata == code {
          exact.append(summary)
        } else if fold(airport.city).hasPrefix(folded) || fold(airport.name).contains(folded) {
          rest.append(summary)
        }
      }
      return Array((exact + rest).prefix(limit))
    }
  }
}
