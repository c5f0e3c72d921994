import CommonTesting
import Foundation
import Testing

@testable import Common

@Suite struct SessionFileTests {
  @Test func missingFile_readsAsSignedOut() throws {
    let directory = TemporaryDirectory()
    #expect(try SessionFile(dataDirectory: directory.url).read() == nil)
  }

  @Test func write_thenRead_isOwnerOnly() throws {
    let directory = TemporaryDirectory()
    let file = SessionFile(dataDirectory: directory.url.appendingPathComponent("nested"))
    try file.write("abc123")
    #expect(try file.read() == "abc123")
    let attributes = try FileManager.default.attributesOfItem(atPath: file.url.path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    let directoryAttributes = try FileManager.default.attributesOfItem(
      atPath: file.url.deletingLastPathComponent().path)
    #expect((directoryAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    try file.write("def456")
    #expect(try file.read() == "def456")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: file.url.deletingLastPathComponent().path)
    #expect(leftovers == ["session"])
  }

  @Test func delete_forgetsAndIsIdempotent() throws {
    let directory = TemporaryDirectory()
    let file = SessionFile(dataDirectory: directory.url)
    try file.write("abc123")
    try file.delete()
    #expect(try file.read() == nil)
    try file.delete()
  }

  @Test func garbage_isAClearError() throws {
    let directory = TemporaryDirectory()
    let file = SessionFile(dataDirectory: directory.url)
    try Data([0xFF, 0xFE, 0x00]).write(to: file.url)
    #expect {
      try file.read()
    } throws: { error in
      (error as? ServiceError)?.code == "session_file_unreadable"
    }
    try Data("two words\n".utf8).write(to: file.url)
    #expect(throws: ServiceError.self) { try file.read() }
  }

  @Test func implausibleToken_isRefusedAndNothingIsWritten() throws {
    let directory = TemporaryDirectory()
    let file = SessionFile(dataDirectory: directory.url)
    #expect(throws: ServiceError.self) { try file.write("has space") }
    #expect(throws: ServiceError.self) { try file.write("") }
    #expect(!FileManager.default.fileExists(atPath: file.url.path))
  }
}
