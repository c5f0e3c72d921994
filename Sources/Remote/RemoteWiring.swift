import Common
import Dispatch
import Foundation
import Reactive

/// How the apps get the remote services for a command's context: present when the context names
/// a server (`--server`, `TRAVEL_SERVER`, or the one remembered with the session), else nil and
/// the app wires the embedded backend. The token is read from the data directory's session file
/// at each call, as the embedded services do.
public struct RemoteWiring: Sendable {
  public let api: APIClient
  public let dataDirectory: URL

  /// The remote services of `context`, or nil when it names no server.
  public init?(_ context: CLIContext) {
    guard let server = context.server else { return nil }
    self.init(server: server, dataDirectory: context.dataDirectory)
  }

  public init(server: URL, dataDirectory: URL) {
    let file = SessionFile(dataDirectory: dataDirectory)
    api = APIClient(server: server, token: { (try? file.read()) ?? nil })
    self.dataDirectory = dataDirectory
  }

  public var accounts: RemoteAccounts { RemoteAccounts(api: api) }
  public var flights: RemoteFlights { RemoteFlights(api: api) }
  public var hotels: RemoteHotels { RemoteHotels(api: api) }
  public var cars: RemoteCars { RemoteCars(api: api) }
  /// The traveller's chat with the agency, live over its own stream connection.
  public var chat: RemoteChat { RemoteChat(api: api, live: RemoteLiveUpdates(server: api.server)) }
  /// ``chat`` as the protocol, for `RemoteWiring(context)?.chatService ?? …` in the apps.
  public var chatService: any ChatService { chat }
  /// The agents' console, live over its own stream connection.
  public var agentConsole: RemoteAgentConsole {
    RemoteAgentConsole(api: api, live: RemoteLiveUpdates(server: api.server))
  }
  public var checkIn: RemoteCheckIn { RemoteCheckIn(api: api) }
  /// The process's one live channel to this server (`/v1/stream`): the open Trips screen's
  /// `trips` topic, and the connection state the header shows.
  public var live: RemoteLiveUpdates { RemoteLiveUpdates.shared(server: api.server) }

  /// Live flight status of the server (snapshots over HTTP, changes over `/v1/stream`), with
  /// `clock` as this app's clock (its "today"); the server's clock makes the changes happen.
  public func flightStatus(clock: TravelClock) -> RemoteFlightStatus {
    RemoteFlightStatus(api: api, clock: clock)
  }

  /// The signed-in traveller's home airport on the server (Account preferences): the default
  /// `--from` of a flight search; nil when nobody is signed in, none is set, or the server does
  /// not answer (the search then asks for `--from`).
  public func homeAirport() -> String? {
    guard let token = (try? SessionFile(dataDirectory: dataDirectory).read()) ?? nil else { return nil }
    return try? accounts.preferences(token: token).homeAirport
  }

  /// The traveller of the booking screens: sign-in against the server, kept in the session file
  /// with the server remembered next to it (``ServerFile``).
  public var bookingAccount: BookingAccount {
    let accounts = accounts
    let live = BookingAccount.live(accounts: accounts, cards: accounts, dataDirectory: dataDirectory)
    let server = api.server
    let remembered = ServerFile(dataDirectory: dataDirectory)
    var account = live
    account.signIn = { email, password in
      let session = try live.signIn(email, password)
      try remembered.write(server)
      return session
    }
    return account
  }

  /// The one ``AccountSession`` of an interactive app against the server: ``bookingAccount`` read
  /// on a serial queue of its own, its state published on the main queue. Its revision is the
  /// session file's ``SessionFile/stamp()`` (a sign-in or sign-out by another process on the same
  /// data directory shows within ``AccountSession/pollInterval``); the server is not asked at each
  /// poll — cards or a profile changed from another machine show at the next ``AccountSession/refresh()``.
  /// Its ``AccountSession/connection`` is ``live``'s status (the header says when the server cannot
  /// be reached and when it is back; the account is read again then).
  public func accountSession() -> AccountSession {
    var account = bookingAccount
    let file = SessionFile(dataDirectory: dataDirectory)
    account.revision = { file.stamp() }
    let queue = DispatchQueue(label: "travel.account-session", qos: .userInitiated).eraseToAnyScheduler()
    return AccountSession(
      account: account, mainQueue: DispatchQueue.main.eraseToAnyScheduler(), workQueue: queue, watchQueue: queue,
      connection: live.status)
  }
}
