import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads secrets (passwords, card numbers, CVCs), never from the command line (`CLI.md`:
/// "Secrets are never command-line arguments").
///
/// - When standard input is a terminal: the prompt goes to standard error and the line is read
///   with echo off (termios `ECHO`, `ICANON` and `ISIG` cleared; nothing typed is shown).
///   Backspace and Ctrl-U edit, Enter ends, Ctrl-C cancels and Ctrl-D on an empty line ends input.
///   The terminal's settings are restored on every path: normal return, error, cancel, and
///   `SIGTERM`/`SIGHUP`/`SIGQUIT` arriving meanwhile (restored, then the signal's default action).
/// - Otherwise (a pipe, a file, a test console): one line of standard input, without its line
///   ending; no prompt is written.
public enum SecretInput {
  /// Reads one secret after showing `prompt` (on a terminal only).
  /// - Returns: the line without its line ending, or nil at end of input.
  /// - Throws: ``CLIError`` `cancelled` (exit 1) when the user presses Ctrl-C at the prompt;
  ///   `terminal_unusable` when the terminal cannot be configured.
  public static func read(prompt: String, console: Console) throws -> String? {
    if !console.hasScriptedInput, isatty(STDIN_FILENO) == 1 {
      return try readFromTerminal(prompt: prompt, console: console)
    }
    guard var line = console.readLine() else { return nil }
    if line.hasSuffix("\r") { line.removeLast() }
    return line
  }

  /// Whether ``read(prompt:console:)`` would read from a terminal (so a command can ask twice for
  /// a new password, which makes no sense for piped input).
  public static func readsFromTerminal(console: Console) -> Bool {
    !console.hasScriptedInput && isatty(STDIN_FILENO) == 1
  }

  private static func readFromTerminal(prompt: String, console: Console) throws -> String? {
    var original = termios()
    guard tcgetattr(STDIN_FILENO, &original) == 0 else {
      throw CLIError.refused(
        "cannot configure the terminal to read a secret: \(String(cString: strerror(errno)))",
        code: "terminal_unusable")
    }
    var quiet = original
    quiet.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
    withUnsafeMutableBytes(of: &quiet.c_cc) { bytes in
      bytes[Int(VMIN)] = 1
      bytes[Int(VTIME)] = 0
    }
    TerminalRestorer.install(original)
    defer {
      TerminalRestorer.restore()
      FileHandle.standardError.write(Data("\n".utf8))
    }
    // Echo goes off before the prompt appears, so nothing typed after the prompt is shown or lost.
    guard tcsetattr(STDIN_FILENO, TCSANOW, &quiet) == 0 else {
      throw CLIError.refused(
        "cannot configure the terminal to read a secret: \(String(cString: strerror(errno)))",
        code: "terminal_unusable")
    }
    FileHandle.standardError.write(Data(prompt.utf8))
    var bytes: [UInt8] = []
    defer { bytes.withUnsafeMutableBufferPointer { buffer in buffer.update(repeating: 0) } }
    while true {
      var byte: UInt8 = 0
      let count = systemRead(STDIN_FILENO, &byte, 1)
      if count < 0, errno == EINTR { continue }
      if count <= 0 { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
      switch byte {
      case 0x0A, 0x0D:  // Enter
        return String(decoding: bytes, as: UTF8.self)
      case 0x03:  // Ctrl-C
        throw CLIError.refused("cancelled: nothing was changed", code: "cancelled")
      case 0x04:  // Ctrl-D
        if bytes.isEmpty { return nil }
      case 0x7F, 0x08:  // Backspace: drop one UTF-8 scalar
        while let last = bytes.popLast(), last & 0xC0 == 0x80 {}
      case 0x15:  // Ctrl-U: clear the line
        bytes.removeAll()
      default:
        if byte >= 0x20 || byte == 0x09 { bytes.append(byte) }
      }
    }
  }
}

/// Keeps the terminal settings to restore, reachable from a signal handler (which can capture
/// nothing). Only one secret is read at a time.
private enum TerminalRestorer {
  nonisolated(unsafe) static var saved = termios()
  nonisolated(unsafe) static var isActive = false
  static let signals: [Int32] = [SIGTERM, SIGHUP, SIGQUIT]
  nonisolated(unsafe) static var previous: [Int32: sighandler_t?] = [:]

  static func install(_ settings: termios) {
    saved = settings
    isActive = true
    for signalNumber in signals {
      previous[signalNumber] = signal(signalNumber, terminalRestoringHandler)
    }
  }

  static func restore() {
    guard isActive else { return }
    isActive = false
    tcsetattr(STDIN_FILENO, TCSANOW, &saved)
    for signalNumber in signals {
      if let handler = previous[signalNumber] { signal(signalNumber, handler) }
    }
  }
}

/// Restores the terminal, then lets the signal take its default course (async-signal-safe calls only).
private func terminalRestoringHandler(_ signalNumber: Int32) {
  if TerminalRestorer.isActive {
    tcsetattr(STDIN_FILENO, TCSANOW, &TerminalRestorer.saved)
  }
  signal(signalNumber, SIG_DFL)
  raise(signalNumber)
}

/// `read(2)`, named apart from ``SecretInput/read(prompt:console:)``.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
    Glibc.read(descriptor, buffer, count)
  #else
    Darwin.read(descriptor, buffer, count)
  #endif
}
