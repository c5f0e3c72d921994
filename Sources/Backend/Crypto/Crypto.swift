import COpenSSL
import Common
import Foundation

/// Random bytes, digests and constant-time comparison from OpenSSL's libcrypto.
public enum Crypto {
  /// `count` bytes from OpenSSL's CSPRNG (`RAND_bytes`).
  /// - Throws: `crypto_failed` if the generator fails (it never silently returns weak bytes).
  public static func randomBytes(_ count: Int) throws -> Data {
    var bytes = Data(count: count)
    let status = bytes.withUnsafeMutableBytes { RAND_bytes($0.bindMemory(to: UInt8.self).baseAddress, Int32(count)) }
    guard status == 1 else { throw failure("RAND_bytes") }
    return bytes
  }

  /// SHA-256 of `data` (32 bytes).
  public static func sha256(_ data: Data) -> Data {
    var digest = Data(count: 32)
    var length: UInt32 = 0
    _ = data.withUnsafeBytes { input in
      digest.withUnsafeMutableBytes { output in
        EVP_Digest(
          input.baseAddress, input.count, output.bindMemory(to: UInt8.self).baseAddress, &length, EVP_sha256(), nil)
      }
    }
    return digest
  }

  /// Whether `a` and `b` are equal, in time independent of where they differ (`CRYPTO_memcmp`).
  public static func constantTimeEqual(_ a: Data, _ b: Data) -> Bool {
    guard a.count == b.count else { return false }
    if a.isEmpty { return true }
    return a.withUnsafeBytes { x in b.withUnsafeBytes { y in CRYPTO_memcmp(x.baseAddress, y.baseAddress, a.count) == 0 }
    }
  }

  /// Lowercase hexadecimal.
  public static func hex(_ data: Data) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(data.count * 2)
    for byte in data {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0xf)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Random characters from `alphabet` (uniform: rejection sampling over random bytes).
  public static func randomString(length: Int, alphabet: [Character]) throws -> String {
    precondition(!alphabet.isEmpty && alphabet.count <= 256)
    let limit = 256 - 256 % alphabet.count
    var result = ""
    while result.count < length {
      for byte in try randomBytes(length * 2) where Int(byte) < limit && result.count < length {
        result.append(alphabet[Int(byte) % alphabet.count])
      }
    }
    return result
  }

  static func failure(_ function: String) -> ServiceError {
    let code = ERR_get_error()
    return ServiceError(
      .unavailable, code: "crypto_failed", message: "\(function) failed in libcrypto (error \(code)): try again")
  }
}

/// Password hashing with scrypt (RFC 7914, OpenSSL's `EVP_PBE_scrypt`): memory-hard, a random
/// 16-byte salt per password, and the parameters stored with the hash so they can be raised later.
///
/// Stored form: `scrypt$<log2 N>$<r>$<p>$<salt, base64>$<32-byte key, base64>`.
public struct PasswordHasher: Sendable {
  /// scrypt's cost parameters: N = 2^`log2N`, block size `r`, parallelism `p`. Memory is
  /// 128 × N × r bytes (32 MiB for the default).
  public struct Parameters: Hashable, Sendable {
    public var log2N: Int
    public var r: Int
    public var p: Int
    public init(log2N: Int, r: Int, p: Int) {
      self.log2N = log2N
      self.r = r
      self.p = p
    }
    /// N = 2^15, r = 8, p = 1 (32 MiB; about 0.07–0.1 s on this machine's kind).
    public static let standard = Parameters(log2N: 15, r: 8, p: 1)
    /// N = 2^10, r = 8, p = 1: for tests only.
    public static let fastForTests = Parameters(log2N: 10, r: 8, p: 1)
  }

  public var parameters: Parameters

  public init(parameters: Parameters = .standard) {
    self.parameters = parameters
  }

  /// The stored form of `password` with a fresh random salt.
  public func hash(_ password: String) throws -> String {
    let salt = try Crypto.randomBytes(16)
    let key = try Self.derive(password, salt: salt, parameters: parameters)
    return "scrypt$\(parameters.log2N)$\(parameters.r)$\(parameters.p)$"
      + "\(salt.base64EncodedString())$\(key.base64EncodedString())"
  }

  /// Whether `password` matches `stored` (compared in constant time). A malformed `stored` is a mismatch.
  public func verify(_ password: String, against stored: String) throws -> Bool {
    let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
    guard parts.count == 6, parts[0] == "scrypt", let log2N = Int(parts[1]), let r = Int(parts[2]),
      let p = Int(parts[3]), (1...22).contains(log2N), (1...32).contains(r), (1...16).contains(p),
      let salt = Data(base64Encoded: String(parts[4])), let expected = Data(base64Encoded: String(parts[5]))
    else { return false }
    let key = try Self.derive(password, salt: salt, parameters: Parameters(log2N: log2N, r: r, p: p))
    return Crypto.constantTimeEqual(key, expected)
  }

  /// Whether `stored` was made with other parameters than ours (rehash after a successful sign-in).
  public func needsRehash(_ stored: String) -> Bool {
    !stored.hasPrefix("scrypt$\(parameters.log2N)$\(parameters.r)$\(parameters.p)$")
  }

  static func derive(_ password: String, salt: Data, parameters: Parameters) throws -> Data {
    var key = Data(count: 32)
    let n = UInt64(1) << UInt64(parameters.log2N)
    let memory = 128 * n * UInt64(parameters.r) * UInt64(parameters.p) + 16 * 1024 * 1024
    let passwordBytes = Array(password.utf8)
    let status = passwordBytes.withUnsafeBufferPointer { pass in
      salt.withUnsafeBytes { saltBytes in
        key.withUnsafeMutableBytes { out in
          pass.withMemoryRebound(to: CChar.self) { passChars in
            EVP_PBE_scrypt(
              passChars.baseAddress, pass.count, saltBytes.bindMemory(to: UInt8.self).baseAddress, salt.count,
              n, UInt64(parameters.r), UInt64(parameters.p), memory, out.bindMemory(to: UInt8.self).baseAddress, 32)
          }
        }
      }
    }
    guard status == 1 else { throw Crypto.failure("EVP_PBE_scrypt") }
    return key
  }
}
