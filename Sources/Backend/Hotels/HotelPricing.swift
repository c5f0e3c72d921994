import Common
import Foundation

/// Room inventories and nightly rates of the hotel world (see ``HotelWorld`` for the hotels).
///
/// ## Rooms
/// A hotel has `8 + 12 × stars + u × 20 × stars` rooms (u uniform in [0, 1)), split over: doubles
/// (always), twins (70 %), singles (stars ≤ 3: 80 %, else 30 %), family rooms (50 %) and suites
/// (4–5 stars always, 3 stars 25 %), each type at least 1 room.
///
/// ## Nightly rate of one room, before taxes
/// `rate = level(country) × city × stars × hotel × room × weekday × season`, rounded to a whole
/// unit of the quote currency:
/// - `level`: a 3-star double in a city of a million people, in EUR, by continent (EU 95, NA 120,
///   OC 115, AN 100, AS 60, SA 55, AF 50) times a country factor for notably dear or cheap
///   countries (CH 1.5, SG 1.6, IN 0.55, …; 1 otherwise);
/// - `city`: `(population / 1,000,000)^0.12`, clamped to 0.85–1.5;
/// - `stars`: 0.45, 0.65, 1, 1.55, 2.6 for 1–5 stars; `hotel`: 0.85–1.2 from the hotel's seed;
/// - `room`: single 0.75, double 1, twin 1.02, family 1.45, suite 2.4;
/// - `weekday`: the nights of Friday and Saturday × 1.12;
/// - `season` by the hotel's hemisphere: outside the tropics, June–August × 1.2, December × 1.1,
///   January–February × 0.85, November × 0.92 (months shifted by six south of the equator);
///   within 15° of the equator December–March × 1.1 and June–August × 0.95.
///
/// The model computes in binary floating point and rounds once to whole units; every amount after
/// that (sums, taxes, totals) is exact integer arithmetic in minor units.
///
/// ## Currency and taxes
/// Rates are quoted in the country's currency when an exchange rate for it is known (the ECB
/// reference rates or an official fixed peg, ``ExchangeRates``: SAR in Riyadh, AED in Dubai, XOF in
/// Dakar), else in USD (floating currencies without a shipped rate: KWD, EGP, …; the README lists
/// every such country). Taxes and fees by continent: EU 10 %, NA 14 %, SA 12 %,
/// AF 12 %, AS 10 %, OC 10 %.
enum HotelPricing {
  static let continentLevelEUR: [String: Double] = [
    "EU": 95, "NA": 120, "OC": 115, "AN": 100, "AS": 60, "SA": 55, "AF": 50,
  ]
  static let countryFactor: [String: Double] = [
    "CH": 1.5, "NO": 1.35, "IS": 1.4, "DK": 1.25, "LU": 1.3, "GB": 1.2, "IE": 1.2, "FR": 1.1, "NL": 1.1,
    "SG": 1.6, "JP": 1.2, "HK": 1.5, "AE": 1.3, "QA": 1.3, "IL": 1.3, "KR": 1.1, "AU": 1.1, "NZ": 1.05,
    "CA": 0.95, "IN": 0.55, "VN": 0.6, "ID": 0.7, "PH": 0.7, "PK": 0.5, "BD": 0.5, "EG": 0.6, "NG": 0.8,
    "ET": 0.6, "MX": 0.7, "BR": 0.75, "AR": 0.7, "RU": 0.75, "UA": 0.6, "TR": 0.7, "CN": 0.8, "TH": 0.75,
    "MY": 0.7, "PL": 0.75, "RO": 0.7, "HU": 0.75, "CZ": 0.8, "PT": 0.9, "ES": 0.95, "IT": 1.05,
  ]
  static let taxBasisPoints: [String: Int64] = ["EU": 1000, "NA": 1400, "SA": 1200, "AF": 1200, "AS": 1000, "OC": 1000]
  static let starFactor: [Double] = [0.45, 0.65, 1, 1.55, 2.6]

  static func roomFactor(_ type: RoomType) -> Double {
    switch type {
    case .single: 0.75
    case .double: 1
    case .twin: 1.02
    case .family: 1.45
    case .suite: 2.4
    }
  }

