import COpenSSL
import Common
import Foundation
import Synchronization

/// Encrypts secrets at rest (card numbers) with AES-256-GCM under a 256-bit key kept in
/// `vault.key` in the data directory (owner-only `0600`, created on first use from `RAND_bytes`;
/// opening the vault reads or creates nothing until a card is sealed or opened).
///
/// A sealed box is `0x01 | 12-byte random nonce | ciphertext | 16-byte tag`; `context` (for example
/// the card id) is authenticated as associated data, so a box moved to another row fails to open.
public final class Vault: Sendable {
  /// The key file name inside the data directory.
  public static let keyFileName = "vault.key"
  private let source: Source
  private let loaded = Mutex<Data?>(nil)

  private enum Source {
    case file(String)
    case fixed(Data)
  }

  /// A vault with the key of `dataDirectory/vault.key`, read (or created, if missing) on first use.
  /// Two processes creating it at once end up with the same key (the file is linked into place
  /// atomically; the loser reads the winner's). ``seal(_:context:)`` and ``unseal(_:context:)``
  /// throw `vault_unreadable` when the key file exists but is not 32 bytes or cannot be read.
  public init(dataDirectory: URL) {
    source = .file(dataDirectory.appendingPathComponent(Self.keyFileName).path)
  }

  /// A vault with the given 32-byte key (tests).
  public init(key: Data) throws {
    guard key.count == 32 else {
      throw ServiceError(.unavailable, code: "vault_unreadable", message: "the vault key must be 32 bytes")
    }
    source = .fixed(key)
  }

  /// The key check value of the vault key (``SharedKeys``): HMAC-SHA256 of a fixed label under
  /// the key, which tells keys apart and reveals nothing of them. Reads or makes the key now.
  /// - Throws: `vault_unreadable`, `crypto_failed`.
  func keyCheckValue() throws -> String {
    try KeyedMAC(key: key()).tag(SharedKeys.checkLabel)
  }

  private func key() throws -> Data {
    switch source {
    case .fixed(let key): return key
    case .file(let path):
      if let key = loaded.withLock({ $0 }) { return key }
      let key = try Self.loadOrCreateKey(path)
      loaded.withLock { $0 = key }
      return key
    }
  }

  static func loadOrCreateKey(_ path: String) throws -> Data {
    if let existing = FileManager.default.contents(atPath: path) { return try checked(existing, path) }
    let key = try Crypto.randomBytes(32)
    let temporary = path + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw unreadable(path, String(cString: strerror(errno))) }
    let written = key.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
    fsync(fd)
    _ = Foundation.close(fd)
    defer { unlink(temporary) }
    guard written == 32 else { throw unreadable(path, "short write") }
    if link(temporary, path) != 0 && errno != EEXIST { throw unreadable(path, String(cString: strerror(errno))) }
    guard let stored = FileManager.default.contents(atPath: path) else { throw unreadable(path, "cannot read") }
    return try checked(stored, path)
  }

  private static func checked(_ key: Data, _ path: String) throws -> Data {
    guard key.count == 32 else { throw unreadable(path, "it holds \(key.count) bytes, not a 32-byte key") }
    return key
  }

  private static func unreadable(_ path: String, _ reason: String) -> ServiceError {
    ServiceError(.unavailable, code: "vault_unreadable", message: "the card vault key \(path) is unusable: \(reason)")
  }

  /// Encrypts `plaintext`, binding it to `context`.
  public func seal(_ plaintext: Data, context: String) throws -> Data {
    let key = try key()
    let nonce = try Crypto.randomBytes(12)
    guard let ctx = EVP_CIPHER_CTX_new() else { throw Crypto.failure("EVP_CIPHER_CTX_new") }
    defer { EVP_CIPHER_CTX_free(ctx) }
    var ciphertext = Data(count: plaintext.count + 16)
    var tag = Data(count: 16)
    var length: Int32 = 0
    var total = 0
    let aad = Array(context.utf8)
    let ok: Bool = key.withUnsafeBytes { keyBytes in
      nonce.withUnsafeBytes { nonceBytes in
        guard EVP_EncryptInit_ex(ctx, EVP_aes_256_gcm(), nil, nil, nil) == 1,
          EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, 12, nil) == 1,
          EVP_EncryptInit_ex(
            ctx, nil, nil, keyBytes.bindMemory(to: UInt8.self).baseAddress,
            nonceBytes.bindMemory(to: UInt8.self).baseAddress) == 1,
          EVP_EncryptUpdate(ctx, nil, &length, aad, Int32(aad.count)) == 1
        else { return false }
        let updated = plaintext.withUnsafeBytes { input in
          ciphertext.withUnsafeMutableBytes { output in
            EVP_EncryptUpdate(
              ctx, output.bindMemory(to: UInt8.self).baseAddress, &length,
              input.bindMemory(to: UInt8.self).baseAddress, Int32(plaintext.count))
          }
        }
        guard updated == 1 else { return false }
        total = Int(length)
        let finished = ciphertext.withUnsafeMutableBytes { output in
          EVP_EncryptFinal_ex(ctx, output.bindMemory(to: UInt8.self).baseAddress! + total, &length)
        }
        guard finished == 1 else { return false }
        total += Int(length)
        return tag.withUnsafeMutableBytes { EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, $0.baseAddress) } == 1
      }
    }
    guard ok else { throw Crypto.failure("AES-256-GCM encrypt") }
    return Data([1]) + nonce + ciphertext.prefix(total) + tag
  }

  /// Decrypts a box made by ``seal(_:context:)`` with the same `context`.
  /// - Throws: `vault_tampered` when the box was altered, belongs to another context or key.
  public func unseal(_ box: Data, context: String) throws -> Data {
    let tampered = ServiceError(
      .unavailable, code: "vault_tampered", message: "a stored card cannot be decrypted (altered data or another key)")
    let key = try key()
    let bytes = [UInt8](box)
    guard bytes.count >= 1 + 12 + 16, bytes[0] == 1 else { throw tampered }
    let nonce = Array(bytes[1..<13])
    let ciphertext = Array(bytes[13..<(bytes.count - 16)])
    var tag = Array(bytes[(bytes.count - 16)...])
    guard let ctx = EVP_CIPHER_CTX_new() else { throw Crypto.failure("EVP_CIPHER_CTX_new") }
    defer { EVP_CIPHER_CTX_free(ctx) }
    var plaintext = [UInt8](repeating: 0, count: ciphertext.count + 16)
    var length: Int32 = 0
    let aad = Array(context.utf8)
    let ok: Bool = key.withUnsafeBytes { keyBytes in
      guard EVP_DecryptInit_ex(ctx, EVP_aes_256_gcm(), nil, nil, nil) == 1,
        EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, 12, nil) == 1,
        EVP_DecryptInit_ex(ctx, nil, nil, keyBytes.bindMemory(to: UInt8.self).baseAddress, nonce) == 1,
        EVP_DecryptUpdate(ctx, nil, &length, aad, Int32(aad.count)) == 1,
        EVP_DecryptUpdate(ctx, &plaintext, &length, ciphertext, Int32(ciphertext.count)) == 1
      else { return false }
      let produced = Int(length)
      guard EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, 16, &tag) == 1 else { return false }
      let final = plaintext.withUnsafeMutableBufferPointer {
        EVP_DecryptFinal_ex(ctx, $0.baseAddress! + produced, &length)
      }
      guard final == 1 else { return false }
      plaintext.removeSubrange((produced + Int(length))...)
      return true
    }
    guard ok else { throw tampered }
    return Data(plaintext)
  }
}
