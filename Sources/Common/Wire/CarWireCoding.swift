import Foundation

// The car models on the wire (API documents): each element has the members `car-rental … --json`
// prints (CLI.md "Cars"), then what a client needs to rebuild the model.

extension ACRISSPattern: Codable {
  public init(from decoder: Decoder) throws {
    try self.init(try decoder.singleValueContainer().decode(String.self))
  }
  public func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}

extension CarSearchQuery: Codable {
  private enum CodingKeys: String, CodingKey {
    case pickupPlace, dropoffPlace, pickup, dropoff, classPattern, company, promoCode, limit
  }
  public init(from decoder: Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      pickupPlace: try c.decode(String.self, forKey: .pickupPlace),
      dropoffPlace: try c.decodeIfPresent(String.self, forKey: .dropoffPlace),
      pickup: try c.decode(LocalDateTime.self, forKey: .pickup),
      dropoff: try c.decode(LocalDateTime.self, forKey: .dropoff),
      classPattern: try c.decodeIfPresent(ACRISSPattern.self, forKey: .classPattern),
      company: try c.decodeIfPresent(String.self, forKey: .company),
      promoCode: try c.decodeIfPresent(String.self, forKey: .promoCode),
      limit: try c.decodeIfPresent(Int.self, forKey: .limit) ?? 50)
  }
  public func encode(to encoder: Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(pickupPlace, forKey: .pickupPlace)
    try c.encodeIfPresent(dropoffPlace, forKey: .dropoffPlace)
    try c.encode(pickup, forKey: .pickup)
    try c.encode(dropoff, forKey: .dropoff)
    try c.encodeIfPresent(classPattern, forKey: .classPattern)
    try c.encodeIfPresent(company, forKey: .company)
    try c.encodeIfPresent(promoCode, forKey: .promoCode)
    try c.encode(limit, forKey: .limit)
  }
}

/// `{"id", "company": name, "acriss", "category", "pickup", "dropoff" (ISO 8601 with the desk's
/// offset), "days", "carsAvailable", "total", "discounts"}` as the CLI prints, plus
/// `rentalCompany`, `pickupLocation`, `dropoffLocation`, `pickupLocal`, `dropoffLocal`, `lines`,
/// `promoNote`.
extension CarOffer: Codable {
  private enum CodingKeys: String, CodingKey {
    case id, company, acriss, category, pickup, dropoff, days, carsAvailable, total, discounts
    case rentalCompany, pickupLocation, dropoffLocation, pickupLocal, dropoffLocal, lines, promoNote
  }
  public init(from decoder: Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      id: try c.decode(String.self, forKey: .id), company: try c.decode(RentalCompany.self, forKey: .rentalCompany),
      pickupLocation: try c.decode(RentalLocation.self, forKey: .pickupLocation),
      dropoffLocation: try c.decode(RentalLocation.self, forKey: .dropoffLocation),
      pickup: try c.decode(LocalDateTime.self, forKey: .pickupLocal),
      dropoff: try c.decode(LocalDateTime.self, forKey: .dropoffLocal),
      acriss: try c.decode(ACRISSCode.self, forKey: .acriss), days: try c.decode(Int.self, forKey: .days),
      carsAvailable: try c.decode(Int.self, forKey: .carsAvailable),
      lines: try c.decode([PriceLine].self, forKey: .lines),
      total: try c.decode(Money.self, forKey: .total), promoNote: try c.decodeIfPresent(String.self, forKey: .promoNote)
    )
  }
  public func encode(to encoder: Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(id, forKey: .id)
    try c.encode(company.name, forKey: .company)
    try c.encode(acriss, forKey: .acriss)
    try c.encode(category, forKey: .category)
    try c.encode(pickup.iso8601(in: pickupLocation.timeZone), forKey: .pickup)
    try c.encode(dropoff.iso8601(in: dropoffLocation.timeZone), forKey: .dropoff)
    try c.encode(days, forKey: .days)
    try c.encode(carsAvailable, forKey: .carsAvailable)
    try c.encode(total, forKey: .total)
    try c.encode(discounts, forKey: .discounts)
    try c.encode(company, forKey: .rentalCompany)
    try c.encode(pickupLocation, forKey: .pickupLocation)
    try c.encode(dropoffLocation, forKey: .dropoffLocation)
    try c.encode(pickup, forKey: .pickupLocal)
    try c.encode(dropoff, forKey: .dropoffLocal)
    try c.encode(lines, forKey: .lines)
    try c.encodeIfPresent(promoNote, forKey: .promoNote)
  }
}

/// `{"offers", "notices", "currency"}`.
extension CarSearchResult: Codable {
  private enum CodingKeys: String, CodingKey { case offers, notices, currency }
  public init(from decoder: Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      offers: try c.decode([CarOffer].self, forKey: .offers), notices: try c.decode([String].self, forKey: .notices),
      currency: try c.decode(String.self, forKey: .currency))
  }
  public func encode(to encoder: Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(offers, forKey: .offers)
    try c.encode(notices, forKey: .notices)
    try c.encode(currency, forKey: .currency)
  }
}

/// `{"id", "name", "oneWay": summary, "locations": [{"id", "kind", "name", "timeZone", "hours":
/// summary, "fleet": {ACRISS: count}, "location", "openingHours"}], "rentalCompany"}`.
extension CompanyAtPlace: Codable {
  private enum CodingKeys: String, CodingKey { case id, name, oneWay, locations, rentalCompany }
  private struct WireDesk: Codable {
    var id: String
    var kind: String
    var name: String
    var timeZone: String
    var hours: String
    var fleet: [String: Int]
    var location: RentalLocation
    var openingHours: OpeningHours
  }
  public init(from decoder: Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let desks = try c.decode([WireDesk].self, forKey: .locations)
    self.init(
      company: try c.decode(RentalCompany.self, forKey: .rentalCompany),
      desks: try desks.map { desk in
        var fleet: [ACRISSCode: Int] = [:]
        for (code, count) in desk.fleet { fleet[try ACRISSCode(code)] = count }
        return CompanyAtPlace.Desk(location: desk.location, hours: desk.openingHours, fleet: fleet)
      })
  }
  public func encode(to encoder: Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(company.id, forKey: .id)
    try c.encode(company.name, forKey: .name)
    try c.encode(company.oneWay.summary, forKey: .oneWay)
    try c.encode(
      desks.map { desk in
        WireDesk(
          id: desk.location.id, kind: desk.location.kind.rawValue, name: desk.location.name,
          timeZone: desk.location.timeZoneIdentifier, hours: desk.hours.summary,
          fleet: Dictionary(uniqueKeysWithValues: desk.fleet.map { ($0.key.rawValue, $0.value) }),
          location: desk.location,
          openingHours: desk.hours)
      }, forKey: .locations)
    try c.encode(company, forKey: .rentalCompany)
  }
}

/// `{"code", "label"}`.
extension CarPlaceSuggestion: Codable {
  private enum CodingKeys: String, CodingKey { case code, label }
  public init(from decoder: Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(code: try c.decode(String.self, forKey: .code), label: try c.decode(String.self, forKey: .label))
  }
  public func encode(to encoder: Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(code, forKey: .code)
    try c.encode(label, forKey: .label)
  }
}
