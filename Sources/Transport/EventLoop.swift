import CLibWebSockets
import Foundation

/// One libwebsockets context and the one thread that services it.
///
/// libwebsockets is single-threaded per context (Debian builds it with `LWS_MAX_SMP 1`): every
/// call into it happens on the service thread, inside its callbacks, except
/// `lws_cancel_service()`, which wakes the thread from anywhere. So other threads never touch a
/// connection: they ``post(_:)`` a ``Command`` (under a lock, then `lws_cancel_service`), and the
/// service thread runs the commands in `LWS_CALLBACK_EVENT_WAIT_CANCELLED`. Subclasses keep their
/// connection state in plain properties that only the service thread reads or writes.
///
/// WebSocket heartbeats are the loop's own, not libwebsockets' retry and idle policy: lws keeps
/// every timer in one sorted list per thread and re-inserts a connection's validity timer at its
/// end on every frame received (a walk of the whole list each time), which took three quarters of
/// a server's service thread with 10,000 WebSockets. Instead one timer posts ``Command/sweep``
/// every second; the sweep walks the sockets once, marks a ping due (written as a ping frame on
/// the socket's next writable callback) for one that has received nothing for `pingSeconds`, and
/// drops one that has received nothing, not even a pong, for `hangupSeconds`.
class EventLoop: @unchecked Sendable {
  /// Work for the service thread.
  enum Command {
    case respond(UInt64, HTTPResponse)
    case send(UInt64, Data)
    case close(UInt64, code: UInt16, reason: String)
    case connect(WebSocket, URL)
    /// The heartbeat's round (every second).
    case sweep
    case shutdown
    case stop
  }

  /// A ping after this long without a frame received (nanoseconds).
  let pingInterval: UInt64
  /// The connection is dropped after this long without one.
  let hangupInterval: UInt64
  let hangupSeconds: Int

  private let inboxLock = NSLock()
  private var inbox: [Command] = []
  /// The context while the loop runs; read under `inboxLock` by `post` (never after destruction).
  private var liveContext: OpaquePointer?
  /// Set on the service thread to leave the loop.
  var finished = false
  private let stoppedSignal = DispatchSemaphore(value: 0)
  private let stopState = NSLock()
  private var hasStopped = false

  /// The protocol table given to lws (one protocol handling HTTP and WebSocket); kept alive with the loop.
  private let protocols: UnsafeMutablePointer<lws_protocols>
  private let protocolName: UnsafeMutablePointer<CChar>
  private var retryPolicy: UnsafeMutablePointer<lws_retry_bo_t>

  /// The WebSocket subprotocol name every connection uses.
  static let protocolName = "travel.v1"

  init(pingSeconds: Int, hangupSeconds: Int) {
    pingInterval = UInt64(max(1, pingSeconds)) * 1_000_000_000
    hangupInterval = UInt64(max(1, hangupSeconds)) * 1_000_000_000
    self.hangupSeconds = max(1, hangupSeconds)
    protocolName = strdup(Self.protocolName)
    protocols = .allocate(capacity: 2)
    protocols.initialize(repeating: lws_protocols(), count: 2)
    protocols[0].name = UnsafePointer(protocolName)
    protocols[0].callback = transportCallback
    protocols[0].per_session_data_size = 0
    protocols[0].rx_buffer_size = 0
    // A policy of zeros: lws sets no validity timer on any connection (its check is
    // `secs_since_valid_hangup == 0`); without one it would use its default of 300 s.
    retryPolicy = .allocate(capacity: 1)
    retryPolicy.initialize(to: lws_retry_bo_t())
  }

  deinit {
    protocols.deinitialize(count: 2)
    protocols.deallocate()
    free(protocolName)
    retryPolicy.deinitialize(count: 1)
    retryPolicy.deallocate()
  }

  /// Fills the parts of `info` every loop shares (protocols, user pointer, no lws idle policy).
  func prepare(_ info: inout lws_context_creation_info) {
    info.protocols = UnsafePointer(protocols)
    info.user = Unmanaged.passUnretained(self).toOpaque()
    info.retry_and_idle_policy = UnsafePointer(retryPolicy)
    info.gid = -1
    info.uid = -1
  }

  var idlePolicy: UnsafePointer<lws_retry_bo_t> { UnsafePointer(retryPolicy) }

