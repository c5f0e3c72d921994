import Foundation

/// One field of a boarding pass as a person reads it: the item, its raw value and what it means.
///
/// JSON: `{"item": 117, "name": "passenger status", "value": "1", "meaning": "checked in"}`.
public struct BCBPFieldDescription: Hashable, Sendable, Codable {
  public var item: Int
  public var name: String
  /// The raw value, as encoded (without trailing blanks; `""` blank).
  public var value: String
  /// What it means (`checked in`, `AC 834`, `2026-11-22`), or `""` when the value speaks for itself.
  public var meaning: String

  public init(item: Int, name: String, value: String, meaning: String = "") {
    self.item = item
    self.name = name
    self.value = value
    self.meaning = meaning
  }

  init(_ item: BCBPItem, _ value: String, _ meaning: String = "") {
    self.init(item: item.number, name: item.name, value: value, meaning: meaning)
  }
}

/// The code tables of BCBP items (standards.md §1.4), for showing what a code means.
public enum BCBPCodes {
  /// Item 117.
  public static func passengerStatus(_ code: String) -> String {
    switch code {
    case "0": "ticket issued, not checked in"
    case "1": "checked in"
    case "2": "bag checked, passenger not checked in"
    case "3": "bag checked and passenger checked in"
    case "4": "passed security"
    case "5": "passed the gate (coupon used)"
    case "6": "transit"
    case "7": "standby"
    case "8": "boarding data revalidated"
    case "9": "original boarding line used at ticketing"
    case "A": "up- or down-grade required"
    case "": "blank"
    default: "airline-specific code"
    }
  }

  /// Item 15.
  public static func passengerDescription(_ code: String) -> String {
    switch code {
    case "0": "adult"
    case "1": "male"
    case "2": "female"
    case "3": "child"
    case "4": "infant"
    case "5": "no passenger (cabin baggage seat)"
    case "6": "adult travelling with an infant"
    case "7": "unaccompanied minor"
    case "X": "unspecified"
    case "U": "undisclosed"
    case "": "blank"
    default: "unknown code"
    }
  }

  /// Items 12 and 14.
  public static func source(_ code: String) -> String {
    switch code {
    case "W": "web"
    case "K": "airport kiosk"
    case "R": "remote or off-site kiosk"
    case "M": "mobile device"
    case "O": "airport agent"
    case "T": "town agent"
    case "V": "third-party vendor"
    case "X": "transfer kiosk"
    case "": "blank"
    default: "unknown code"
    }
  }

  /// Item 16.
  public static func documentType(_ code: String) -> String {
    switch code {
    case "B": "boarding pass"
    case "I": "itinerary receipt"
    case "": "blank"
    default: "unknown code"
    }
  }

  /// Item 108.
  public static func documentationVerification(_ code: String) -> String {
    switch code {
    case "0": "not required"
    case "1": "required"
    case "2": "performed"
    case "": "not applicable"
    default: "unknown code"
    }
  }

  /// Item 18 (opaque beyond these values: carriers use others).
  public static func selectee(_ code: String) -> String {
    switch code {
    case "0": "not selected"
    case "1": "selected for additional screening"
    case "3": "known traveller"
    case "": "blank"
    default: "carrier-specific code"
    }
  }

  /// Item 71 (compartments are carriers' booking classes; these are the usual meanings).
  public static func compartment(_ code: String) -> String {
    switch code {
    case "F", "A", "P": "first"
    case "J", "C", "D", "I", "Z": "business"
    case "W", "E": "premium economy"
    case "Y", "B", "H", "K", "L", "M", "N", "Q", "S", "T", "V", "X", "G", "O", "R", "U": "economy"
    default: "carrier-specific class"
    }
  }

  /// Item 118: `20K` → `20 kg`, `2PC` → `2 pieces`, `40L` → `40 lb`.
  public static func baggageAllowance(_ code: String) -> String {
    guard code.count == 3 else { return code.isEmpty ? "blank" : "free text" }
    let amount = code.prefix(2).drop { $0 == "0" }
    switch code.suffix(1) {
    case "K": return "\(amount.isEmpty ? "0" : amount) kg"
    case "L": return "\(amount.isEmpty ? "0" : amount) lb"
    default:
      if code.hasSuffix("PC") { return "\(code.prefix(1)) piece\(code.prefix(1) == "1" ? "" : "s")" }
      return "free text"
    }
  }

  /// Item 254.
  public static func fastTrack(_ code: String) -> String {
    switch code {
    case "Y": "yes"
    case "N": "no"
    case "": "blank"
    default: "unknown code"
    }
  }
}

