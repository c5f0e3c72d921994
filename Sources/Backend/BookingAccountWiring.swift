import Common
import Dispatch
import Foundation
import Reactive

extension BackendServices {
  /// The traveller for the interactive booking screens of the data directory `dataDirectory`
  /// (opens its store): sign-in, sign-out, session and cards over the same store and session file
  /// as the `account` commands (``BookingAccount/live(accounts:cards:dataDirectory:storeRevision:)``),
  /// with the store's ``Database/changeStamp()`` as its revision.
  /// - Throws: what ``init(dataDirectory:environment:)`` throws (`store_unreadable`, `data_dir_unusable`).
  public static func bookingAccount(dataDirectory: URL) throws -> BookingAccount {
    let services = try BackendServices(dataDirectory: dataDirectory)
    let database = services.database
    return .live(
      accounts: services.accountService, cards: services.cardService, dataDirectory: dataDirectory,
      storeRevision: { try? database.changeStamp() })
  }

  /// The one ``AccountSession`` of an interactive app on `dataDirectory`: the
  /// ``bookingAccount(dataDirectory:)``, read on a serial queue of its own, polled for changes by
  /// other processes every ``AccountSession/pollInterval``, its state published on the main queue.
  /// - Throws: as ``bookingAccount(dataDirectory:)``.
  public static func accountSession(dataDirectory: URL) throws -> AccountSession {
    let queue = DispatchQueue(label: "travel.account-session", qos: .userInitiated).eraseToAnyScheduler()
    return AccountSession(
      account: try bookingAccount(dataDirectory: dataDirectory), mainQueue: DispatchQueue.main.eraseToAnyScheduler(),
      workQueue: queue, watchQueue: queue)
  }
}

extension BackendServices {
  /// The language preference of the traveller signed in on `dataDirectory` (its session file and
  /// Account preferences), or nil when nobody is signed in or it cannot be read: the apps give
  /// it to `CommandLineTool` so human output writes amounts the traveller's way (``MoneyFormat``).
  /// Reads only (a search in a read-only or missing directory writes nothing).
  @Sendable public static func travellerLanguage(dataDirectory: URL) -> Strings.Language? {
    guard let token = (try? SessionFile(dataDirectory: dataDirectory).read()) ?? nil,
      let services = try? BackendServices(dataDirectory: dataDirectory),
      let preferences = try? services.accounts.preferences(token: token)
    else { return nil }
    return Strings.Language(tag: preferences.language)
  }
}
