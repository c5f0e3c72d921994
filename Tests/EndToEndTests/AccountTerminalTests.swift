import CommonTesting
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Secrets typed at a terminal: the `account` executable on a pseudo-terminal, answering its
/// prompts as a person would. Nothing typed is echoed, and the terminal's echo is back on
/// afterwards on every path (success, mismatch, Ctrl-C).
@Suite(.serialized) struct AccountTerminalTests {
  /// A child process whose stdin, stdout and stderr are the slave side of a pseudo-terminal.
  final class Session {
    let process = Process()
    var master: Int32 = -1
    var slave: Int32 = -1
    var transcript = ""

    init(_ product: String, _ arguments: [String]) throws {
      guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw POSIXError(.EIO) }
      process.executableURL = try ProductRunner().executable(product)
      process.arguments = arguments
      process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": NSTemporaryDirectory()]
      let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
      process.standardInput = handle
      process.standardOutput = handle
      process.standardError = handle
      try process.run()
    }

    deinit {
      if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
      }
      close(master)
      close(slave)
    }

    /// Reads until the output since the last call contains `text` (false after 20 s or at exit).
    @discardableResult
    func expect(_ text: String) -> Bool {
      let start = transcript.endIndex
      let deadline = Date().addingTimeInterval(20)
      while Date() < deadline {
        if transcript[start...].contains(text) { return true }
        if !readSome(timeoutMilliseconds: 100) && !process.isRunning { return transcript[start...].contains(text) }
      }
      return false
    }

    func send(_ text: String) {
      var bytes = Array(text.utf8)
      _ = write(master, &bytes, bytes.count)
    }

    /// Waits for the exit and reads what is left; returns the exit status.
    func finish() -> Int32 {
      let deadline = Date().addingTimeInterval(20)
      while process.isRunning, Date() < deadline { _ = readSome(timeoutMilliseconds: 50) }
      if process.isRunning {
        kill(process.processIdentifier, SIGKILL)  // stuck at a prompt: fail, never hang
        process.waitUntilExit()
        return -1
      }
      while readSome(timeoutMilliseconds: 50) {}
      return process.terminationStatus
    }

    /// Whether the terminal echoes input now.
    var echoes: Bool {
      var settings = termios()
      tcgetattr(slave, &settings)
      return settings.c_lflag & tcflag_t(ECHO) != 0
    }

    private func readSome(timeoutMilliseconds: Int32) -> Bool {
      var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, timeoutMilliseconds) > 0 else { return false }
      var buffer = [UInt8](repeating: 0, count: 4096)
      let count = read(master, &buffer, buffer.count)
      guard count > 0 else { return false }  // EIO once the child is gone
      transcript += String(decoding: buffer[0..<count], as: UTF8.self)
      return true
    }
  }

  static let password = "typed at a terminal"

  @Test func signup_asksTwiceWithoutEcho_thenLoginSucceeds() throws {
    let directory = TemporaryDirectory(prefix: "account-tty")
    let signup = try Session(
      "account",
      ["signup", "--email", "tty@example.com", "--first-name", "T", "--last-name", "Y", "--data-dir", directory.path])
    #expect(signup.expect("Password (at least 10 characters): "))
    signup.send(Self.password + "\r")
    #expect(signup.expect("Repeat the password: "))
    signup.send(Self.password + "\r")
    #expect(signup.finish() == 0, "\(signup.transcript)")
    #expect(signup.transcript.contains("Account created for tty@example.com"))
    #expect(!signup.transcript.contains(Self.password))
    #expect(signup.echoes)

    let login = try Session("account", ["login", "--email", "tty@example.com", "--data-dir", directory.path])
    #expect(login.expect("Password: "))
    login.send("typed at a terminalX\u{7F}\r")  // backspace edits
    #expect(login.finish() == 0, "\(login.transcript)")
    #expect(login.transcript.contains("Signed in as tty@example.com"))
    #expect(!login.transcript.contains("typed at"))
    #expect(login.echoes)
  }

  @Test func mismatchAndCtrlC_changeNothingAndRestoreEcho() throws {
    let directory = TemporaryDirectory(prefix: "account-tty")
    let signup = try Session(
      "account",
      ["signup", "--email", "tty@example.com", "--first-name", "T", "--last-name", "Y", "--data-dir", directory.path])
    #expect(signup.expect("Password"))
    signup.send(Self.password + "\r")
    #expect(signup.expect("Repeat"))
    signup.send("something else entirely\r")
    #expect(signup.finish() == 2)
    #expect(signup.transcript.contains("the two passwords differ: type the same password twice"))
    #expect(signup.echoes)

    let login = try Session("account", ["login", "--email", "tty@example.com", "--data-dir", directory.path])
    #expect(login.expect("Password: "))
    login.send("half a pass")
    login.send("\u{03}")
    #expect(login.finish() == 1)
    #expect(login.transcript.contains("cancelled"))
    #expect(!login.transcript.contains("half a pass"))
    #expect(login.echoes)
  }
}