  /// Starts the service thread, which creates the context with `makeContext` and serves it until
  /// ``finished``. Returns once the context exists, or throws what `makeContext` threw.
  func start(name: String, makeContext: @escaping @Sendable () throws -> OpaquePointer) throws {
    let started = DispatchSemaphore(value: 0)
    let outcome = StartOutcome()
    let thread = Thread { [self] in
      let context: OpaquePointer
      do {
        context = try makeContext()
      } catch {
        outcome.error = error
        started.signal()
        markStopped()
        return
      }
      inboxLock.withLock { liveContext = context }
      didStart(context)
      let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
      timer.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(100))
      timer.setEventHandler { [weak self] in self?.post(.sweep) }
      timer.resume()
      started.signal()
      while !finished {
        if lws_service(context, 0) < 0 { break }
      }
      timer.cancel()
      inboxLock.withLock { liveContext = nil }
      willDestroy()
      lws_context_destroy(context)
      markStopped()
    }
    thread.name = name
    thread.start()
    started.wait()
    if let error = outcome.error { throw error }
  }

  private final class StartOutcome: @unchecked Sendable {
    var error: (any Error)?
  }

  private func markStopped() {
    stopState.withLock { hasStopped = true }
    stoppedSignal.signal()
  }

  /// Blocks until the service thread has destroyed its context (at most `timeout` seconds).
  /// Returns whether it had.
  @discardableResult
  func waitUntilStopped(timeout: TimeInterval) -> Bool {
    if stopState.withLock({ hasStopped }) { return true }
    guard stoppedSignal.wait(timeout: .now() + timeout) == .success else { return false }
    stoppedSignal.signal()  // Let later waiters through too.
    return true
  }

  /// Hands `command` to the service thread (any thread). Dropped when the loop has ended.
  ///
  /// Only the first command into an empty inbox wakes the thread (`lws_cancel_service` writes to
  /// a pipe): the drain that wake-up causes takes every command posted until then, so a fan-out
  /// of thousands of messages costs one system call, not one each.
  func post(_ command: Command) {
    inboxLock.lock()
    defer { inboxLock.unlock() }
    guard let context = liveContext else { return }
    let wasEmpty = inbox.isEmpty
    inbox.append(command)
    if wasEmpty { lws_cancel_service(context) }
  }

  /// Whether the loop still takes commands.
  var isRunning: Bool { inboxLock.withLock { liveContext != nil } }

  /// Runs the posted commands (service thread).
  func drainInbox() {
    let commands = inboxLock.withLock {
      let taken = inbox
      inbox.removeAll(keepingCapacity: true)
      return taken
    }
    for command in commands { run(command) }
  }

  /// The heartbeat's round over `sockets` (service thread, on ``Command/sweep``): a socket that
  /// has received nothing for ``hangupInterval`` is dropped without a close frame (its end is
  /// `1006` with the reason), one silent for ``pingInterval`` since its last frame or ping gets a
  /// ping on its next writable callback.
  func sweep(_ sockets: [UInt64: SocketState], _ wsiByID: [UInt64: OpaquePointer]) {
    let now = Monotonic.now
    for (id, socket) in sockets {
      guard socket.closing == nil, let wsi = wsiByID[id] else { continue }
      let silent = now &- socket.lastReceived
      if silent >= hangupInterval {
        socket.closing = (1006, "nothing received for \(hangupSeconds) s, not even a pong: connection presumed dead")
        LWS.kill(wsi)
      } else if silent >= pingInterval, !socket.pingDue,
        now &- max(socket.lastPing, socket.lastReceived) >= pingInterval
      {
        socket.pingDue = true
        lws_callback_on_writable(wsi)
      }
    }
  }

  // MARK: Overridden by the server and the client (all on the service thread)

  func didStart(_ context: OpaquePointer) {}
  func willDestroy() {}
  func run(_ command: Command) {}
  func handle(
    _ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
  ) -> Int32 {
    lws_callback_http_dummy(wsi, reason, user, input, length)
  }
}

/// The one C callback of every context: finds the loop through the context's user pointer.
private func transportCallback(
  _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
  _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
  guard let wsi, let context = lws_get_context(wsi), let raw = lws_context_user(context) else {
    return lws_callback_http_dummy(wsi, reason, user, input, length)
  }
  let loop = Unmanaged<EventLoop>.fromOpaque(raw).takeUnretainedValue()
  return loop.handle(wsi, reason, user, input, length)
}

/// The monotonic clock of the heartbeats, in nanoseconds.
enum Monotonic {
  static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }
}

/// Process-wide connection ids.
enum ConnectionIDs {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var last: UInt64 = 0

  static func next() -> UInt64 {
    lock.withLock {
      last += 1
      return last
    }
  }
}

