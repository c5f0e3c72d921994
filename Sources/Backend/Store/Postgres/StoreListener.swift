import Foundation

/// A connection of its own that `LISTEN`s on one channel and calls `wake` once for each batch of
/// notifications it reads (several `NOTIFY`s that arrive together make one call), on a thread of
/// its own. A lost connection (PostgreSQL restarted) is made again every second until it works,
/// and `wake` is called after each reconnection: notifications sent meanwhile are lost, so the
/// follower reads what it missed.
public final class StoreListener: @unchecked Sendable {
  private let lock = NSLock()
  private var stopped = false
  private let done = DispatchSemaphore(value: 0)

  init(configuration: PostgresConfiguration, channel: String, wake: @escaping @Sendable () -> Void) {
    let thread = Thread { [self] in run(configuration, channel, wake) }
    thread.name = "store-listener"
    thread.start()
  }

  /// Stops listening and closes the connection (within a quarter of a second); later calls return at once.
  public func stop() {
    let first = lock.withLock {
      defer { stopped = true }
      return !stopped
    }
    if first { done.wait() }
  }

  private var isStopped: Bool { lock.withLock { stopped } }

  private func run(_ configuration: PostgresConfiguration, _ channel: String, _ wake: @Sendable () -> Void) {
    var connection: PostgresConnection?
    var connectedOnce = false
    while !isStopped {
      guard let listening = connection else {
        do {
          let made = try PostgresConnection(
            conninfo: configuration.conninfo, name: configuration.displayName, statementTimeoutMilliseconds: 0,
            connectTimeoutSeconds: configuration.connectTimeout)
          try made.execute("LISTEN \(channel)")
          connection = made
          if connectedOnce { wake() }
          connectedOnce = true
        } catch {
          for _ in 0..<4 where !isStopped { usleep(250_000) }
        }
        continue
      }
      var descriptor = pollfd(fd: listening.socket, events: Int16(POLLIN), revents: 0)
      let ready = poll(&descriptor, 1, 250)
      guard ready > 0 else { continue }
      guard let count = listening.drainNotifications() else {
        connection = nil
        continue
      }
      if count > 0 { wake() }
    }
    connection = nil
    done.signal()
  }
}
