import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A message written but not yet stored by the agency's system (JSON line of the outbox:
/// `{"clientId", "text", "trip", "writtenAt"}`).
public struct PendingChatMessage: Hashable, Sendable, Codable {
  /// The idempotency key it is sent with (so a retry never stores it twice).
  public var clientID: String
  public var text: String
  /// The reservation id attached, if any.
  public var trip: String?
  public var writtenAt: Date

  public init(clientID: String, text: String, trip: String?, writtenAt: Date) {
    self.clientID = clientID
    self.text = text
    self.trip = trip
    self.writtenAt = writtenAt
  }

  enum CodingKeys: String, CodingKey {
    case clientID = "clientId"
    case text, trip, writtenAt
  }
}

/// The traveller's offline queue: messages written while the agency's system cannot be reached
/// (a travel-server restarting, the network down) wait here and are sent when it can, in the
/// order written, each once.
///
/// A file in the data directory (`chat-outbox`, owner-only, one JSON line per message), so a
/// message written by `travel chat send` while the server is down is sent by the next command or
/// by the app. Every message carries a client id; the service stores a client id once
/// (``ChatService/send(_:trip:clientID:token:)``), so a send whose answer was lost and is retried
/// is not doubled. ``flush(chat:token:)`` holds an exclusive lock (`flock` on
/// `chat-outbox.lock`) while sending, so two processes never send the queue out of order.
public struct ChatOutbox: Sendable {
  public static let fileName = "chat-outbox"
  public let url: URL
  private let lockURL: URL

  public init(dataDirectory: URL) {
    url = dataDirectory.appendingPathComponent(Self.fileName)
    lockURL = dataDirectory.appendingPathComponent(Self.fileName + ".lock")
  }

  /// What the outbox holds, oldest first (an unreadable line is skipped).
  public func pending() -> [PendingChatMessage] {
    guard let data = FileManager.default.contents(atPath: url.path) else { return [] }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap {
      try? decoder.decode(PendingChatMessage.self, from: Data($0.utf8))
    }
  }

  /// Queues `text` (checked first: bad text is refused now, never queued).
  /// - Throws: what ``ChatRules/checkedText(_:)`` throws; `data_dir_unusable` and
  ///   `chat_outbox_unwritable` when the file cannot be written.
  @discardableResult
  public func append(_ text: String, trip: String?, now: Date = Date()) throws -> PendingChatMessage {
    let message = PendingChatMessage(
      clientID: "m-" + UUID().uuidString.lowercased(), text: try ChatRules.checkedText(text), trip: trip,
      writtenAt: now)
    try withLock {
      var all = pending()
      all.append(message)
      try write(all)
    }
    return message
  }

  /// Sends what is queued, oldest first, stopping at the first failure: a failure that retrying
  /// can fix (`.unavailable`: the server unreachable, the store busy) leaves the rest queued and
  /// is returned; a refusal of the message itself (its trip no longer the traveller's) drops it
  /// and is returned with it.
  /// - Returns: the messages stored, and the error that stopped the flush (nil when it emptied).
  public func flush(chat: any ChatService, token: String) -> (sent: [ChatMessage], failure: ServiceError?) {
    var sent: [ChatMessage] = []
    var failure: ServiceError?
    do {
      try withLock {
        var queue = pending()
        while let next = queue.first {
          do {
            sent.append(try chat.send(next.text, trip: next.trip, clientID: next.clientID, token: token))
            queue.removeFirst()
          } catch {
            let error = ServiceError(wrapping: error)
            failure = error
            if error.kind == .invalidInput || error.kind == .notFound { queue.removeFirst() }
            break
          }
        }
        try write(queue)
      }
    } catch {
      failure = ServiceError(wrapping: error)
    }
    return (sent, failure)
  }

  private func write(_ messages: [PendingChatMessage]) throws {
    if messages.isEmpty {
      if unlink(url.path) != 0, errno != ENOENT { throw unwritable(errno) }
      return
    }
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var data = Data()
    for message in messages {
      data.append(try encoder.encode(message))
      data.append(0x0A)
    }
    let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(Self.fileName).\(getpid())")
    guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600])
    else { throw unwritable(errno) }
    if rename(temporary.path, url.path) != 0 {
      let code = errno
      unlink(temporary.path)
      throw unwritable(code)
    }
  }

  private func withLock<T>(_ body: () throws -> T) throws -> T {
    try DataDirectory.prepare(url.deletingLastPathComponent())
    let descriptor = open(lockURL.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw unwritable(errno) }
    defer { close(descriptor) }
    while flock(descriptor, LOCK_EX) != 0 {
      guard errno == EINTR else { throw unwritable(errno) }
    }
    defer { flock(descriptor, LOCK_UN) }
    return try body()
  }

  private func unwritable(_ code: Int32) -> ServiceError {
    ServiceError(
      .unavailable, code: "chat_outbox_unwritable",
      message: "cannot write the chat outbox \(url.path): \(String(cString: strerror(code)))")
  }
}
