import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a command writes: standard output for results, standard error for messages.
///
/// The process console writes to file descriptors 1 and 2; ``Console/capturing()`` keeps the text
/// in memory so commands can be run in-process by tests. Thread-safe.
public final class Console: @unchecked Sendable {
  private let lock = NSLock()
  private let writeOut: (String) -> Void
  private let writeErr: (String) -> Void
  private var capturedOut = ""
  private var capturedErr = ""
  /// Whether standard output is a terminal (interactive mode and colour depend on it).
  public let isTerminal: Bool
  /// Text read when a command asks for standard input (nil: the process's own stdin).
  private var stdinLines: [String]?

  private init(isTerminal: Bool, out: @escaping (String) -> Void, err: @escaping (String) -> Void) {
    self.isTerminal = isTerminal
    self.writeOut = out
    self.writeErr = err
  }

  /// The process's standard output and error.
  public static func standard() -> Console {
    Console(
      isTerminal: isatty(STDOUT_FILENO) == 1,
      out: { FileHandle.standardOutput.write(Data($0.utf8)) },
      err: { FileHandle.standardError.write(Data($0.utf8)) }
    )
  }

  /// A console that keeps what is written, for tests; `input` is served line by line to
  /// ``readLine()``.
  public static func capturing(input: [String] = []) -> Console {
    let console = Console(isTerminal: false, out: { _ in }, err: { _ in })
    console.stdinLines = input
    return console
  }

  /// Writes `text` and a newline to standard output.
  public func print(_ text: String = "") {
    write(text + "\n")
  }

  /// Writes `text` to standard output as is.
  public func write(_ text: String) {
    lock.withLock { capturedOut += text }
    writeOut(text)
  }

  /// Writes `text` and a newline to standard error.
  public func printError(_ text: String) {
    lock.withLock { capturedErr += text + "\n" }
    writeErr(text + "\n")
  }

  /// Reads one line of standard input without its newline; nil at end of input.
  public func readLine() -> String? {
    lock.lock()
    if stdinLines != nil {
      defer { lock.unlock() }
      return stdinLines!.isEmpty ? nil : stdinLines!.removeFirst()
    }
    lock.unlock()
    return Swift.readLine(strippingNewline: true)
  }

  /// Whether ``readLine()`` serves lines given to ``capturing(input:)`` rather than the process's
  /// standard input (then secrets are never read from the terminal; see ``SecretInput``).
  public var hasScriptedInput: Bool { lock.withLock { stdinLines != nil } }

  /// Everything written to standard output so far.
  public var output: String { lock.withLock { capturedOut } }
  /// Everything written to standard error so far.
  public var errorOutput: String { lock.withLock { capturedErr } }
}
