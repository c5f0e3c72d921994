import COpenSSL
import Common
import Foundation
import Synchronization

/// Signs boarding passes with the backend's ECDSA P-256 key, and verifies them, through OpenSSL's
/// libcrypto (never home-made crypto).
///
/// - **Key**: `boarding-pass-key.pem` in the data directory, a PKCS#8 PEM private key, owner-only
///   (`0600`), made on first use (from OpenSSL's CSPRNG) and linked into place atomically, so two
///   processes making it at once end up with the same key.
/// - **Signature**: ECDSA over SHA-256 of the pass text before its security section (the bytes
///   ``BCBPEncoder/signedText(_:)`` gives), DER-encoded then base64: 96 characters.
/// - **In the pass**: item 28 (type of security data) ``securityType``, item 30 the base64 text —
///   the way mobile passes carry an ECDSA signature (standards.md §1.3).
public final class BoardingPassSigner: Sendable {
  /// The key file's name in the data directory.
  public static let keyFileName = "boarding-pass-key.pem"
  /// Item 28 of the passes this backend signs.
  public static let securityType = "4"

  private let path: String?
  private let key = Mutex<Key?>(nil)

  /// An owned `EVP_PKEY`, freed with the signer.
  private final class Key: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { EVP_PKEY_free(pointer) }
  }

  /// The signer of `dataDirectory` (its key is read or made on first use).
  public init(dataDirectory: URL) {
    path = dataDirectory.appendingPathComponent(Self.keyFileName).path
  }

  /// A signer with a fresh key in memory (tests: a key the data directory's signer does not know).
  public static func ephemeral() throws -> BoardingPassSigner {
    let signer = BoardingPassSigner(path: nil)
    try signer.key.withLock { $0 = Key(try Self.generate()) }
    return signer
  }

  private init(path: String?) { self.path = path }

  /// `pass` with its security data: the signature of its text.
  /// - Throws: ``ServiceError`` `crypto_failed`, `signing_key_unreadable` (a key file that is
  ///   not a P-256 PEM key), or the ``BCBPError`` of a field that does not fit.
  public func sign(_ pass: BoardingPass) throws -> BoardingPass {
    var signed = pass
    let message = Data(try BCBPEncoder.signedText(pass).utf8)
    signed.securityType = Self.securityType
    signed.securityData = try signature(of: message).base64EncodedString()
    return signed
  }

  /// Whether `pass` carries this backend's signature over its text. Verifying never makes a key:
  /// without one, no pass can be this backend's (``SignatureStatus/unknown``).
  public func verify(_ pass: BoardingPass) throws -> SignatureStatus {
    guard let type = pass.securityType else { return .absent }
    guard hasKey, type == Self.securityType, let signature = Data(base64Encoded: pass.securityData),
      let message = try? BCBPEncoder.signedText(pass)
    else { return .unknown }
    return try verify(signature, of: Data(message.utf8)) ? .valid : .unknown
  }

  /// Whether the key exists (in memory, or its file).
  private var hasKey: Bool {
    if key.withLock({ $0 != nil }) { return true }
    return path.map { FileManager.default.fileExists(atPath: $0) } ?? false
  }

  /// Whether the pass read from `text` (the exact text of its barcode) carries this backend's
  /// signature over that text up to its security section: ``SignatureStatus/absent`` without
  /// security data, ``SignatureStatus/unknown`` when it does not verify with this key (another
  /// issuer's, or altered).
  public func verify(text: String, pass: BoardingPass) throws -> SignatureStatus {
    guard let type = pass.securityType else { return .absent }
    var bytes = Array(text.utf8)
    while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
    let sectionLength = pass.securityData.utf8.count + 4
    guard hasKey, type == Self.securityType, bytes.count > sectionLength,
      bytes[bytes.count - sectionLength] == UInt8(ascii: "^"),
      let signature = Data(base64Encoded: pass.securityData)
    else { return .unknown }
    return try verify(signature, of: Data(bytes.prefix(bytes.count - sectionLength))) ? .valid : .unknown
  }

  /// Reads (or makes) the key now, so that signing inside a transaction does no file work.
  public func prepare() throws { _ = try loadedKey() }

  /// The key check value of the signing key (``SharedKeys``): SHA-256 of its public key (PEM),
  /// hex. Reads or makes the key now.
  /// - Throws: `signing_key_unreadable`, `crypto_failed`.
  func keyCheckValue() throws -> String {
    Crypto.hex(Crypto.sha256(Data(try publicKeyPEM().utf8)))
  }

  /// The public key, PEM (`-----BEGIN PUBLIC KEY-----`), for readers that verify passes.
  public func publicKeyPEM() throws -> String {
    let key = try loadedKey()
    guard let bio = BIO_new(BIO_s_mem()) else { throw Crypto.failure("BIO_new") }
    defer { BIO_free(bio) }
    guard PEM_write_bio_PUBKEY(bio, key.pointer) == 1 else { throw Crypto.failure("PEM_write_bio_PUBKEY") }
    var data: UnsafeMutablePointer<CChar>?
    let count = copenssl_bio_mem_data(bio, &data)
    guard let data, count > 0 else { throw Crypto.failure("BIO_get_mem_data") }
    return String(decoding: UnsafeRawBufferPointer(start: data, count: count), as: UTF8.self)
  }

  // MARK: ECDSA

  func signature(of message: Data) throws -> Data {
    let key = try loadedKey()
    guard let context = EVP_MD_CTX_new() else { throw Crypto.failure("EVP_MD_CTX_new") }
    defer { EVP_MD_CTX_free(context) }
    guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key.pointer) == 1 else {
      throw Crypto.failure("EVP_DigestSignInit")
    }
    var length = 0
    let bytes = [UInt8](message)
    guard EVP_DigestSign(context, nil, &length, bytes, bytes.count) == 1 else { throw Crypto.failure("EVP_DigestSign") }
    var signature = [UInt8](repeating: 0, count: length)
    guard EVP_DigestSign(context, &signature, &length, bytes, bytes.count) == 1 else {
      throw Crypto.failure("EVP_DigestSign")
    }
    return Data(signature.prefix(length))
  }

  func verify(_ signature: Data, of message: Data) throws -> Bool {
    let key = try loadedKey()
    guard let context = EVP_MD_CTX_new() else { throw Crypto.failure("EVP_MD_CTX_new") }
    defer { EVP_MD_CTX_free(context) }
    guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key.pointer) == 1 else {
      throw Crypto.failure("EVP_DigestVerifyInit")
    }
    let signatureBytes = [UInt8](signature)
    let bytes = [UInt8](message)
    let result = EVP_DigestVerify(context, signatureBytes, signatureBytes.count, bytes, bytes.count)
    ERR_clear_error()
    return result == 1
  }

  // MARK: The key

  private func loadedKey() throws -> Key {
    try key.withLock { cached in
      if let cached { return cached }
      guard let path else { throw Crypto.failure("no key") }
      let loaded = Key(try Self.loadOrCreate(path))
      cached = loaded
      return loaded
    }
  }

  private static func generate() throws -> OpaquePointer {
    guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
      throw Crypto.failure("EVP_PKEY_CTX_new_from_name")
    }
    defer { EVP_PKEY_CTX_free(context) }
    var key: OpaquePointer?
    guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
      EVP_PKEY_generate(context, &key) == 1, let key
    else { throw Crypto.failure("EVP_PKEY_generate (P-256)") }
    return key
  }

  private static func loadOrCreate(_ path: String) throws -> OpaquePointer {
    if let existing = FileManager.default.contents(atPath: path) { return try parse(existing, path) }
    let key = try generate()
    defer { EVP_PKEY_free(key) }
    guard let bio = BIO_new(BIO_s_mem()) else { throw Crypto.failure("BIO_new") }
    defer { BIO_free(bio) }
    guard PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) == 1 else {
      throw Crypto.failure("PEM_write_bio_PrivateKey")
    }
    var data: UnsafeMutablePointer<CChar>?
    let count = copenssl_bio_mem_data(bio, &data)
    guard let data, count > 0 else { throw Crypto.failure("BIO_get_mem_data") }
    let temporary = path + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw unreadable(path, String(cString: strerror(errno))) }
    let written = Foundation.write(fd, data, count)
    fsync(fd)
    _ = Foundation.close(fd)
    defer { unlink(temporary) }
    guard written == count else { throw unreadable(path, "short write") }
    if link(temporary, path) != 0 && errno != EEXIST { throw unreadable(path, String(cString: strerror(errno))) }
    guard let stored = FileManager.default.contents(atPath: path) else { throw unreadable(path, "cannot read it") }
    return try parse(stored, path)
  }

  private static func parse(_ pem: Data, _ path: String) throws -> OpaquePointer {
    let bytes = [UInt8](pem)
    let key: OpaquePointer? = bytes.withUnsafeBytes { raw in
      guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
      defer { BIO_free(bio) }
      return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
    }
    ERR_clear_error()
    guard let key else { throw unreadable(path, "not a PEM private key") }
    guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC, EVP_PKEY_get_bits(key) == 256 else {
      EVP_PKEY_free(key)
      throw unreadable(path, "not an ECDSA P-256 key")
    }
    return key
  }

  private static func unreadable(_ path: String, _ reason: String) -> ServiceError {
    ServiceError(
      .unavailable, code: "signing_key_unreadable",
      message: "the boarding-pass signing key \(path) is unusable: \(reason)")
  }
}
