import Common
import Foundation

/// What the CarRental commands need from the app: the service, built for the invocation's
/// context (data directory, signed-in user). The apps wire the embedded backend here.
public struct CarRentalEnvironment: Sendable {
  public var service: @Sendable (CLIContext) throws -> CarRentalService

  public init(service: @escaping @Sendable (CLIContext) throws -> CarRentalService) {
    self.service = service
  }

  /// No backend wired: every command fails with exit 1 and says so.
  public static let unavailable = CarRentalEnvironment { _ in
    throw ServiceError(.unavailable, code: "no_backend", message: L("no car rental service is wired into this app"))
  }
}

/// The command tree of the CarRental feature: the root of the standalone `car-rental` executable, mounted
/// as `travel cars` in the assembled app. Commands and JSON follow docs/CLI.md ("Cars").
public enum CarRentalCommands {
  public static func root(name: String = "car-rental", environment: CarRentalEnvironment = .unavailable) -> Command {
    Command(
      name: name,
      summary: L("Cars: search rental cars at airports and in cities, and book them."),
      discussion: """
        Pick-up and drop-off are local date-times (YYYY-MM-DDTHH:MM) at the desk. Rentals are charged in
        24-hour periods on the local wall clock with a 29-minute grace period; 5 to 7 days cost the weekly
        rate when that is cheaper. An unknown, expired or not yet valid --promo is invalid input (exit 2); a
        valid code that does not fit an offer (company, minimum days) leaves that offer without it and says why.
        """,
      subcommands: [search(environment), companies(environment), promotions(environment), book(environment)]
    )
  }

  static func search(_ environment: CarRentalEnvironment) -> Command {
    Command(
      name: "search",
      summary: L("Rental cars at a place for a period, cheapest first."),
      options: [
        .option("pickup", "PLACE", help: "IATA airport code or city name where the car is picked up.", required: true),
        .option("from", "DT", help: L("Pick-up, local date-time YYYY-MM-DDTHH:MM (not in the past)."), required: true),
        .option("to", "DT", help: L("Drop-off, local date-time after --from, at most 60 days later."), required: true),
        .option(
          "dropoff", "PLACE", help: L("Return elsewhere (one-way fee; company policy)."), default: L("the pick-up desk")
        ),
        .option("class", "ACRISS_PATTERN", help: "ACRISS code with * wildcards: C***, *DAR, ECMR."),
        .option("company", "NAME", help: L("Only this company (id or name; see 'companies').")),
        .option("promo", "CODE", help: L("A promo code (see Shared/cars/promotions.json).")),
        .option("sort", "price", help: L("Sort order; only price."), default: "price"),
        .option("limit", "N", help: L("At most N offers (1–1000)."), default: "50"),
      ],
      examples: ["--pickup LAX --from 2026-12-20T10:00 --to 2026-12-27T10:00 --class 'C***' --promo WINTER10"],
      action: { invocation in
        let query = try parseSearch(invocation)
        let result = try environment.service(invocation.context).search(query)
        try invocation.context.emit(json: SearchDocument(result)) {
          CarRentalText.searchResult(result, money: invocation.context.money)
        }
      })
  }

  static func companies(_ environment: CarRentalEnvironment) -> Command {
    Command(
      name: "companies",
      summary: L("The rental companies with a desk at a place: hours, fleet, one-way policy (fee in your currency)."),
      options: [.option("pickup", "PLACE", help: "IATA airport code or city name.", required: true)],
      examples: ["--pickup LAX"],
      action: { invocation in
        let place = try invocation.required("pickup")
        let companies = try environment.service(invocation.context).companies(at: place)
        try invocation.context.emit(json: CompaniesDocument(companies)) {
          CarRentalText.companies(companies, money: invocation.context.money)
        }
      })
  }