/// The small helpers over lws's C API that both loops use (service thread only).
enum LWS {
  static let pre = travel_lws_pre()

  /// The connection id stored on `wsi`, 0 when none.
  static func id(of wsi: OpaquePointer) -> UInt64 {
    guard let raw = lws_get_opaque_user_data(wsi) else { return 0 }
    return UInt64(UInt(bitPattern: raw))
  }

  static func setID(_ id: UInt64, on wsi: OpaquePointer) {
    lws_set_opaque_user_data(wsi, UnsafeMutableRawPointer(bitPattern: UInt(id)))
  }

  /// The value of the known header `token`, nil when absent.
  static func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
    let length = Int(lws_hdr_total_length(wsi, token))
    guard length > 0 else { return nil }
    var buffer = [CChar](repeating: 0, count: length + 1)
    let copied = lws_hdr_copy(wsi, &buffer, Int32(length + 1), token)
    guard copied >= 0 else { return nil }
    return String(decoding: buffer.prefix(Int(copied)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The value of a header lws does not know by name (`idempotency-key`), nil when absent.
  static func customHeader(_ wsi: OpaquePointer, _ name: String) -> String? {
    let key = name.lowercased() + ":"
    return key.withCString { cName -> String? in
      let nameLength = Int32(strlen(cName))
      let length = Int(lws_hdr_custom_length(wsi, cName, nameLength))
      guard length > 0 else { return nil }
      var buffer = [CChar](repeating: 0, count: length + 1)
      let copied = lws_hdr_custom_copy(wsi, &buffer, Int32(length + 1), cName, nameLength)
      guard copied >= 0 else { return nil }
      return String(decoding: buffer.prefix(Int(copied)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
  }

  /// The query's `name=value` fragments (lws splits on `&` and percent-decodes).
  static func query(_ wsi: OpaquePointer) -> [(name: String, value: String)] {
    var pairs: [(name: String, value: String)] = []
    var index: Int32 = 0
    while index < 64 {
      let length = Int(lws_hdr_fragment_length(wsi, WSI_TOKEN_HTTP_URI_ARGS, index))
      guard length > 0 else { break }
      var buffer = [CChar](repeating: 0, count: length + 1)
      let copied = lws_hdr_copy_fragment(wsi, &buffer, Int32(length + 1), WSI_TOKEN_HTTP_URI_ARGS, index)
      guard copied >= 0 else { break }
      let text = String(decoding: buffer.prefix(Int(copied)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if let equals = text.firstIndex(of: "=") {
        pairs.append((String(text[..<equals]), String(text[text.index(after: equals)...])))
      } else {
        pairs.append((text, ""))
      }
      index += 1
    }
    return pairs
  }

  /// The peer's address (`127.0.0.1`).
  static func peer(_ wsi: OpaquePointer) -> String {
    var buffer = [CChar](repeating: 0, count: 128)
    guard lws_get_peer_simple(wsi, &buffer, buffer.count) != nil else { return "" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Writes `data` as one WebSocket text frame (lws needs `LWS_PRE` free bytes before it).
  static func writeText(_ wsi: OpaquePointer, _ data: Data) -> Bool {
    var buffer = [UInt8](repeating: 0, count: pre + data.count)
    buffer.replaceSubrange(pre..<(pre + data.count), with: data)
    let written = buffer.withUnsafeMutableBufferPointer { raw in
      lws_write(wsi, raw.baseAddress! + pre, data.count, LWS_WRITE_TEXT)
    }
    return written >= 0
  }

  /// Writes a ping frame whose payload is `stamp` in decimal ASCII; the peer answers with a pong
  /// carrying the same payload (RFC 6455 §5.5.2). Not empty: lws does not hand an empty pong to
  /// the callback (`LWS_CALLBACK_RECEIVE_PONG`), so it would not count as heard. Text: a server
  /// that validates UTF-8 (ours does) checks a pong's payload too, and closes with `1007` on
  /// bytes that are not UTF-8.
  static func writePing(_ wsi: OpaquePointer, stamp: UInt64) -> Bool {
    let payload = Array(String(stamp).utf8)
    var buffer = [UInt8](repeating: 0, count: pre + payload.count)
    buffer.replaceSubrange(pre..<(pre + payload.count), with: payload)
    let written = buffer.withUnsafeMutableBufferPointer { raw in
      lws_write(wsi, raw.baseAddress! + pre, payload.count, LWS_WRITE_PING)
    }
    return written >= 0
  }

  /// Sends a close frame with `code` and `reason` (then return -1 from the callback).
  static func closeReason(_ wsi: OpaquePointer, code: UInt16, reason: String) {
    var bytes = Array(reason.utf8.prefix(120))
    bytes.withUnsafeMutableBufferPointer { raw in
      lws_close_reason(wsi, lws_close_status(UInt32(code)), raw.baseAddress, raw.count)
    }
  }

  /// Closes `wsi` as soon as the loop comes round (no close frame).
  static func kill(_ wsi: OpaquePointer) {
    lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
  }
}

/// A WebSocket connection's state on the service thread: its outbox, a pending close, the
/// fragments of the message being received.
final class SocketState {
  let socket: WebSocket
  let mailbox: Mailbox
  var outbox: [Data] = []
  var outboxHead = 0
  var outboxBytes = 0
  var closing: (code: UInt16, reason: String)?
  var peerClose: (code: UInt16, reason: String)?
  var incoming = Data()
  var delivered = false
  /// ``Monotonic`` time of the last frame received (a message fragment or a pong), or of the
  /// opening: what the heartbeat's ``EventLoop/sweep(_:_:)`` measures silence from.
  var lastReceived = Monotonic.now
  /// When the last ping was written (0: never).
  var lastPing: UInt64 = 0
  /// A ping is to be written on the next writable callback.
  var pingDue = false

  init(socket: WebSocket, mailbox: Mailbox) {
    self.socket = socket
    self.mailbox = mailbox
  }

  /// A frame came in (``receive(_:_:_:limit:)`` or a pong): the peer is alive.
  func heard() { lastReceived = Monotonic.now }

  var pending: Int { outbox.count - outboxHead }

  func popFirst() -> Data? {
    guard outboxHead < outbox.count else { return nil }
    let data = outbox[outboxHead]
    outboxHead += 1
    outboxBytes -= data.count
    if outboxHead == outbox.count {
      outbox.removeAll(keepingCapacity: true)
      outboxHead = 0
    }
    return data
  }

  /// Delivers `event` in order on the connection's mailbox.
  func deliver(_ event: WebSocketEvent) {
    if case .closed = event {
      guard !delivered else { return }
      delivered = true
    }
    let socket = socket
    mailbox.post { socket.deliver(event) }
  }

  /// Handles a received fragment; returns the close (code, reason) to send when the message
  /// breaks a rule, else nil.
  func receive(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int, limit: Int) -> (
    UInt16, String
  )? {
    heard()
    if lws_frame_is_binary(wsi) != 0 { return (1003, "binary messages are not accepted: send JSON text") }
    if let input, length > 0 { incoming.append(input.assumingMemoryBound(to: UInt8.self), count: length) }
    if incoming.count > limit { return (1009, "message larger than \(limit) bytes") }
    if lws_is_final_fragment(wsi) != 0 && lws_remaining_packet_payload(wsi) == 0 {
      let text = String(decoding: incoming, as: UTF8.self)
      incoming.removeAll(keepingCapacity: true)
      deliver(.text(text))
    }
    return nil
  }

  /// Writes a due ping, else the next queued message, else the close frame (one frame per
  /// writable callback, as lws asks); returns -1 to close the connection.
  func writeNext(_ wsi: OpaquePointer) -> Int32 {
    if pingDue, closing == nil {
      pingDue = false
      lastPing = Monotonic.now
      guard LWS.writePing(wsi, stamp: lastPing) else { return -1 }
      if pending > 0 { lws_callback_on_writable(wsi) }
      return 0
    }
    if let next = popFirst() {
      guard LWS.writeText(wsi, next) else { return -1 }
      if pending > 0 || closing != nil { lws_callback_on_writable(wsi) }
      return 0
    }
    if let closing {
      LWS.closeReason(wsi, code: closing.code, reason: closing.reason)
      return -1
    }
    return 0
  }

  /// The code and reason of the end: the peer's close frame, else ours, else 1006 (dropped).
  var ending: (code: UInt16, reason: String) { peerClose ?? closing ?? (1006, "connection lost") }

  /// Reads a peer's close frame (`in` of `LWS_CALLBACK_WS_PEER_INITIATED_CLOSE`).
  func recordPeerClose(_ input: UnsafeMutableRawPointer?, _ length: Int) {
    guard let input, length >= 2 else {
      peerClose = (1005, "")
      return
    }
    let bytes = UnsafeRawBufferPointer(start: input, count: length)
    let code = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
    peerClose = (code, String(decoding: bytes.dropFirst(2), as: UTF8.self))
  }
}
