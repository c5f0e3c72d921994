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
  /// Whether the lines of ``capturing(input:interactive:)`` stand for a person at a terminal.
  private var scriptedTerminal = false

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
  /// ``readLine()``; `interactive`: the input stands for a person answering questions at a
  /// terminal (``canAskQuestions``), else for a pipe.
  public static func capturing(input: [String] = [], interactive: Bool = false) -> Console {
    let console = Console(isTerminal: false, out: { _ in }, err: { _ in })
    console.stdinLines = input
    console.scriptedTerminal = interactive
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

  /// Writes `text` to standard error as is (a prompt that the answer follows on the same line).
  public func writeError(_ text: String) {
    lock.withLock { capturedErr += text }
    writeErr(text)
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

  /// Whether a command may ask the person a question and read the answer (`[y/N]`): standard
  /// input is a terminal, or the lines of ``capturing(input:interactive:)`` stand in for one. A
  /// pipe or a file cannot be asked: commands then need an explicit option (`--yes`).
  public var canAskQuestions: Bool {
    lock.withLock { stdinLines != nil ? scriptedTerminal : isatty(STDIN_FILENO) == 1 }
  }

  /// Whether ``readLine()`` serves lines given to ``capturing(input:)`` rather than the process's
  /// standard input (then secrets are never read from the terminal; see ``SecretInput``).
  public var hasScriptedInput: Bool { lock.withLock { stdinLines != nil } }

  /// Everything written to standard output so far.
  public var output: String { lock.withLock { capturedOut } }
  /// Everything written to standard error so far.
  public var errorOutput: String { lock.withLock { capturedErr } }
}