extension BoardingPass {
  /// Every field of the pass-wide part with its meaning, in text order; dates resolved near
  /// `reference` when one is given (nil: shown as the year's digit and day).
  public func uniqueFieldDescriptions(reference: LocalDate?) -> [BCBPFieldDescription] {
    var fields: [BCBPFieldDescription] = [
      BCBPFieldDescription(.formatCode, "M", "format M (Resolution 792)"),
      BCBPFieldDescription(.numberOfLegs, "\(legs.count)", "\(legs.count) leg\(legs.count == 1 ? "" : "s")"),
      BCBPFieldDescription(.passengerName, passengerName, passengerDisplayName),
      BCBPFieldDescription(
        .electronicTicket, electronicTicketIndicator,
        electronicTicketIndicator == "E" ? "electronic ticket" : "not marked as an electronic ticket"),
    ]
    guard let version else { return fields }
    let issue: String
    if issueDate.isEmpty {
      issue = "blank"
    } else if let reference, let date = resolvedIssueDate(reference: reference) {
      issue = date.description
    } else {
      issue = "day \(issueDate.dropFirst()) of a year ending in \(issueDate.prefix(1))"
    }
    fields += [
      BCBPFieldDescription(.version, version, "version \(version)"),
      BCBPFieldDescription(
        .passengerDescription, passengerDescription, BCBPCodes.passengerDescription(passengerDescription)),
      BCBPFieldDescription(.checkInSource, checkInSource, BCBPCodes.source(checkInSource)),
      BCBPFieldDescription(.issuanceSource, issuanceSource, BCBPCodes.source(issuanceSource)),
      BCBPFieldDescription(.issueDate, issueDate, issue),
      BCBPFieldDescription(.documentType, documentType, BCBPCodes.documentType(documentType)),
      BCBPFieldDescription(.issuer, issuer),
      BCBPFieldDescription(.baggageTag, baggageTag),
      BCBPFieldDescription(.firstBaggageTag, firstNonConsecutiveBaggageTag),
      BCBPFieldDescription(.secondBaggageTag, secondNonConsecutiveBaggageTag),
    ]
    return fields
  }

  /// Every field of leg `index` with its meaning; `date` is the leg's resolved flight date, if known.
  public func legFieldDescriptions(_ index: Int, date: LocalDate?) -> [BCBPFieldDescription] {
    let leg = legs[index]
    var fields: [BCBPFieldDescription] = [
      BCBPFieldDescription(.pnr, leg.pnr, "booking reference"),
      BCBPFieldDescription(.from, leg.from),
      BCBPFieldDescription(.to, leg.to),
      BCBPFieldDescription(.carrier, leg.carrier),
      BCBPFieldDescription(.flightNumber, leg.flightNumber, leg.flightDisplay),
      BCBPFieldDescription(
        .dateOfFlight,
        String(repeating: "0", count: leg.dayOfYear < 10 ? 2 : leg.dayOfYear < 100 ? 1 : 0)
          + "\(leg.dayOfYear)", date?.description ?? "day \(leg.dayOfYear) of the year (year unknown)"),
      BCBPFieldDescription(.compartment, leg.compartment, BCBPCodes.compartment(leg.compartment)),
      BCBPFieldDescription(.seat, leg.seat, leg.seat.isEmpty ? "no seat" : "seat \(leg.seatDisplay)"),
      BCBPFieldDescription(
        .sequence, leg.checkInSequence, leg.checkInSequence.isEmpty ? "blank" : "boarding number \(leg.sequenceDisplay)"
      ),
      BCBPFieldDescription(.passengerStatus, leg.passengerStatus, BCBPCodes.passengerStatus(leg.passengerStatus)),
    ]
    guard version != nil || index > 0 else { return fields }
    fields += [
      BCBPFieldDescription(.airlineNumericCode, leg.airlineNumericCode, leg.ticketNumber.map { "ticket \($0)" } ?? ""),
      BCBPFieldDescription(.documentSerial, leg.documentSerialNumber),
      BCBPFieldDescription(.selectee, leg.selecteeIndicator, BCBPCodes.selectee(leg.selecteeIndicator)),
      BCBPFieldDescription(
        .documentVerification, leg.internationalDocumentationVerification,
        BCBPCodes.documentationVerification(leg.internationalDocumentationVerification)),
      BCBPFieldDescription(.marketingCarrier, leg.marketingCarrier),
      BCBPFieldDescription(.frequentFlyerAirline, leg.frequentFlyerAirline),
      BCBPFieldDescription(.frequentFlyerNumber, leg.frequentFlyerNumber),
      BCBPFieldDescription(.idAd, leg.idAdIndicator, leg.idAdIndicator.isEmpty ? "normal fare" : "industry discount"),
      BCBPFieldDescription(
        .baggageAllowance, leg.freeBaggageAllowance, BCBPCodes.baggageAllowance(leg.freeBaggageAllowance)),
      BCBPFieldDescription(.fastTrack, leg.fastTrack, BCBPCodes.fastTrack(leg.fastTrack)),
      BCBPFieldDescription(.airlineData, leg.airlineData),
    ]
    return fields
  }

  /// The security section's fields (items 28–30), empty when the pass has none.
  public var securityFieldDescriptions: [BCBPFieldDescription] {
    guard let securityType else { return [] }
    return [
      BCBPFieldDescription(.securityType, securityType),
      BCBPFieldDescription(
        .securityLength, String(format: "%02X", securityData.utf8.count), "\(securityData.utf8.count) characters"),
      BCBPFieldDescription(.securityData, securityData),
    ]
  }
}
