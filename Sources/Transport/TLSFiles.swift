import COpenSSL
import Foundation

/// The checks of a server's TLS files before it listens, with OpenSSL's PEM readers: so a wrong
/// file is named with what is accepted, instead of libwebsockets failing to create its context
/// with its own log text.
public enum TLSFiles {
  /// Checks that `certificate` is a readable PEM X.509 certificate (`-----BEGIN CERTIFICATE-----`,
  /// the server's first, any chain after it), `key` a readable, unencrypted PEM private key
  /// (`-----BEGIN PRIVATE KEY-----` PKCS #8, or the `RSA`/`EC PRIVATE KEY` forms), and that the key
  /// is the certificate's.
  /// - Throws: ``TransportError`` `invalid_tls_file` naming the file, what is wrong with it and
  ///   what is accepted.
  public static func validate(certificate: String, key: String) throws {
    let certificateData = try read(certificate, what: "certificate")
    let keyData = try read(key, what: "private key")
    ERR_clear_error()
    defer { ERR_clear_error() }
    guard let x509 = withBIO(certificateData, { PEM_read_bio_X509($0, nil, nil, nil) }) else {
      throw invalid(
        "the TLS certificate \(certificate) is not a PEM certificate: expected an X.509 certificate in PEM form "
          + "(a file starting -----BEGIN CERTIFICATE-----)")
    }
    defer { X509_free(x509) }
    // No passphrase callback may prompt on the terminal: an encrypted key is refused.
    guard let privateKey = withBIO(keyData, { PEM_read_bio_PrivateKey($0, nil, { _, _, _, _ in 0 }, nil) }) else {
      let encrypted = String(decoding: keyData.prefix(4096), as: UTF8.self).contains("ENCRYPTED")
      throw invalid(
        "the TLS key \(key) is not "
          + (encrypted ? "an unencrypted private key" : "a PEM private key")
          + ": expected an unencrypted private key in PEM form (-----BEGIN PRIVATE KEY-----, "
          + "or -----BEGIN RSA PRIVATE KEY----- / -----BEGIN EC PRIVATE KEY-----)")
    }
    defer { EVP_PKEY_free(privateKey) }
    guard X509_check_private_key(x509, privateKey) == 1 else {
      throw invalid(
        "the TLS key \(key) is not the private key of the certificate \(certificate): give the matching pair")
    }
  }

  private static func read(_ path: String, what: String) throws -> Data {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw invalid("the TLS \(what) file \(path) does not exist: expected a PEM file")
    }
    guard !isDirectory.boolValue else {
      throw invalid("the TLS \(what) file \(path) is a directory: expected a PEM file")
    }
    guard FileManager.default.isReadableFile(atPath: path), let data = FileManager.default.contents(atPath: path)
    else { throw invalid("cannot read the TLS \(what) file \(path): permission denied") }
    return data
  }

  private static func withBIO<T>(_ data: Data, _ body: (OpaquePointer) -> T?) -> T? {
    data.withUnsafeBytes { raw -> T? in
      guard let base = raw.baseAddress, raw.count > 0, let bio = BIO_new_mem_buf(base, Int32(raw.count)) else {
        return nil
      }
      defer { BIO_free(bio) }
      return body(bio)
    }
  }

  private static func invalid(_ message: String) -> TransportError {
    TransportError(code: "invalid_tls_file", message: message)
  }
}
