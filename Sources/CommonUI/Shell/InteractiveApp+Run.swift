import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension InteractiveApp {
  /// Runs the app on the real terminal until it quits, then exits the process with the app's
  /// exit status (0 for `q`, 130 for Ctrl-C, 128 + n for a terminating signal n).
  ///
  /// The terminal is put back on every way out: quit, Ctrl-C, SIGTERM / SIGHUP / SIGINT, end of
  /// input, `exit()` from elsewhere (an `atexit` hook) and a crash (a signal handler for SIGSEGV,
  /// SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT restores it before the default action). Ctrl-Z and
  /// SIGTSTP restore it and stop; SIGCONT (`fg`) re-enters raw mode and redraws everything;
  /// SIGWINCH redraws at the new size. Signals arrive through `DispatchSource`s on the main queue.
  ///
  /// - Throws: ``TerminalError/notATerminal`` — before touching anything — when stdin or stdout
  ///   is not a terminal (no interactive mode then; the caller prints the message, exit 2).
  public func run() throws -> Never {
    guard Terminal.isInteractive else { throw TerminalError.notATerminal }
    let terminal = Terminal()
    try terminal.enter()
    terminal.installCrashRestore()
    backend = TerminalBackend(terminal: terminal, useColor: theme.usesColor)
    onQuit = { status in
      terminal.restore()
      exit(status)
    }
    onSuspend = { [weak self] in
      terminal.suspend()
      self?.resume(terminal)
    }
    var sources: [DispatchSourceSignal] = []
    func on(_ signalNumber: Int32, _ handler: @escaping @MainActor () -> Void) {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
      source.setEventHandler { MainActor.assumeIsolated { handler() } }
      source.resume()
      sources.append(source)
    }
    on(SIGWINCH) { [weak self] in
      self?.backend.invalidate()
      self?.setNeedsDisplay()
    }
    on(SIGTSTP) { [weak self] in
      terminal.suspend()
      self?.resume(terminal)
    }
    on(SIGCONT) { [weak self] in self?.resume(terminal) }
    for signalNumber in [SIGTERM, SIGHUP, SIGINT] {
      on(signalNumber) {
        terminal.restore()
        exit(128 + signalNumber)
      }
    }
    Self.signalSources = sources
    let reader = InputReader(
      deliver: { [weak self] keys in
        let box = UncheckedBox(keys)
        DispatchQueue.main.async {
          MainActor.assumeIsolated {
            for key in box.value { self?.handle(key) }
          }
        }
      },
      end: { [weak self] in
        DispatchQueue.main.async { MainActor.assumeIsolated { self?.perform(.quit) } }
      })
    reader.start()
    setNeedsDisplay()
    dispatchMain()
  }

  /// After `fg`: raw mode again (if it was left), and a full redraw.
  private func resume(_ terminal: Terminal) {
    try? terminal.enter()
    backend.invalidate()
    setNeedsDisplay()
  }

  /// Keeps the signal sources alive for the life of the process.
  nonisolated(unsafe) private static var signalSources: [DispatchSourceSignal] = []
}

extension Terminal {
  /// Installs handlers for crash signals that write the restoring escape sequences and the saved
  /// termios settings (async-signal-safe calls only), then let the signal's default action run.
  func installCrashRestore() {
    CrashRestore.prepare(terminal: self)
    for signalNumber in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT] {
      // One-shot: the handler restores, then the default action (core dump, exit) happens.
      signal(signalNumber) { signalNumber in
        CrashRestore.run()
        signal(signalNumber, SIG_DFL)
        raise(signalNumber)
      }
    }
  }
}

/// What the crash handler needs, prepared in advance (a signal handler may not allocate).
private enum CrashRestore {
  nonisolated(unsafe) static var bytes: UnsafeMutableBufferPointer<UInt8>?
  nonisolated(unsafe) static var settings: UnsafeMutablePointer<termios>?
  nonisolated(unsafe) static var input: Int32 = STDIN_FILENO
  nonisolated(unsafe) static var output: Int32 = STDOUT_FILENO

  static func prepare(terminal: Terminal) {
    let sequence = Array("\u{1B}[0m\u{1B}[?2004l\u{1B}[?25h\u{1B}[?1049l".utf8)
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: sequence.count)
    _ = buffer.initialize(from: sequence)
    bytes = buffer
    input = terminal.inputDescriptor
    output = terminal.outputDescriptor
    if let saved = terminal.savedSettings {
      let pointer = UnsafeMutablePointer<termios>.allocate(capacity: 1)
      pointer.initialize(to: saved)
      settings = pointer
    }
  }

  static func run() {
    if let bytes { _ = write(output, bytes.baseAddress, bytes.count) }
    if let settings { tcsetattr(input, TCSAFLUSH, settings) }
  }
}
