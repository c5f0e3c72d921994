import CommonTesting
import Foundation
import Testing

@testable import Common

/// The data directory's permissions are the user's: checked and reported, never changed. The
/// decisions are tested on injected `stat`/`access` results (so they hold as root, whom the kernel
/// lets read and write anything), the disk behaviour on real directories.
@Suite struct DataDirectoryTests {
  private func mode(_ url: URL) throws -> Int {
    try #require((FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue)
  }

  // MARK: Decisions (injected status)

  @Test func check_ownerMadeItReadOnly_readsGoOn_writesAreRefusedEvenWhenTheKernelWouldAllowThem() throws {
    // As root: access(2) says writable, but the owner removed their own write bit (0500).
    let status = DataDirectory.Status(exists: true, mode: 0o500, ownerUID: 1000, ownerName: "ada", canWrite: true)
    try DataDirectory.check(status, for: .read, path: "/home/ada/.local/share/travel")
    do {
      try DataDirectory.check(status, for: .write, path: "/home/ada/.local/share/travel")
      Issue.record("a write was allowed in a directory its owner made read-only")
    } catch {
      #expect(error.code == "data_dir_read_only")
      #expect(error.cliError.exitStatus == 1)
      #expect(error.message.contains("/home/ada/.local/share/travel"))
      #expect(error.message.contains("r-x------, 0500"))
      #expect(error.message.contains("chmod u+w"))
      #expect(error.message.contains("searches still work"))
      #expect(!error.message.contains("try again"))
    }
  }

  @Test func check_anotherUsersUnreadableDirectory_isAPermanentFaultNamingTheOwner() {
    let status = DataDirectory.Status(
      exists: true, mode: 0o700, ownerUID: 1001, ownerName: "bob", canRead: false, canWrite: false)
    for access in [DataDirectory.Access.read, .write] {
      do {
        try DataDirectory.check(status, for: access, path: "/srv/bob/travel")
        Issue.record("another user's 0700 directory was accepted")
      } catch {
        #expect(error.code == "data_dir_unreadable")
        #expect(error.message.contains("/srv/bob/travel"))
        #expect(error.message.contains("user bob (uid 1001)"))
        #expect(error.message.contains("--data-dir"))
        #expect(!error.message.contains("try again"))
      }
    }
  }

  @Test func check_notWritableByThisUser_refusesWrites_only() throws {
    let status = DataDirectory.Status(exists: true, mode: 0o755, ownerUID: 1001, ownerName: "bob", canWrite: false)
    try DataDirectory.check(status, for: .read, path: "/srv/shared")
    #expect(throws: ServiceError.self) { try DataDirectory.check(status, for: .write, path: "/srv/shared") }
  }

  @Test func check_aFileOrNothing() throws {
    try DataDirectory.check(.missing, for: .read, path: "/nowhere")
    try DataDirectory.check(.missing, for: .write, path: "/nowhere")
    let file = DataDirectory.Status(exists: true, isDirectory: false, mode: 0o644)
    #expect { try DataDirectory.check(file, for: .read, path: "/etc/hosts") } throws: {
      ($0 as? ServiceError)?.code == "data_dir_unusable"
    }
  }

  @Test func permissionWarning_forGroupOrWorldAccess_only() throws {
    let open = DataDirectory.Status(exists: true, mode: 0o755)
    let warning = try #require(DataDirectory.permissionWarning(open, path: "/d"))
    #expect(warning.contains("chmod 700 /d"))
    #expect(warning.contains("rwxr-xr-x, 0755"))
    #expect(DataDirectory.permissionWarning(DataDirectory.Status(exists: true, mode: 0o700), path: "/d") == nil)
    #expect(DataDirectory.permissionWarning(DataDirectory.Status(exists: true, mode: 0o500), path: "/d") == nil)
    #expect(DataDirectory.permissionWarning(.missing, path: "/d") == nil)
  }

  // MARK: On disk

  @Test func status_readsModeOwnerAndAccess() throws {
    let directory = TemporaryDirectory()
    let status = DataDirectory.status(of: directory.url)
    #expect(status.exists && status.isDirectory)
    #expect(status.mode == 0o700)
    #expect(status.ownerUID == getuid())
    #expect(status.canRead && status.canWrite)
    #expect(!DataDirectory.status(of: directory.url.appendingPathComponent("missing")).exists)
  }

  @Test func prepare_createsAMissingDirectoryOwnerOnly() throws {
    let directory = TemporaryDirectory()
    let data = directory.url.appendingPathComponent("a/b/travel")
    try DataDirectory.prepare(data)
    #expect(try mode(data) == 0o700)
  }

  @Test func prepare_neverChangesTheModeOfAnExistingDirectory() throws {
    let directory = TemporaryDirectory()
    chmod(directory.path, 0o750)
    try DataDirectory.prepare(directory.url)
    #expect(try mode(directory.url) == 0o750)
  }

  @Test func prepare_aReadOnlyDirectoryStaysReadOnly_andTheWriteIsRefused() throws {
    let directory = TemporaryDirectory()
    chmod(directory.path, 0o500)
    defer { chmod(directory.path, 0o700) }
    #expect { try DataDirectory.prepare(directory.url) } throws: {
      ($0 as? ServiceError)?.code == "data_dir_read_only"
    }
    #expect(try mode(directory.url) == 0o500)
  }

  @Test func prepare_underAFile_namesIt() throws {
    let directory = TemporaryDirectory()
    let file = directory.url.appendingPathComponent("plain")
    try Data("x".utf8).write(to: file)
    do {
      try DataDirectory.prepare(file.appendingPathComponent("travel"))
      Issue.record("created a directory under a file")
    } catch {
      #expect(error.code == "data_dir_unusable")
      #expect(error.message.contains("\(file.path) is a file, not a directory"))
      #expect(!error.message.contains("NSCocoaErrorDomain"))
    }
  }
}

