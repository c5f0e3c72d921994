import Common
import Foundation

extension BackendServices {
  /// The traveller for the interactive booking screens of the data directory `dataDirectory`
  /// (opens its store): sign-in, session and cards over the same store and session file as the
  /// `account` commands (``BookingAccount/live(accounts:cards:dataDirectory:)``).
  /// - Throws: what ``init(dataDirectory:environment:)`` throws (`store_unreadable`, `data_dir_unusable`).
  public static func bookingAccount(dataDirectory: URL) throws -> BookingAccount {
    let services = try BackendServices(dataDirectory: dataDirectory)
    return .live(accounts: services.accountService, cards: services.cardService, dataDirectory: dataDirectory)
  }
}