  static func promotions(_ environment: CarRentalEnvironment) -> Command {
    Command(
      name: "promotions",
      summary: L("The promo codes for --promo: discount, pick-up dates, minimum days, companies."),
      discussion: """
        A code applies to a rental picked up between its first and last valid date (local date at the desk), of at
        least its minimum days, with one of its companies (all when none is listed). A percent is taken off the
        rental line; a fixed amount is in its own currency and converted into yours on the offer.
        """,
      examples: ["", "--json"],
      action: { invocation in
        let codes = try environment.service(invocation.context).promoCodes()
        try invocation.context.emit(json: PromotionsDocument(codes)) {
          CarRentalText.promotions(codes, money: invocation.context.money)
        }
      })
  }

  /// The query of `search`, or a usage error (exit 2) naming the bad option.
  static func parseSearch(_ invocation: Invocation) throws -> CarSearchQuery {
    if let sort = invocation.value("sort"), sort != "price" {
      throw CLIError.usage(L("invalid --sort \"\(sort)\": expected price"))
    }
    let pickup = try LocalDateTime(parsing: try invocation.required("from"), field: "--from")
    let dropoff = try LocalDateTime(parsing: try invocation.required("to"), field: "--to")
    return CarSearchQuery(
      pickupPlace: try invocation.required("pickup"), dropoffPlace: invocation.value("dropoff"), pickup: pickup,
      dropoff: dropoff, classPattern: try invocation.value("class").map { try ACRISSPattern($0) },
      company: invocation.value("company"), promoCode: invocation.value("promo"), limit: try invocation.limit())
  }
}

// MARK: - JSON documents (docs/CLI.md)

struct SearchDocument: Encodable {
  struct Offer: Encodable {
    var id: String
    var company: String
    var acriss: String
    var category: String
    var pickup: String
    var dropoff: String
    var days: Int
    var carsAvailable: Int
    var total: Money
    var discounts: [CarDiscount]
  }

  var offers: [Offer]

  init(_ result: CarSearchResult) {
    offers = result.offers.map { offer in
      Offer(
        id: offer.id, company: offer.company.name, acriss: offer.acriss.rawValue, category: offer.category,
        pickup: offer.pickup.iso8601(in: offer.pickupLocation.timeZone),
        dropoff: offer.dropoff.iso8601(in: offer.dropoffLocation.timeZone), days: offer.days,
        carsAvailable: offer.carsAvailable, total: offer.total, discounts: offer.discounts)
    }
  }
}

/// `{"promotions": [{"code", "discount": {"percent": "10"} | {"amount": Money}, "validFrom",
/// "validUntil", "minimumDays", "companies"}]}`.
struct PromotionsDocument: Encodable {
  struct Promotion: Encodable {
    struct Discount: Encodable {
      var percent: String?
      var amount: Money?
    }
    var code: String
    var discount: Discount
    var summary: String
    var validFrom: String
    var validUntil: String
    var minimumDays: Int
    var companies: [String]
  }

  var promotions: [Promotion]

  init(_ codes: [PromoCode]) {
    promotions = codes.map { promo in
      let discount: Promotion.Discount
      switch promo.discount {
      case .percent(let value): discount = .init(percent: "\(value)", amount: nil)
      case .fixed(let money): discount = .init(percent: nil, amount: money)
      }
      return Promotion(
        code: promo.code, discount: discount, summary: promo.summary, validFrom: promo.validFrom,
        validUntil: promo.validUntil, minimumDays: promo.minimumDays, companies: promo.companies)
    }
  }
}

struct CompaniesDocument: Encodable {
  struct Company: Encodable {
    var id: String
    var name: String
    var oneWay: String
    var locations: [Location]
  }

  struct Location: Encodable {
    var id: String
    var kind: String
    var name: String
    var timeZone: String
    var hours: String
    var fleet: [String: Int]
  }

  var companies: [Company]

  init(_ companies: [CompanyAtPlace]) {
    self.companies = companies.map { entry in
      Company(
        id: entry.company.id, name: entry.company.name, oneWay: entry.company.oneWay.summary,
        locations: entry.desks.map { desk in
          Location(
            id: desk.location.id, kind: desk.location.kind.rawValue, name: desk.location.name,
            timeZone: desk.location.timeZoneIdentifier, hours: desk.hours.summary,
            fleet: Dictionary(uniqueKeysWithValues: desk.fleet.map { ($0.key.rawValue, $0.value) }))
        })
    }
  }
}
