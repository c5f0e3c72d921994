import COpenSSL
import Common
import Foundation
import Synchronization

/// Makes offer ids tamper-evident: a search signs the text of every offer id it hands out, and
/// `book` (and every re-quote) refuses an id whose signature does not match with
/// `invalid_offer_id` (invalid input, exit 2), for flights, hotels and cars alike.
///
/// The signature is HMAC-SHA256 (RFC 2104, FIPS 198-1) through OpenSSL's `EVP_MAC`, computed over
/// the id's text without its signature (every field the id carries: kind, product, dates,
/// occupancy, quoted total and currency), truncated to its first 128 bits (RFC 2104 §5 and NIST
/// SP 800-107 allow a truncated tag of at least half the output) and written as 32 lowercase
/// hexadecimal digits, so an id stays letters, digits and `.` `_` `-` only. Tags are compared in
/// constant time (`CRYPTO_memcmp`).
///
/// The key is 256 random bits (`RAND_bytes`) kept in ``keyFileName`` in the data directory,
/// owner-only (`0600`), made on first use and shared by every process on that directory (two
/// processes creating it at once end up with the same key: the file is linked into place
/// atomically and the loser reads the winner's). The key belongs to the data directory, not to a
/// client: a server signs and verifies with the key of its own data directory, and its clients
/// never see it. An id signed by one data directory does not book in another.
///
/// - An offer id is not tied to anything that did not exist when it was made: a search in a data
///   directory that does not exist yet makes the directory (owner-only, ``DataDirectory/prepare(_:)``)
///   to save the key in it — the key file only, no store — so ids printed before the first sign-up
///   book after it, in any later command.
/// - Searches write nothing where nothing may be written: in a data directory that is read-only
///   (its owner removed the write bit, or this user may not write there) or cannot be made, ids
///   are signed with a key kept in memory for that directory by this process. They book in this
///   process once the key can be saved there, not in a later command.
/// - A key file that others may read (any group or other permission bit) is refused with
///   `offer_key_insecure`, and one that is not 32 bytes with `offer_key_unusable`; both name the
///   file and say what to do, and nothing is changed behind the user's back.
public final class OfferSigner: Sendable {
  /// The key file's name inside the data directory.
  public static let keyFileName = "offer-signing.key"
  /// Hexadecimal digits of a signature (128 bits).
  public static let signatureLength = 32

  private enum Source {
    /// The data directory and its key file.
    case file(directory: URL, path: String)
    case fixed(Data)
  }
  private let source: Source
  /// The key in use, and whether it is the saved one (else held in memory until it can be saved).
  private let keyed = Mutex<(mac: KeyedMAC, saved: Bool)?>(nil)

  /// The keys this process signs with in data directories where it could not save one yet
  /// (missing or read-only), by key file path: every signer of the process on that directory
  /// shares it, and the first that can save a key saves this one.
  private static let unsavedKeys = Mutex<[String: Data]>([:])

  /// A signer with the key of `dataDirectory/offer-signing.key`, read (or created) on first use.
  public init(dataDirectory: URL) {
    source = .file(directory: dataDirectory, path: dataDirectory.appendingPathComponent(Self.keyFileName).path)
  }

  /// A signer with the given key (at least 32 bytes).
  /// - Throws: `offer_key_unusable` for a shorter key.
  public init(key: Data) throws {
    guard key.count >= 32 else {
      throw ServiceError(.unavailable, code: "offer_key_unusable", message: "an offer signing key needs 32 bytes")
    }
    source = .fixed(key)
  }

  /// A signer with a random key made for this process and kept in memory: ids it signs book only
  /// in this process. For engines without a data directory (tests, benchmarks, previews).
  public static let processLocal: OfferSigner = {
    // RAND_bytes fails only without any entropy source; the system generator (getrandom) then.
    var generator = SystemRandomNumberGenerator()
    let key = (try? Crypto.randomBytes(32)) ?? Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    return OfferSigner(source: .fixed(key))
  }()

  private init(source: Source) { self.source = source }

  /// The signature of `payload` (the text of an id without its signature): 32 lowercase hex digits.
  /// - Throws: `offer_key_insecure`, `offer_key_unusable` (the key file), `crypto_failed`.
  public func signature(of payload: String) throws -> String {
    try mac().tag(payload)
  }

  /// The signature of the UTF-8 bytes `payload` (what ``signature(of:)`` signs for their text):
  /// for engines that write an id's text as bytes (``FlightOfferPayload``).
  func signature(ofUTF8 payload: [UInt8]) throws -> String {
    try mac().tag(payload)
  }