  /// Tax rate of a continent in basis points (1000 = 10 %).
  static func taxBasisPoints(continent: String) -> Int64 { taxBasisPoints[continent] ?? 1000 }

  /// The room inventory of hotel `i` (derived from its seed).
  static func rooms(world: HotelWorld, at i: Int) -> [RoomInventory] {
    var rng = world.rng(at: i, stream: 1)
    let stars = Int(world.stars[i])
    let total = Double(8 + 12 * stars + Int(rng.unit() * 20 * Double(stars)))
    let twin = rng.unit() < 0.7
    let single = rng.unit() < (stars <= 3 ? 0.8 : 0.3)
    let family = rng.unit() < 0.5
    let suite = stars >= 4 || (stars == 3 && rng.unit() < 0.25)
    let sum = 0.45 + (twin ? 0.2 : 0) + (single ? 0.15 : 0) + (family ? 0.12 : 0) + (suite ? 0.08 : 0)
    func count(_ share: Double) -> Int { max(1, Int((total * share / sum).rounded())) }
    var rooms: [RoomInventory] = []
    rooms.reserveCapacity(5)
    if single { rooms.append(RoomInventory(roomType: .single, count: count(0.15))) }
    rooms.append(RoomInventory(roomType: .double, count: count(0.45)))
    if twin { rooms.append(RoomInventory(roomType: .twin, count: count(0.2))) }
    if family { rooms.append(RoomInventory(roomType: .family, count: count(0.12))) }
    if suite { rooms.append(RoomInventory(roomType: .suite, count: count(0.08))) }
    return rooms
  }

  /// The price level of a city in EUR: continent level × country factor × city-size factor.
  static func cityLevelEUR(_ city: HotelWorld.City) -> Double {
    let level = (continentLevelEUR[city.continent] ?? 80) * (countryFactor[city.countryCode] ?? 1)
    return level * min(1.5, max(0.85, pow(Double(city.population) / 1_000_000, 0.12)))
  }

  /// The base nightly rate in EUR of hotel `i` (a double on a plain weekday out of season), given
  /// its city's level (``cityLevelEUR(_:)``).
  static func baseEUR(world: HotelWorld, at i: Int, cityLevel: Double) -> Double {
    var rng = world.rng(at: i, stream: 2)
    let hotelFactor = 0.85 + rng.unit() * 0.35
    return cityLevel * starFactor[Int(world.stars[i]) - 1] * hotelFactor
  }

  /// The multiplier of a night: weekday and season (hemisphere-aware).
  static func nightFactor(_ date: LocalDate, latitude: Double) -> Double {
    let weekday = date.isoWeekday
    var factor = (weekday == 5 || weekday == 6) ? 1.12 : 1.0
    let month = date.month
    if abs(latitude) < 15 {
      if month == 12 || month <= 3 { factor *= 1.1 } else if (6...8).contains(month) { factor *= 0.95 }
    } else {
      let northern = latitude >= 0 ? month : (month + 5) % 12 + 1
      switch northern {
      case 6, 7, 8: factor *= 1.2
      case 12: factor *= 1.1
      case 1, 2: factor *= 0.85
      case 11: factor *= 0.92
      default: break
      }
    }
    return factor
  }
}

/// The words names, addresses, descriptions and reviews are made of (`Shared/hotels/`).
struct HotelWords: Sendable {
  var adjectives: [String]
  var nouns: [String]
  /// (min stars, max stars, word).
  var kinds: [(Int, Int, String)]
  var streets: [String]
  var reviewers: [String]
  /// (min score, max score, sentence).
  var reviewPhrases: [(Int, Int, String)]
  var descriptions: [String]

