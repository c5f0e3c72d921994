import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the terminal's input on a background thread and hands decoded keys to `deliver` (on that
/// thread; the shell hops to the main queue). Blocks in `poll(2)` until bytes arrive — with a
/// timeout of ``KeyDecoder/escapeTimeout`` only while an `ESC` waits to be told apart from a
/// sequence — so it costs nothing while the user is idle. End of input (EOF, or EIO after the
/// terminal went away) calls `end` once, and the thread stops.
public final class InputReader: @unchecked Sendable {
  private let descriptor: Int32
  private let deliver: @Sendable ([Key]) -> Void
  private let end: @Sendable () -> Void

  public init(
    descriptor: Int32 = STDIN_FILENO, deliver: @escaping @Sendable ([Key]) -> Void,
    end: @escaping @Sendable () -> Void
  ) {
    self.descriptor = descriptor
    self.deliver = deliver
    self.end = end
  }

  /// Starts the reading thread.
  public func start() {
    let thread = Thread { [self] in loop() }
    thread.name = "CommonUI.InputReader"
    thread.start()
  }

  private func loop() {
    var decoder = KeyDecoder()
    var bytes = [UInt8](repeating: 0, count: 4096)
    let timeout = Int32(KeyDecoder.escapeTimeout.components.attoseconds / 1_000_000_000_000_000)
    while true {
      var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let ready = poll(&request, 1, decoder.hasPending ? timeout : -1)
      if ready < 0 {
        if errno == EINTR { continue }
        end()
        return
      }
      if ready == 0 {
        let keys = decoder.flush()
        if !keys.isEmpty { deliver(keys) }
        continue
      }
      let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR || errno == EAGAIN { continue }
      guard count > 0 else {
        end()
        return
      }
      let keys = decoder.decode(bytes[0..<count])
      if !keys.isEmpty { deliver(keys) }
    }
  }
}