  /// Whether `signature` is the signature of `payload` (constant-time comparison).
  /// - Throws: as ``signature(of:)`` when the key cannot be read.
  public func isValid(_ signature: String, for payload: String) throws -> Bool {
    let expected = try self.signature(of: payload)
    let given = Array(signature.utf8)
    let wanted = Array(expected.utf8)
    guard given.count == wanted.count else { return false }
    return given.withUnsafeBytes { a in
      wanted.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 }
    }
  }

  /// Throws `invalid_offer_id` (invalid input, exit 2) unless `signature` signs `payload`.
  /// - Parameters:
  ///   - id: the whole id as given, for the message.
  ///   - search: the command that makes such ids (`hotel search`), for the message.
  public func verify(_ signature: String, for payload: String, id: String, search: String) throws {
    guard try isValid(signature, for: payload) else {
      throw ServiceError.invalid(
        "invalid_offer_id",
        "offer id \(EchoedInput.quoted(id)) was altered or made elsewhere: its signature does not match what it "
          + "quotes (offer ids are signed by the data directory that searched, and a search in a read-only "
          + "directory signs for its own process only); nothing was booked: use an id printed by "
          + "'\(search)' with this data directory")
    }
  }

  /// The key check value of the data directory's key (``SharedKeys``): HMAC-SHA256 of a fixed
  /// label under the key, which tells keys apart and reveals nothing of them. The key is made
  /// now if missing, and must be saved.
  /// - Throws: `offer_key_unusable` when the key cannot be saved in the data directory (an
  ///   instance sharing a database must sign with the key every instance has); as ``signature(of:)``.
  func keyCheckValue() throws -> String {
    if case .file(let directory, let path) = source {
      let (_, saved) = try Self.loadOrCreateKey(path, directory: directory)
      guard saved else { throw Self.unusable(path, "it cannot be saved in \(directory.path)") }
    }
    return try mac().tag(SharedKeys.checkLabel)
  }

  private func mac() throws -> KeyedMAC {
    if let ready = keyed.withLock({ $0 }), ready.saved { return ready.mac }
    switch source {
    case .fixed(let key):
      let made = try KeyedMAC(key: key)
      keyed.withLock { $0 = (made, true) }
      return made
    case .file(let directory, let path):
      let (key, saved) = try Self.loadOrCreateKey(path, directory: directory)
      if let ready = keyed.withLock({ $0 }), ready.saved == saved, ready.mac.key == key { return ready.mac }
      let made = try KeyedMAC(key: key)
      keyed.withLock { $0 = (made, saved) }
      return made
    }
  }

  // MARK: The key file

  /// The key of the data directory: read from `path`; else, when the directory exists and may be
  /// written, made (the key this process already signed with there, or 32 new random bytes) and
  /// saved owner-only; else this process's unsaved key for it. `saved` tells which.
  static func loadOrCreateKey(_ path: String, directory: URL) throws -> (key: Data, saved: Bool) {
    if let existing = try readKey(path) { return (existing, true) }
    var status = DataDirectory.status(of: directory)
    if !status.exists, (try? DataDirectory.prepare(directory)) != nil {
      // A data directory that does not exist yet is made (owner-only) to hold the key, so ids
      // signed before the first sign-up still book after it, in any process.
      status = DataDirectory.status(of: directory)
    }
    guard status.exists, status.isDirectory, status.canWrite, !status.ownerMadeReadOnly else {
      return (
        try unsavedKeys.withLock { keys in
          if let key = keys[path] { return key }
          let key = try Crypto.randomBytes(32)
          keys[path] = key
          return key
        }, false
      )
    }
    let key = try unsavedKeys.withLock { $0[path] } ?? Crypto.randomBytes(32)
    let temporary = path + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw unusable(path, String(cString: strerror(errno))) }
    let written = key.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
    fsync(fd)
    _ = Foundation.close(fd)
    defer { unlink(temporary) }
    guard written == 32 else { throw unusable(path, "it could not be written in full") }
    if link(temporary, path) != 0 && errno != EEXIST { throw unusable(path, String(cString: strerror(errno))) }
    guard let stored = try readKey(path) else { throw unusable(path, "it vanished while being made") }
    _ = unsavedKeys.withLock { $0.removeValue(forKey: path) }
    return (stored, true)
  }

  /// The key in `path`, nil when there is no such file.
  private static func readKey(_ path: String) throws -> Data? {
    var info = stat()
    guard stat(path, &info) == 0 else {
      // No such file, or a file where a directory of the path should be (no key there either).
      if errno == ENOENT || errno == ENOTDIR { return nil }
      throw unusable(path, String(cString: strerror(errno)))
    }
    let mode = info.st_mode & 0o777
    if mode & 0o077 != 0 {
      throw ServiceError(
        .unavailable, code: "offer_key_insecure",
        message: "the offer signing key \(path) may be read by others (mode \(String(mode, radix: 8))): anyone who "
          + "reads it can forge offer ids. Make it owner-only (chmod 600 \(path)), or move it away to have a new "
          + "key made (offer ids printed before then stop working: search again)")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw unusable(path, "it cannot be read")
    }
    guard data.count == 32 else { throw unusable(path, "it holds \(data.count) bytes, not a 32-byte key") }
    return data
  }

  private static func unusable(_ path: String, _ reason: String) -> ServiceError {
    ServiceError(
      .unavailable, code: "offer_key_unusable",
      message: "the offer signing key \(path) is unusable: \(reason). Move it away to have a new one made "
        + "(offer ids printed before then stop working: search again)")
  }
}

