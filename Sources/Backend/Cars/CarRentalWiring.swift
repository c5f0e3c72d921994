import Common
import Foundation

/// How the apps build the car rental service (kept here so `Apps/*/main.swift` stays thin).
public enum CarRentalWiring {
  /// The busiest airports known before the reference data is wired (IATA, name, city, country, zone).
  static let fallbackSites: [CarSite] = [
    CarSite(
      iata: "ATL", airportName: "Hartsfield-Jackson Atlanta International Airport", city: "Atlanta",
      countryCode: "US", timeZoneIdentifier: "America/New_York"),
    CarSite(
      iata: "ORD", airportName: "Chicago O'Hare International Airport", city: "Chicago", countryCode: "US",
      timeZoneIdentifier: "America/Chicago"),
    CarSite(
      iata: "LHR", airportName: "London Heathrow Airport", city: "London", countryCode: "GB",
      timeZoneIdentifier: "Europe/London"),
    CarSite(
      iata: "CDG", airportName: "Paris Charles de Gaulle Airport", city: "Paris", countryCode: "FR",
      timeZoneIdentifier: "Europe/Paris"),
    CarSite(
      iata: "FRA", airportName: "Frankfurt am Main Airport", city: "Frankfurt am Main", countryCode: "DE",
      timeZoneIdentifier: "Europe/Berlin"),
    CarSite(
      iata: "LAX", airportName: "Los Angeles International Airport", city: "Los Angeles", countryCode: "US",
      timeZoneIdentifier: "America/Los_Angeles"),
    CarSite(
      iata: "JFK", airportName: "John F. Kennedy International Airport", city: "New York", countryCode: "US",
      timeZoneIdentifier: "America/New_York"),
    CarSite(
      iata: "AMS", airportName: "Amsterdam Airport Schiphol", city: "Amsterdam", countryCode: "NL",
      timeZoneIdentifier: "Europe/Amsterdam"),
    CarSite(
      iata: "DXB", airportName: "Dubai International Airport", city: "Dubai", countryCode: "AE",
      timeZoneIdentifier: "Asia/Dubai"),
    CarSite(
      iata: "LGW", airportName: "London Gatwick Airport", city: "London", countryCode: "GB",
      timeZoneIdentifier: "Europe/London"),
  ]

  /// The embedded car rental service for a command's context.
  public static func service(context: CLIContext) throws -> CarRentalService {
    let inventory = try CarInventory(sites: fallbackSites)
    return CarRentalEngine(inventory: inventory, promotions: try CarPromotions())
  }
}
