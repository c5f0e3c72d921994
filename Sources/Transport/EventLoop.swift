import CLibWebSockets
import Foundation
import Synchronization

/// One libwebsockets context and the one thread that services it.
///
/// The thread runs the context on a libev loop of its own with the epoll backend (lws's libev
/// event library, a foreign loop: `LWS_SERVER_OPTION_LIBEV`): a wake-up costs what is ready. lws's
/// default loop calls poll() over every socket of the context on every wake-up, which with
/// 10,000 WebSockets took most of a core in the fan-out benchmark (the kernel's `sock_poll`,
/// `fdget`, `tcp_poll`), on the server and on each client loop alike. Where the libev plugin
/// cannot be loaded the context falls back to lws's own loop.
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
    /// The same message for many sockets of this loop (a fan-out, ``WebSocket/send(_:to:)``).
    case broadcast([UInt64], Data)
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
  /// The libev loop the context runs on (service thread), nil: lws's own poll() loop.
  private var eventLoop: UnsafeMutableRawPointer?
  /// `info.foreign_loops`: one loop for the context's one service thread.
  private let foreignLoops: UnsafeMutablePointer<UnsafeMutableRawPointer?>

  /// The WebSocket subprotocol name every connection uses.
  static let protocolName = "travel.v1"

  /// Where this loop's frames are written from (service thread only): one buffer, reused.
  let frames = FrameBuffer()

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
    foreignLoops = .allocate(capacity: 1)
    foreignLoops.initialize(to: nil)
  }

  deinit {
    protocols.deinitialize(count: 2)
    protocols.deallocate()
    free(protocolName)
    retryPolicy.deinitialize(count: 1)
    retryPolicy.deallocate()
    foreignLoops.deinitialize(count: 1)
    foreignLoops.deallocate()
  }

  /// Fills the parts of `info` every loop shares (protocols, user pointer, no lws idle policy,
  /// the libev loop); `info.options` is or-ed into, never set, after this.
  func prepare(_ info: inout lws_context_creation_info) {
    if let eventLoop {
      foreignLoops.pointee = eventLoop
      info.foreign_loops = foreignLoops
      info.options |= travel_lws_option_libev()
    }
    info.protocols = UnsafePointer(protocols)
    info.user = Unmanaged.passUnretained(self).toOpaque()
    info.retry_and_idle_policy = UnsafePointer(retryPolicy)
    info.gid = -1
    info.uid = -1
  }

  var idlePolicy: UnsafePointer<lws_retry_bo_t> { UnsafePointer(retryPolicy) }

  /// Whether the context runs on libev's epoll loop (else lws's poll() loop), for tests.
  var runsOnEpoll: Bool { eventLoop != nil }

  /// Starts the service thread, which creates the context with `makeContext` and serves it until
  /// ``finished``. Returns once the context exists, or throws what `makeContext` threw.
  func start(name: String, makeContext: @escaping @Sendable () throws -> OpaquePointer) throws {
    let started = DispatchSemaphore(value: 0)
    let outcome = StartOutcome()
    let thread = Thread { [self] in
      let context: OpaquePointer
      eventLoop = travel_ev_loop_new()
      do {
        do {
          context = try makeContext()
        } catch  where eventLoop != nil {
          // lws's libev plugin missing or failing: lws's own loop (the error, if any, is the same).
          travel_ev_loop_destroy(eventLoop)
          eventLoop = nil
          context = try makeContext()
        }
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
      if let eventLoop {
        while !finished { travel_ev_run_once(eventLoop) }
      } else {
        while !finished {
          if lws_service(context, 0) < 0 { break }
        }
      }
      timer.cancel()
      inboxLock.withLock { liveContext = nil }
      willDestroy()
      lws_context_destroy(context)
      if let eventLoop {
        travel_ev_loop_destroy(eventLoop)
        self.eventLoop = nil
      }
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

  /// Writes `data` as one WebSocket text frame from `buffer` (lws needs `LWS_PRE` free bytes
  /// before the payload, writes the frame's header there and, on a client, masks the payload in
  /// place: so the payload is copied into the loop's buffer, never written from a shared one).
  static func writeText(_ wsi: OpaquePointer, _ data: Data, through buffer: FrameBuffer) -> Bool {
    let payload = buffer.payload(data)
    return lws_write(wsi, payload, data.count, LWS_WRITE_TEXT) >= 0
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

/// A loop's one frame buffer (service thread only): `LWS_PRE` bytes of room, then the payload of
/// the frame being written, grown to the largest frame written so far. One per loop instead of
/// an allocation per frame.
final class FrameBuffer {
  private var storage: UnsafeMutableRawPointer
  private var capacity: Int
  /// Writable callbacks that wrote messages, and the messages they wrote (for tests).
  let counts = WriteCounts()

  init() {
    capacity = LWS.pre + 4096
    storage = .allocate(byteCount: capacity, alignment: 16)
  }

  deinit { storage.deallocate() }

  /// Copies `data` after the room lws needs and returns where the payload starts.
  func payload(_ data: Data) -> UnsafeMutablePointer<UInt8> {
    if LWS.pre + data.count > capacity {
      storage.deallocate()
      capacity = LWS.pre + max(data.count, capacity * 2)
      storage = .allocate(byteCount: capacity, alignment: 16)
    }
    let start = (storage + LWS.pre).assumingMemoryBound(to: UInt8.self)
    data.copyBytes(to: start, count: data.count)
    return start
  }
}

/// How many writable callbacks wrote queued messages, and how many messages they wrote.
final class WriteCounts: Sendable {
  let callbacks = Atomic<Int>(0)
  let messages = Atomic<Int>(0)

  var now: (callbacks: Int, messages: Int) { (callbacks.load(ordering: .relaxed), messages.load(ordering: .relaxed)) }
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
    let complete = lws_is_final_fragment(wsi) != 0 && lws_remaining_packet_payload(wsi) == 0
    if complete, incoming.isEmpty, length <= limit {
      // A whole message in one piece (the usual case): decoded where lws holds it, not copied first.
      let bytes = UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length)
      deliver(.text(String(decoding: bytes, as: UTF8.self)))
      return nil
    }
    if let input, length > 0 { incoming.append(input.assumingMemoryBound(to: UInt8.self), count: length) }
    if incoming.count > limit { return (1009, "message larger than \(limit) bytes") }
    if complete {
      let text = String(decoding: incoming, as: UTF8.self)
      incoming.removeAll(keepingCapacity: true)
      deliver(.text(text))
    }
    return nil
  }

  /// Queues `data` (service thread); returns false when the outbox would pass `maxMessages` or
  /// `maxBytes` (the reader is too slow: the caller cuts it off). Asks for a writable callback
  /// when the outbox was empty (otherwise one is already due).
  func enqueue(_ data: Data, _ wsi: OpaquePointer?, maxMessages: Int = .max, maxBytes: Int = .max) -> Bool {
    if pending >= maxMessages || outboxBytes + data.count > maxBytes { return false }
    let wasEmpty = pending == 0
    outbox.append(data)
    outboxBytes += data.count
    if wasEmpty, let wsi { lws_callback_on_writable(wsi) }
    return true
  }

  /// Writes a due ping, then queued messages — several while the socket can take them
  /// (`lws_send_pipe_choked`: nothing of an earlier frame left in lws's buffer, and the kernel's
  /// send buffer has room), so a backlog drains in one callback instead of one wake-up per
  /// message — else the close frame once the outbox is empty. Asks for another callback while
  /// anything is left; returns -1 to close the connection.
  func writeNext(_ wsi: OpaquePointer, through buffer: FrameBuffer) -> Int32 {
    if pingDue, closing == nil {
      pingDue = false
      lastPing = Monotonic.now
      guard LWS.writePing(wsi, stamp: lastPing) else { return -1 }
      if pending > 0 { lws_callback_on_writable(wsi) }
      return 0
    }
    if pending > 0 {
      buffer.counts.callbacks.add(1, ordering: .relaxed)
      while let next = popFirst() {
        guard LWS.writeText(wsi, next, through: buffer) else { return -1 }
        buffer.counts.messages.add(1, ordering: .relaxed)
        // Only checked when more is queued: it costs lws a poll() of this one socket.
        if pending > 0, lws_send_pipe_choked(wsi) != 0 { break }
      }
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
