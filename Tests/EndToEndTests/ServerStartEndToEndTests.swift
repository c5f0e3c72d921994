import CommonTesting
import Foundation
import Glibc
import Testing

/// `travel-server` when it cannot start: a wrong TLS file is named (exit 2, nothing written), a
/// taken port is said to be in use (exit 1); never libwebsockets' own log lines. And its help.
@Suite(.timeLimit(.minutes(3)))
struct ServerStartEndToEndTests {
  let directory = TemporaryDirectory()

  func server(_ arguments: [String]) throws -> ProductRunner.Result {
    try ProductRunner().run("travel-server", arguments + ["--data-dir", directory.url.path])
  }

  /// Neither lws's `[date] E: …` lines nor OpenSSL's text reach the user.
  func expectNoLibraryText(_ stderr: String) {
    #expect(!stderr.contains("] E: "), "\(stderr)")
    #expect(!stderr.contains("ERROR on binding"), "\(stderr)")
    #expect(!stderr.contains("PEM routines"), "\(stderr)")
    #expect(!stderr.contains("lws_"), "\(stderr)")
  }

  @Test func aFileThatIsNoCertificate_isNamed_exit2_nothingWritten() throws {
    let scratch = TemporaryDirectory()
    let text = scratch.url.appendingPathComponent("hostname").path
    try Data("travel-host\n".utf8).write(to: URL(fileURLWithPath: text))
    let result = try server(["--listen", "127.0.0.1:0", "--tls-cert", text, "--tls-key", text])
    #expect(result.status == 2, "\(result.stderr)")
    #expect(result.stderr.contains("invalid_tls_file") || result.stderr.contains("the TLS certificate \(text)"))
    #expect(result.stderr.contains("is not a PEM certificate"), "\(result.stderr)")
    #expect(result.stderr.contains("-----BEGIN CERTIFICATE-----"), "\(result.stderr)")
    #expect(!result.stderr.contains("address in use"), "\(result.stderr)")
    expectNoLibraryText(result.stderr)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
  }

  @Test func aTakenPort_isSaidToBeInUse_exit1() throws {
    // A listening socket of the test's own holds the port.
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    try #require(bound && listen(fd, 1) == 0)
    let port = Int(UInt16(bigEndian: address.sin_port))
    let result = try server(["--listen", "127.0.0.1:\(port)"])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stderr.contains("port \(port) is in use"), "\(result.stderr)")
    expectNoLibraryText(result.stderr)
  }

  @Test func help_hasNoEmptyExample() throws {
    let result = try ProductRunner().run("travel-server", ["--help"])
    #expect(result.status == 0)
    let examples = result.stdout.components(separatedBy: "EXAMPLES:").last ?? ""
    let lines = examples.split(separator: "\n").map(String.init)
    #expect(lines.contains("  travel-server"), "\(examples)")
    #expect(lines.allSatisfy { !$0.hasSuffix(" ") }, "\(examples)")
  }
}
