import Common
import Foundation

/// A hotel room type: the unit inventory is counted in, per night.
public struct HotelRoomKey: Hashable, Sendable {
  public var hotelId: String
  public var roomType: RoomType

  public init(hotelId: String, roomType: RoomType) {
    self.hotelId = hotelId
    self.roomType = roomType
  }
}

/// Booked rooms per hotel, room type and night (the counts of free rooms are the hotel's rooms of
/// that type minus these).
public protocol HotelInventory: Sendable {
  /// For every room type with a booking on at least one night of `stay`: the most rooms booked
  /// on any one of those nights (so `rooms − that` are free on every night).
  func maxBooked(during stay: DateRange) throws -> [HotelRoomKey: Int]
}

/// Inventory kept in memory: for tests and for a process without a store.
public final class InMemoryHotelInventory: HotelInventory, @unchecked Sendable {
  private let lock = NSLock()
  private var booked: [HotelRoomKey: [LocalDate: Int]] = [:]

  public init() {}

  public func maxBooked(during stay: DateRange) throws -> [HotelRoomKey: Int] {
    lock.withLock {
      var result: [HotelRoomKey: Int] = [:]
      for (key, nights) in booked {
        let most = nights.filter { stay.contains($0.key) }.values.max() ?? 0
        if most > 0 { result[key] = most }
      }
      return result
    }
  }

  /// Adds `rooms` booked rooms of `key` on every night of `stay` (negative to release).
  public func add(_ rooms: Int, of key: HotelRoomKey, during stay: DateRange) {
    lock.withLock {
      for date in stay.dates { booked[key, default: [:]][date, default: 0] += rooms }
    }
  }
}
