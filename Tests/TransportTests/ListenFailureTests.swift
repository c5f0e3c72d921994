import Foundation
import Testing

@testable import Transport

/// A self-signed EC P-256 certificate for 127.0.0.1 (valid for a century) with its key, another
/// key, and the key encrypted with a passphrase: test fixtures only, made with the openssl tool.
enum TLSFixtures {
  static let certificate = """
    -----BEGIN CERTIFICATE-----
    MIIBfjCCASWgAwIBAgIUaZUIs5uN30p0Ww6IOGQnpqNVeMAwCgYIKoZIzj0EAwIw
    FDESMBAGA1UEAwwJMTI3LjAuMC4xMCAXDTI2MTIwMjA0MzQ0OFoYDzIxMjYxMTA4
    MDQzNDQ4WjAUMRIwEAYDVQQDDAkxMjcuMC4wLjEwWTATBgcqhkjOPQIBBggqhkjO
    PQMBBwNCAATqbhJlf9TGWAr3puYMbZtXYBV9+gkU5z0MlrlUlonQwW9/a1h9Bx+B
    fXXQuiKxlS4bUaY5j3ZXJSf6pPnx/5peo1MwUTAdBgNVHQ4EFgQUeaiuZDgfOOO4
    iT2DWZ8vTNE58bwwHwYDVR0jBBgwFoAUeaiuZDgfOOO4iT2DWZ8vTNE58bwwDwYD
    VR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNHADBEAiBYTJMekjkWwGxzN2or1iww
    HINu7YzeSdC+Mn5/KQ6NrwIgePvUrTkwKWWwPPk0amhww3xl1b4fWXVtToLKXoTU
    Ztc=
    -----END CERTIFICATE-----
    """
  static let key = """
    -----BEGIN PRIVATE KEY-----
    MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQge8Gi8vamUmbpinyJ
    j4IGHRzANDS8FpVrYcG22ynjLu+hRANCAATqbhJlf9TGWAr3puYMbZtXYBV9+gkU
    5z0MlrlUlonQwW9/a1h9Bx+BfXXQuiKxlS4bUaY5j3ZXJSf6pPnx/5pe
    -----END PRIVATE KEY-----
    """
  static let otherKey = """
    -----BEGIN PRIVATE KEY-----
    MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgnR+ZBncYvyto7ed7
    rFjR0LIaJ7vLbPj/WTSO8z28Iy2hRANCAARnUkS9KvxaA3ZBM/zK0OAMCbMa6bF9
    zTc7XlNsZtviPI4cvwK6VasxnKpLKPkqE7waDEEoqHNMe+ez1i/fJBOm
    -----END PRIVATE KEY-----
    """
  static let encryptedKey = """
    -----BEGIN ENCRYPTED PRIVATE KEY-----
    MIHsMFcGCSqGSIb3DQEFDTBKMCkGCSqGSIb3DQEFDDAcBAh6LQ6Nh9qSiAICCAAw
    DAYIKoZIhvcNAgkFADAdBglghkgBZQMEASoEEPN8z0+6bF/sQTbYZpJlk80EgZBa
    c6z+QyPt0bm+WesYJmBFIB9jhaIp+/g1aojAFXmmcbwX9K93u8lgdoPAL8lwYmic
    A10WL59Du72oJ64JLIeT4U80SzexURfwBuhcm2x/IEAwfttJZLBM8DJgKELpkbPJ
    U2mFHFvktT7mfXZer+YFK7gK3CGXEAZoSRHyLc+cT0eP7E84pQJeMfmC06sI7C8=
    -----END ENCRYPTED PRIVATE KEY-----
    """
}

/// A directory of its own under the system's temporary directory, removed on deinit.
final class ScratchDirectory {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("transport-\(UUID().uuidString)")
  init() { try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
  deinit { try? FileManager.default.removeItem(at: url) }

  /// Writes `text` to `name`; returns the path.
  func file(_ name: String, _ text: String) throws -> String {
    let path = url.appendingPathComponent(name).path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }
}

@Suite(.timeLimit(.minutes(1)))
struct ListenFailureTests {
  func refusal(_ certificate: String, _ key: String) -> TransportError? {
    do {
      try TLSFiles.validate(certificate: certificate, key: key)
      return nil
    } catch let error as TransportError {
      return error
    } catch {
      return TransportError(code: "unexpected", message: "\(error)")
    }
  }

