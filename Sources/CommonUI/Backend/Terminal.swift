import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's terminal in interactive mode: raw input (termios), the alternate screen, a
/// hidden cursor and bracketed paste — and getting all of that undone on every way out.
///
/// ``enter()`` saves the terminal's settings and switches; ``restore()`` puts everything back
/// (idempotent). The shell calls ``restore()`` on quit, Ctrl-C, SIGTERM/SIGHUP/SIGINT, a thrown
/// error, before stopping on Ctrl-Z/SIGTSTP (``suspend()``), and an `atexit` hook catches an
/// `exit()` from anywhere else. After `fg` (SIGCONT) ``enter()`` is called again.
/// Not thread-safe: use it from the main thread.
public final class Terminal: @unchecked Sendable {
  /// The terminal being driven (stdin for keys, stdout for frames).
  public let inputDescriptor: Int32
  public let outputDescriptor: Int32
  private var original: termios?
  private var isActive = false

  nonisolated(unsafe) private static var atExitTerminal: Terminal?

  public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
    self.inputDescriptor = input
    self.outputDescriptor = output
  }

  /// The termios settings saved by the first ``enter()`` (what ``restore()`` puts back).
  var savedSettings: termios? { original }

  /// Whether both stdin and stdout are terminals (interactive mode needs both).
  public static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

  /// Size of the output terminal (TIOCGWINSZ), or 80×24 when it cannot be read.
  public func size() -> Size {
    var ws = winsize()
    if ioctl(outputDescriptor, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 {
      return Size(width: Int(ws.ws_col), height: Int(ws.ws_row))
    }
    return Size(width: 80, height: 24)
  }

  /// Raw mode (no echo, no line editing, no signals from keys: Ctrl-C arrives as byte 3),
  /// alternate screen, hidden cursor, bracketed paste on.
  /// - Throws: `TerminalError.notATerminal` when stdin is not a terminal.
  public func enter() throws {
    var settings = termios()
    guard tcgetattr(inputDescriptor, &settings) == 0 else { throw TerminalError.notATerminal }
    if original == nil { original = settings }
    var raw = original!
    cfmakeraw(&raw)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    tcsetattr(inputDescriptor, TCSAFLUSH, &raw)
    write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?2004h\u{1B}[2J")
    isActive = true
    if Self.atExitTerminal == nil {
      Self.atExitTerminal = self
      atexit { Terminal.atExitTerminal?.restore() }
    }
  }

  /// Leaves the alternate screen, shows the cursor, turns bracketed paste off and restores the
  /// saved termios settings. Does nothing when not in interactive mode.
  public func restore() {
    guard isActive else { return }
    isActive = false
    write("\u{1B}[0m\u{1B}[?2004l\u{1B}[?25h\u{1B}[?1049l")
    if var settings = original { tcsetattr(inputDescriptor, TCSAFLUSH, &settings) }
  }

  /// Ctrl-Z: restores the terminal, then stops the process (SIGSTOP; the shell's `fg` sends
  /// SIGCONT, upon which the caller calls ``enter()`` again and redraws everything).
  public func suspend() {
    restore()
    kill(getpid(), SIGSTOP)
  }

  /// Writes `text` to the output in full (retrying short writes and EINTR).
  public func write(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes { raw in
        systemWrite(outputDescriptor, raw.baseAddress! + offset, raw.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        return
      }
      offset += written
    }
  }
}

/// write(2), named apart from ``Terminal/write(_:)``.
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
    Glibc.write(fd, bytes, count)
  #else
    Darwin.write(fd, bytes, count)
  #endif
}

/// Errors of starting interactive mode.
public enum TerminalError: Error, Equatable, CustomStringConvertible {
  /// stdin or stdout is not a terminal.
  case notATerminal

  public var description: String {
    switch self {
    case .notATerminal:
      "interactive mode needs a terminal on stdin and stdout; use the commands instead (see --help)"
    }
  }
}

/// The real terminal as a ``Backend``: frames go through ``ANSIRenderer`` (only changed cells are
/// written), in one `write` per frame.
public final class TerminalBackend: Backend {
  public let terminal: Terminal
  private var renderer: ANSIRenderer

  public init(terminal: Terminal, useColor: Bool) {
    self.terminal = terminal
    self.renderer = ANSIRenderer(useColor: useColor)
  }

  public func size() -> Size { terminal.size() }

  public func draw(_ buffer: Buffer) {
    let output = renderer.render(buffer)
    if !output.isEmpty { terminal.write(output) }
  }

  public func invalidate() { renderer.invalidate() }
}
