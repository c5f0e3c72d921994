import CommonTesting
import Foundation
import Testing

@testable import Backend
@testable import Common

@Suite struct CryptoTests {
  @Test func scrypt_matchesRFC7914Vector() throws {
    // RFC 7914 §12, second vector: P="password", S="NaCl", N=1024, r=8, p=16, dkLen=64 (first 32 bytes).
    let key = try PasswordHasher.derive(
      "password", salt: Data("NaCl".utf8), parameters: .init(log2N: 10, r: 8, p: 16))
    #expect(Crypto.hex(key) == "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162")
  }

  @Test func passwordHash_verifiesOnlyTheRightPassword_withPerUserSalt() throws {
    let hasher = PasswordHasher(parameters: .fastForTests)
    let first = try hasher.hash("correct horse battery")
    let second = try hasher.hash("correct horse battery")
    #expect(first != second)
    #expect(first.hasPrefix("scrypt$10$8$1$"))
    #expect(try hasher.verify("correct horse battery", against: first))
    #expect(try !hasher.verify("correct horse batterY", against: first))
    #expect(try !hasher.verify("x", against: "garbage"))
    #expect(PasswordHasher().needsRehash(first))
  }

  @Test func sha256_andConstantTimeCompare() {
    #expect(
      Crypto.hex(Crypto.sha256(Data("abc".utf8)))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(Crypto.constantTimeEqual(Data([1, 2]), Data([1, 2])))
    #expect(!Crypto.constantTimeEqual(Data([1, 2]), Data([1, 3])))
    #expect(!Crypto.constantTimeEqual(Data([1]), Data([1, 3])))
  }

  @Test func vault_sealsAndOpens_andRejectsTamperingOrOtherContext() throws {
    let dir = TemporaryDirectory()
    let vault = Vault(dataDirectory: dir.url)
    let keyPath = dir.url.appendingPathComponent(Vault.keyFileName).path
    #expect(!FileManager.default.fileExists(atPath: keyPath), "the key is made on first use, not on open")
    let box = try vault.seal(Data("4242424242424242".utf8), context: "card_1")
    #expect(!String(decoding: box, as: UTF8.self).contains("4242"))
    #expect(try vault.unseal(box, context: "card_1") == Data("4242424242424242".utf8))
    var altered = box
    altered[altered.count - 20] ^= 1
    #expect(throws: ServiceError.self) { try vault.unseal(altered, context: "card_1") }
    #expect(throws: ServiceError.self) { try vault.unseal(box, context: "card_2") }
    // Same key file on the next open; the key file is owner-only.
    let reopened = Vault(dataDirectory: dir.url)
    #expect(try reopened.unseal(box, context: "card_1") == Data("4242424242424242".utf8))
    let attributes = try FileManager.default.attributesOfItem(
      atPath: dir.url.appendingPathComponent(Vault.keyFileName).path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
  }

  @Test func vault_refusesAKeyFileOfTheWrongSize() throws {
    let dir = TemporaryDirectory()
    try Data("short".utf8).write(to: dir.url.appendingPathComponent(Vault.keyFileName))
    #expect {
      _ = try Vault(dataDirectory: dir.url).seal(Data("x".utf8), context: "c")
    } throws: { ($0 as? ServiceError)?.code == "vault_unreadable" }
  }

  @Test func randomString_usesOnlyTheAlphabet() throws {
    let text = try Crypto.randomString(length: 200, alphabet: Array("AB2"))
    #expect(text.count == 200)
    #expect(Set(text).isSubset(of: ["A", "B", "2"]))
  }
}