  /// Each wrong TLS file is named with what is wrong and what is accepted (it once read "cannot
  /// listen on …: address in use or not of this machine", after libwebsockets' log lines).
  @Test func wrongTLSFiles_areNamed_withWhatIsAccepted() throws {
    let scratch = ScratchDirectory()
    let certificate = try scratch.file("cert.pem", TLSFixtures.certificate)
    let key = try scratch.file("key.pem", TLSFixtures.key)
    let text = try scratch.file("hostname", "travel-host\n")
    let other = try scratch.file("other.pem", TLSFixtures.otherKey)
    let encrypted = try scratch.file("encrypted.pem", TLSFixtures.encryptedKey)
    let missing = scratch.url.appendingPathComponent("nope.pem").path
    #expect(refusal(certificate, key) == nil, "the matching pair is accepted")
    let cases: [(String, String, [String])] = [
      (text, key, [text, "is not a PEM certificate", "-----BEGIN CERTIFICATE-----"]),
      (key, key, [key, "is not a PEM certificate"]),
      (certificate, text, [text, "is not a PEM private key", "-----BEGIN PRIVATE KEY-----"]),
      (certificate, certificate, [certificate, "is not a PEM private key"]),
      (certificate, encrypted, [encrypted, "not an unencrypted private key"]),
      (certificate, other, [other, "is not the private key of the certificate \(certificate)"]),
      (missing, key, [missing, "does not exist"]),
      (certificate, scratch.url.path, [scratch.url.path, "is a directory"]),
    ]
    for (certificateFile, keyFile, expected) in cases {
      let error = try #require(refusal(certificateFile, keyFile), "\(certificateFile) \(keyFile)")
      #expect(error.code == "invalid_tls_file")
      for part in expected { #expect(error.message.contains(part), "\(error.message)") }
    }
    // The server says the same rather than blaming the address.
    #expect {
      _ = try HTTPServer(
        configuration: HTTPServer.Configuration(port: 0, tlsCertificate: text, tlsKey: key),
        routes: .init { _ in
          HTTPResponse(status: 200)
        })
    } throws: { ($0 as? TransportError)?.code == "invalid_tls_file" }
  }

  @Test func theMatchingPair_servesTLS() throws {
    let scratch = ScratchDirectory()
    let server = try HTTPServer(
      configuration: HTTPServer.Configuration(
        port: 0, tlsCertificate: try scratch.file("cert.pem", TLSFixtures.certificate),
        tlsKey: try scratch.file("key.pem", TLSFixtures.key)),
      routes: .init { _ in HTTPResponse(status: 200) })
    defer { server.shutdown(timeout: 2) }
    #expect(server.port > 0)
  }

  /// A port another socket listens on is said to be in use, by number.
  @Test func aTakenPort_isSaidToBeInUse() throws {
    let first = try HTTPServer(
      configuration: HTTPServer.Configuration(port: 0), routes: .init { _ in HTTPResponse(status: 200) })
    defer { first.shutdown(timeout: 2) }
    #expect {
      _ = try HTTPServer(
        configuration: HTTPServer.Configuration(port: first.port), routes: .init { _ in HTTPResponse(status: 200) })
    } throws: { error in
      guard let error = error as? TransportError else { return false }
      return error.code == "listen_failed" && error.message.contains("port \(first.port) is in use")
    }
    #expect {
      _ = try HTTPServer(
        configuration: HTTPServer.Configuration(host: "192.0.2.1", port: 0),
        routes: .init { _ in HTTPResponse(status: 200) })
    } throws: { error in
      (error as? TransportError)?.message.contains("192.0.2.1 is not an address of this machine") == true
    }
  }
}

@Suite(.timeLimit(.minutes(1)))
struct StatusLineTests {
  /// Every status goes out with its RFC 9110 reason phrase (lws writes one for 200, 304 and
  /// 400–417 only: a 426 went out as `HTTP/1.1 426 `).
  @Test func statusLines_carryTheirReasonPhrases() throws {
    let server = try HTTPServer(
      configuration: HTTPServer.Configuration(port: 0),
      routes: .init { request in HTTPResponse(status: Int(request.path.dropFirst()) ?? 500, body: Data("{}".utf8)) })
    defer { server.shutdown(timeout: 2) }
    let connection = try RawConnection(port: server.port)
    let expected = [
      200: "OK", 201: "Created", 405: "Method Not Allowed", 413: "Content Too Large", 422: "Unprocessable Content",
      426: "Upgrade Required", 429: "Too Many Requests", 503: "Service Unavailable",
    ]
    for (status, phrase) in expected.sorted(by: { $0.key < $1.key }) {
      connection.write("GET /\(status) HTTP/1.1\r\nHost: x\r\n\r\n")
      let response = try #require(connection.readResponse())
      #expect(response.statusLine == "HTTP/1.1 \(status) \(phrase)")
      #expect(response.headers["content-length"] == "2")
      #expect(response.body == "{}")
    }
  }
}
