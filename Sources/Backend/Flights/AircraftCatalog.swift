import Common
import Foundation

/// The aircraft model of the schedule generator: for an IATA type code, its class, seats and
/// cabins.
///
/// The figures are typical two-to-four-class layouts written for this app (round numbers, not any
/// airline's seat map). Rules:
/// - Class by code: wide-bodies (747, 767, 777, 787, A300/310/330/340/350/380, MD-11, …) cruise at
///   850 km/h; narrow-bodies (737, 757, A318–A321, MD-80/90, 717, …) 790 km/h; regional jets
///   (CRJ, ERJ, E-Jets, Fokker, BAe 146) 700 km/h; turboprops and small aircraft 480 km/h.
/// - Cabins: wide-bodies have economy, premium economy and business (12% of seats), plus first
///   (8 seats) on the 747, A380 and 777-300; narrow-bodies economy and business (8%, at least 8
///   seats on aircraft of 120 seats or more); regional aircraft and turboprops economy only.
/// - Seats by code from the table below, else by class: 300 wide, 160 narrow, 80 regional, 50 other.
struct AircraftCatalog: Sendable {
  enum Kind: Int, Sendable {
    case turboprop
    case regional
    case narrowBody
    case wideBody

    /// Cruise speed for block times, km/h.
    var cruiseKmh: Double {
      switch self {
      case .turboprop: 480
      case .regional: 700
      case .narrowBody: 790
      case .wideBody: 850
      }
    }
  }

  /// One aircraft type as the schedules use it.
  struct Model: Sendable {
    var code: String
    var name: String?
    var kind: Kind
    /// Seats per cabin, indexed by `Cabin.index` (0 when the cabin is not fitted).
    var seats: [Int32]
  }

  private static let seatTable: [String: Int] = [
    "388": 520, "380": 520, "744": 400, "74H": 410, "747": 400, "74E": 400, "74M": 380,
    "77W": 360, "773": 370, "77L": 300, "772": 310, "777": 330, "789": 290, "788": 240, "787": 260,
    "359": 320, "350": 320, "351": 350, "333": 300, "332": 260, "330": 280, "343": 270, "346": 340,
    "345": 300, "340": 290, "763": 230, "764": 240, "762": 200, "767": 220, "76W": 230, "M11": 280,
    "AB6": 260, "AB3": 250, "310": 200, "313": 210, "312": 200,
    "321": 200, "32B": 200, "32S": 160, "32A": 165, "320": 165, "319": 135, "318": 110, "32N": 180, "32Q": 200,
    "738": 175, "73H": 175, "739": 185, "73J": 180, "737": 140, "73W": 140, "73G": 140, "733": 140, "734": 150,
    "735": 120, "736": 110, "73C": 140, "7M8": 178, "7M9": 190, "757": 200, "752": 190, "753": 240, "75W": 190,
    "M80": 140, "M81": 140, "M82": 145, "M83": 145, "M87": 130, "M88": 145, "M90": 155, "717": 110,
    "E90": 100, "E95": 115, "E70": 72, "E75": 78, "E7W": 76, "EMJ": 100, "ER4": 50, "ERJ": 50, "ERD": 37,
    "ER3": 37, "EM2": 30, "CRJ": 50, "CR2": 50, "CR7": 70, "CR9": 86, "CRK": 100, "CR1": 50, "100": 100,
    "F70": 80, "146": 95, "AR1": 100, "AR8": 85, "SU9": 98,
    "AT7": 70, "AT5": 48, "AT4": 48, "ATR": 68, "AT7F": 70, "DH4": 78, "DH8": 50, "DH3": 50, "DH1": 37,
    "DH2": 37, "DHT": 19, "F50": 50, "SF3": 34, "BE1": 19, "CNA": 8, "CNC": 9, "SWM": 19, "J31": 19, "J41": 29,
    "D28": 19, "S20": 50, "BEH": 9, "PL2": 9,
  ]

  private static let wideBodies: Set<String> = [
    "388", "380", "744", "74H", "747", "74E", "74M", "77W", "773", "77L", "772", "777", "789", "788", "787", "359",
    "350", "351", "333", "332", "330", "343", "346", "345", "340", "763", "764", "762", "767", "76W", "M11", "AB6",
    "AB3", "310", "313", "312",
  ]
  private static let firstClass: Set<String> = ["388", "380", "744", "74H", "747", "77W", "773"]
  private static let regionalPrefixes = ["E", "CR", "ER", "EM", "100", "F70", "146", "AR", "SU9"]
  private static let narrowPrefixes = ["32", "31", "73", "7M", "75", "M8", "M9", "717"]
  private static let regionalCodes: Set<String> = ["100", "F70", "146", "AR1", "AR8", "SU9", "CRK"]

  /// The model of type `code`; `names` maps IATA type codes to names (aircraft_types.csv).
  static func model(code: String, names: [String: String]) -> Model {
    let kind: Kind
    if wideBodies.contains(code) {
      kind = .wideBody
    } else if narrowPrefixes.contains(where: { code.hasPrefix($0) }) && !regionalCodes.contains(code) {
      kind = .narrowBody
    } else if regionalCodes.contains(code) || regionalPrefixes.contains(where: { code.hasPrefix($0) }) {
      kind = .regional
    } else if let seats = seatTable[code], seats >= 100 {
      kind = .narrowBody
    } else {
      kind = .turboprop
    }
    let total: Int =
      seatTable[code]
      ?? {
        switch kind {
        case .wideBody: 300
        case .narrowBody: 160
        case .regional: 80
        case .turboprop: 50
        }
      }()
    var seats: [Int32] = [0, 0, 0, 0]
    switch kind {
    case .wideBody:
      let first = firstClass.contains(code) ? 8 : 0
      let business = total * 12 / 100
      let premium = total * 8 / 100
      seats = [Int32(total - first - business - premium), Int32(premium), Int32(business), Int32(first)]
    case .narrowBody:
      let business = total >= 120 ? max(8, total * 8 / 100) : 0
      seats = [Int32(total - business), 0, Int32(business), 0]
    case .regional, .turboprop:
      seats = [Int32(total), 0, 0, 0]
    }
    return Model(code: code, name: names[code], kind: kind, seats: seats)
  }
}