/// HMAC-SHA256 keyed once: each tag works on a duplicate of the keyed context (OpenSSL keeps
/// the inner and outer digest states in it), so a tag costs two short SHA-256 runs and no key
/// set-up. Finished contexts are re-initialised with the same key (`EVP_MAC_init` without a key
/// restores the keyed state) and kept for the next tag, instead of duplicating and freeing one
/// per tag (a search signs up to 50 offer ids in a row).
final class KeyedMAC: @unchecked Sendable {
  /// The key (to tell whether a cached context is still the key of the directory).
  let key: Data
  private let mac: OpaquePointer
  /// Used only under `lock` (duplicated, never updated).
  private let template: OpaquePointer
  /// Keyed contexts ready for a tag (under `lock`); at most ``spareLimit``.
  private var spares: [OpaquePointer] = []
  private static let spareLimit = 8
  private let lock = NSLock()

  init(key: Data) throws {
    guard let mac = EVP_MAC_fetch(nil, "HMAC", nil) else { throw Crypto.failure("EVP_MAC_fetch(HMAC)") }
    guard let context = EVP_MAC_CTX_new(mac) else {
      EVP_MAC_free(mac)
      throw Crypto.failure("EVP_MAC_CTX_new")
    }
    var digest = Array("SHA256".utf8CString)
    let ready = digest.withUnsafeMutableBufferPointer { name in
      var params = [
        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, name.baseAddress, 0), OSSL_PARAM_construct_end(),
      ]
      return key.withUnsafeBytes {
        EVP_MAC_init(context, $0.bindMemory(to: UInt8.self).baseAddress, $0.count, &params)
      }
    }
    guard ready == 1 else {
      EVP_MAC_CTX_free(context)
      EVP_MAC_free(mac)
      throw Crypto.failure("EVP_MAC_init(HMAC-SHA256)")
    }
    self.mac = mac
    self.template = context
    self.key = key
  }

  deinit {
    for context in spares { EVP_MAC_CTX_free(context) }
    EVP_MAC_CTX_free(template)
    EVP_MAC_free(mac)
  }

  /// The first 16 bytes of HMAC-SHA256(key, the UTF-8 bytes of `text`), as 32 lowercase hex digits.
  func tag(_ text: String) throws -> String { try tag(Array(text.utf8)) }

  /// The first 16 bytes of HMAC-SHA256(key, payload), as 32 lowercase hex digits.
  func tag(_ payload: [UInt8]) throws -> String {
    guard let context = lock.withLock({ spares.popLast() ?? EVP_MAC_CTX_dup(template) }) else {
      throw Crypto.failure("EVP_MAC_CTX_dup")
    }
    var output = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
    var length = 0
    let ok = withUnsafeMutableBytes(of: &output) { digest in
      payload.withUnsafeBufferPointer { EVP_MAC_update(context, $0.baseAddress, $0.count) } == 1
        && EVP_MAC_final(context, digest.bindMemory(to: UInt8.self).baseAddress, &length, 32) == 1
    }
    // Back to the keyed state for the next tag; a context that cannot be reset is freed.
    let kept =
      EVP_MAC_init(context, nil, 0, nil) == 1
      && lock.withLock { () -> Bool in
        guard spares.count < Self.spareLimit else { return false }
        spares.append(context)
        return true
      }
    if !kept { EVP_MAC_CTX_free(context) }
    guard ok, length == 32 else { throw Crypto.failure("HMAC-SHA256") }
    return withUnsafeBytes(of: &output) { digest in
      let hex: StaticString = "0123456789abcdef"
      return String(unsafeUninitializedCapacity: 32) { text in
        for index in 0..<16 {
          let byte = digest[index]
          text[2 * index] = hex.utf8Start[Int(byte >> 4)]
          text[2 * index + 1] = hex.utf8Start[Int(byte & 0xf)]
        }
        return 32
      }
    }
  }
}
