/// A country or territory, from `Shared/geonames/countries.csv` (GeoNames, CC BY 4.0).
public struct Country: Hashable, Sendable, Codable {
  /// ISO 3166-1 alpha-2 (`DE`; `NA` is Namibia).
  public var iso2: String
  /// ISO 3166-1 alpha-3 (`DEU`).
  public var iso3: String
  /// The English name (`Germany`).
  public var name: String
  /// The continent: `AF`, `AN`, `AS`, `EU`, `NA` (North America), `OC` or `SA`.
  public var continent: String
  /// The main ISO 4217 currency (`EUR`), or "" (Antarctica).
  public var currencyCode: String
  /// Language tags, most used first (`["de"]`, `["en-US", "es-US", …]`).
  public var languages: [String]

  public init(iso2: String, iso3: String, name: String, continent: String, currencyCode: String, languages: [String]) {
    self.iso2 = iso2
    self.iso3 = iso3
    self.name = name
    self.continent = continent
    self.currencyCode = currencyCode
    self.languages = languages
  }
}