  /// Reads the lists from `Shared/hotels/`.
  /// - Throws: ``SharedResources/Failure`` when a list is missing or malformed.
  static func load() throws -> HotelWords {
    func lines(_ name: String) throws -> [String] {
      let text = String(decoding: try SharedResources.data("hotels/\(name)"), as: UTF8.self)
      let result = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty && !$0.hasPrefix("#") }
      guard !result.isEmpty else { throw SharedResources.Failure.malformed(path: "hotels/\(name)", reason: "empty") }
      return result
    }
    func banded(_ name: String) throws -> [(Int, Int, String)] {
      try lines(name).map { line in
        let parts = line.split(separator: ",", maxSplits: 2).map(String.init)
        guard parts.count == 3, let low = Int(parts[0]), let high = Int(parts[1]) else {
          throw SharedResources.Failure.malformed(path: "hotels/\(name)", reason: "bad line \"\(line)\"")
        }
        return (low, high, parts[2])
      }
    }
    return HotelWords(
      adjectives: try lines("adjectives.txt"), nouns: try lines("nouns.txt"), kinds: try banded("kinds.txt"),
      streets: try lines("streets.txt"), reviewers: try lines("reviewers.txt"),
      reviewPhrases: try banded("review_phrases.txt"), descriptions: try lines("descriptions.txt"))
  }

  func kind(stars: Int, rng: inout SplitMix64) -> String {
    let fitting = kinds.filter { $0.0 <= stars && stars <= $0.1 }.map(\.2)
    return fitting.isEmpty ? "Hotel" : fitting[rng.int(fitting.count)]
  }

  /// The name of hotel `i`.
  func name(world: HotelWorld, at i: Int) -> String {
    var rng = world.rng(at: i, stream: 3)
    let adjective = adjectives[rng.int(adjectives.count)]
    let noun = nouns[rng.int(nouns.count)]
    let kind = kind(stars: Int(world.stars[i]), rng: &rng)
    let city = world.city(at: i).name
    switch rng.int(6) {
    case 0: return "\(adjective) \(noun) \(kind)"
    case 1: return "\(kind) \(noun) \(city)"
    case 2: return "\(city) \(noun) \(kind)"
    case 3: return "The \(adjective) \(noun)"
    case 4: return "\(noun) \(kind)"
    default: return "\(adjective) \(kind) \(city)"
    }
  }

  func address(world: HotelWorld, at i: Int) -> String {
    var rng = world.rng(at: i, stream: 4)
    return "\(1 + rng.int(240)) \(streets[rng.int(streets.count)]), \(world.city(at: i).name)"
  }

  func details(world: HotelWorld, at i: Int, hotelId: String) -> HotelDetails {
    var rng = world.rng(at: i, stream: 5)
    let city = world.city(at: i).name
    let kind = kind(stars: Int(world.stars[i]), rng: &rng).lowercased()
    let noun = nouns[rng.int(nouns.count)].lowercased()
    var sentences: [String] = []
    var pool = Array(descriptions.indices)
    for _ in 0..<4 where !pool.isEmpty {
      let pick = pool.remove(at: rng.int(pool.count))
      sentences.append(
        descriptions[pick].replacingOccurrences(of: "{city}", with: city).replacingOccurrences(of: "{kind}", with: kind)
          .replacingOccurrences(of: "{noun}", with: noun)
          .replacingOccurrences(of: "{checkIn}", with: "\(HotelCancellation.checkInHour):00")
          .replacingOccurrences(of: "{checkOut}", with: "\(HotelCancellation.checkOutHour):00"))
    }
    let rating = Double(world.ratings[i]) / 10
    var reviews: [HotelReview] = []
    let reviewDay = LocalDate("2026-10-31")!
    for n in 0..<(3 + rng.int(4)) {
      let score = min(10, max(1, Int((rating + (rng.unit() - 0.5) * 3).rounded())))
      let fitting = reviewPhrases.filter { $0.0 <= score && score <= $0.1 }.map(\.2)
      let text = fitting.isEmpty ? "No comment." : fitting[rng.int(fitting.count)]
      reviews.append(
        HotelReview(
          author: reviewers[rng.int(reviewers.count)], score: score, text: text,
          date: reviewDay.adding(days: -(n * 17 + rng.int(17)))))
    }
    return HotelDetails(hotelId: hotelId, description: sentences.joined(separator: " "), reviews: reviews)
  }
}
