import Foundation
import Testing

@testable import Common

/// The committed `Shared/compiled/reference-data.bin` must be exactly what the compiler makes of
/// the CSVs. Re-record with `Scripts/compile-data` (this test with `RECORD_DATA=1`).
@Suite struct CompiledReferenceDataTests {
  @Test func committedFileMatchesTheCSVs() throws {
    let shared = try SharedResources.directory()
    let compiled = try ReferenceDataCompiler.compile(sharedDirectory: shared)
    let url = try SharedResources.url(ReferenceDataCompiler.compiledPath)
    if ProcessInfo.processInfo.environment["RECORD_DATA"] == "1" {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try compiled.write(to: url, options: .atomic)
    }
    let committed = try #require(
      FileManager.default.contents(atPath: url.path), "missing \(url.path): run Scripts/compile-data")
    let header = try ReferenceDataCompiler.header(of: committed)
    #expect(header.formatVersion == ReferenceDataCompiler.formatVersion, "stale format: run Scripts/compile-data")
    #expect(
      header.sourceChecksum == (try ReferenceDataCompiler.sourceChecksum(sharedDirectory: shared)),
      "the CSVs changed since the file was compiled: run Scripts/compile-data")
    #expect(committed == compiled, "the compiled file is stale: run Scripts/compile-data")
  }

  @Test func compilingTwiceGivesTheSameBytes() throws {
    let shared = try SharedResources.directory()
    #expect(
      try ReferenceDataCompiler.compile(sharedDirectory: shared)
        == (try ReferenceDataCompiler.compile(sharedDirectory: shared)))
  }

  @Test func corruptOrForeignFilesAreRejectedWithoutCrashing() throws {
    let data = try SharedResources.data(ReferenceDataCompiler.compiledPath)
    #expect(throws: SharedResources.Failure.self) { try ReferenceData(compiled: Data("hello".utf8)) }
    #expect(throws: SharedResources.Failure.self) { try ReferenceData(compiled: data.prefix(data.count / 2)) }
    var wrongVersion = data
    wrongVersion[8] = 99
    #expect(throws: SharedResources.Failure.self) { try ReferenceData(compiled: wrongVersion) }
    var junk = data
    for index in 20..<24 { junk[index] = 0xFF }  // the string count
    #expect(throws: SharedResources.Failure.self) { try ReferenceData(compiled: junk) }
  }
}
