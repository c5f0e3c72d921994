import Foundation
import Glibc

/// A `travel-server` process started by a test: the built binary on a free loopback port
/// (`--listen 127.0.0.1:0`) with its own temporary data directory, stopped with SIGTERM when
/// released (or by ``stop()``). Start one per suite, not per test: it loads the world's data.
public final class ServerProcess: @unchecked Sendable {
  public let process: Process
  /// `http://127.0.0.1:PORT`.
  public let url: URL
  /// The server's data directory (its store).
  public let directory: TemporaryDirectory
  private let stderrPipe = Pipe()
  private let log = Output()

  /// Starts the server and waits (at most `timeout` seconds) until it says where it listens.
  /// - Parameters:
  ///   - directory: the data directory (a new temporary one by default; give the one of a
  ///     stopped or killed server to restart it on the same store).
  ///   - port: 0 (a free port) or the port of a server stopped before, to restart it there.
  /// - Throws: ``ProductRunner/Failure`` when the binary is missing, or an error naming what it
  ///   printed when it did not start.
  public init(
    timeout: TimeInterval = 60, arguments: [String] = [], directory: TemporaryDirectory? = nil, port: Int = 0
  ) throws {
    self.directory = directory ?? TemporaryDirectory(prefix: "travel-server")
    process = Process()
    process.executableURL = try ProductRunner().executable("travel-server")
    process.arguments = ["--listen", "127.0.0.1:\(port)", "--data-dir", self.directory.path] + arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = stderrPipe
    process.standardInput = FileHandle.nullDevice
    let announced = DispatchSemaphore(value: 0)
    let found = URLBox()
    let log = log
    stderrPipe.fileHandleForReading.readabilityHandler = { handle in
      let chunk = handle.availableData
      if chunk.isEmpty {
        handle.readabilityHandler = nil
        announced.signal()
        return
      }
      let text = log.append(chunk)
      if found.url == nil,
        let range = text.range(of: #"listening on (https?://[0-9.:\[\]]+)"#, options: .regularExpression)
      {
        let match = String(text[range]).replacingOccurrences(of: "listening on ", with: "")
        found.url = URL(string: match)
        announced.signal()
      }
    }
    try process.run()
    _ = announced.wait(timeout: .now() + timeout)
    guard let url = found.url else {
      process.terminate()
      throw ProductRunner.Failure.didNotStart("travel-server", output: log.text)
    }
    self.url = url
  }

  deinit { stop() }

  /// What the server wrote to stderr so far (the access log, one JSON line per request).
  public var output: String { log.text }

  /// SIGKILL (a crash: nothing is finished or flushed by the server), and waits for the exit.
  public func kill() {
    guard process.isRunning else { return }
    Glibc.kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  /// SIGTERM, then waits for the exit (SIGKILL after `timeout` seconds); returns the exit status.
  @discardableResult
  public func stop(timeout: TimeInterval = 12) -> Int32 {
    guard process.isRunning else { return process.terminationStatus }
    process.terminate()
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    return process.terminationStatus
  }

  private final class Output: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func append(_ chunk: Data) -> String {
      lock.withLock {
        data.append(chunk)
        return String(decoding: data, as: UTF8.self)
      }
    }
    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
  }

  private final class URLBox: @unchecked Sendable {
    var url: URL?
  }
}
