import Foundation
import Testing

@testable import Common

@Suite struct AccountModelsTests {
  @Test func jsonValue_roundTripsEveryShape() throws {
    let value: JSONValue = .object([
      "a": .array([.integer(1), .number(2.5), .string("x"), .bool(true), .null]),
      "b": .object(["c": .string("12.30")]),
    ])
    let data = try JSONEncoder().encode(value)
    #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
    #expect(value["b"]?["c"]?.stringValue == "12.30")
  }

  @Test func reservation_encodesKindStatusAndMoney() throws {
    let reservation = Reservation(
      id: "res_1", kind: .hotel, status: .confirmed, total: Money(amount: 12.3, currency: "USD"),
      createdAt: Date(timeIntervalSince1970: 0), summary: "Paris")
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let text = String(decoding: try encoder.encode(reservation), as: UTF8.self)
    #expect(text.contains(#""kind":"hotel""#))
    #expect(text.contains(#""status":"confirmed""#))
    #expect(text.contains(#""total":{"amount":"12.30","currency":"USD"}"#))
  }
}
