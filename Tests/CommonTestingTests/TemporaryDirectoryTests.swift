import Foundation
import Testing

@testable import CommonTesting

@Suite struct TemporaryDirectoryTests {
  @Test func directoryExistsOwnerOnly_andIsRemovedOnRelease() throws {
    var directory: TemporaryDirectory? = TemporaryDirectory()
    let path = try #require(directory?.path)
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? Int) == 0o700)
    directory = nil
    #expect(!FileManager.default.fileExists(atPath: path))
  }
}