@Suite struct ErrorTextTests {
  @Test func foundationErrors_becomePlainWords() {
    let cocoa = NSError(domain: NSCocoaErrorDomain, code: 512, userInfo: nil)
    #expect(!ErrorText.reason(of: cocoa).contains("NSCocoaErrorDomain"))
    #expect(ErrorText.reason(of: CocoaError(.fileWriteNoPermission)) == "permission denied")
    #expect(ErrorText.reason(of: CocoaError(.fileWriteOutOfSpace)) == "no space left on device")
    let wrapped = NSError(
      domain: NSCocoaErrorDomain, code: 512,
      userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOENT))])
    #expect(ErrorText.reason(of: wrapped) == "no such file or directory")
    #expect(ErrorText.reason(of: POSIXError(.EACCES)) == "permission denied")
    #expect(ErrorText.reason(of: ServiceError.invalid("x", "our own words")) == "our own words")
    struct Opaque: Error {}
    #expect(ErrorText.reason(of: Opaque()) == "unexpected failure (Opaque)")
  }

  @Test func decodingErrors_nameTheField() throws {
    struct Shape: Decodable { var size: Int }
    do {
      _ = try JSONDecoder().decode(Shape.self, from: Data("{\"size\": \"big\"}".utf8))
      Issue.record("decoded")
    } catch {
      #expect(ErrorText.reason(of: error) == "wrong value at size")
    }
  }
}

@Suite struct ExportFileTests {
  @Test func directoryTarget_writesDefaultNameInside() throws {
    let directory = TemporaryDirectory()
    let written = try ExportFile.write(Data("BEGIN".utf8), to: directory.path, defaultName: "res_1.ics")
    #expect(written.path == directory.url.appendingPathComponent("res_1.ics").path)
    #expect(FileManager.default.contents(atPath: written.path) == Data("BEGIN".utf8))
    let slash = try ExportFile.write(Data("AGAIN".utf8), to: directory.path + "/", defaultName: "res_1.ics")
    #expect(slash.path == written.path)
    #expect(FileManager.default.contents(atPath: written.path) == Data("AGAIN".utf8))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["res_1.ics"])
  }

  @Test func relativeTargets_startInTheWorkingDirectory() throws {
    let directory = TemporaryDirectory()
    let written = try ExportFile.write(
      Data("x".utf8), to: "trip.ics", defaultName: "res_1.ics", workingDirectory: directory.url)
    #expect(written.path == directory.url.appendingPathComponent("trip.ics").path)
  }

  @Test func missingDirectory_isNamed_andNothingIsWritten() throws {
    let directory = TemporaryDirectory()
    let missing = directory.url.appendingPathComponent("Calendars")
    for target in [missing.path + "/", missing.appendingPathComponent("trip.ics").path] {
      do {
        try ExportFile.write(Data("x".utf8), to: target, defaultName: "res_1.ics")
        Issue.record("wrote into a missing directory")
      } catch {
        #expect(error.code == "no_such_directory")
        #expect(error.cliError.exitStatus == 2)
        #expect(error.message.contains("the directory \(missing.path) does not exist"))
        #expect(!error.message.contains("NSCocoaErrorDomain"))
      }
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
  }

  @Test func parentThatIsAFile_isNamed() throws {
    let directory = TemporaryDirectory()
    let file = directory.url.appendingPathComponent("notes")
    try Data().write(to: file)
    #expect {
      try ExportFile.write(Data("x".utf8), to: file.path + "/trip.ics", defaultName: "res_1.ics")
    } throws: {
      ($0 as? ServiceError)?.code == "export_failed"
        && ($0 as? ServiceError)?.message.contains("\(file.path) is a file, not a directory") == true
    }
  }
}
