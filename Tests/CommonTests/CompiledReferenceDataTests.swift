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

/// `Shared/openflights/carrier_changes.csv` as the compiler applies it.
@Suite struct CarrierChangesTests {
  private func carriers(_ changes: String) throws -> [Carrier] {
    let sources = [(path: "openflights/carrier_changes.csv", data: Data(changes.utf8))]
    return try ReferenceDataCompiler.carriers(
      idsOfCode: ["US": ["5265": 3], "AA": ["24": 5, "99": 1], "VY": ["2439": 2], "AB": ["214": 1]],
      airlineNames: [
        "5265": "US Airways", "24": "American Airlines", "99": "Other", "2439": "Formosa Airlines",
        "214": "Air Berlin",
      ],
      sources: sources)
  }

  let header = "iata,name_in_openflights,change,successor_iata,current_name,date,source\n"

  @Test func mergesCeasesAndCorrections() throws {
    let list = try carriers(
      header + "US,US Airways,merged,AA,American Airlines,2015-10-17,https://en.wikipedia.org/wiki/US_Airways\n"
        + "AB,Air Berlin,ceased,,,2017-10-27,https://en.wikipedia.org/wiki/Air_Berlin\n"
        + "VY,Formosa Airlines,corrected,VY,Vueling,,https://en.wikipedia.org/wiki/Vueling\n"
        + "EW,Germanwings,merged,XX,Nobody Air,2015,https://example.org\n")
    let byCode = Dictionary(uniqueKeysWithValues: list.map { ($0.code, $0) })
    #expect(
      byCode["US"]
        == Carrier(
          code: "US", name: "US Airways", status: .merged, successor: "AA", since: "2015-10-17",
          source: "https://en.wikipedia.org/wiki/US_Airways"))
    #expect(byCode["US"]?.flyingCode == "AA")
    #expect(byCode["AB"]?.status == .ceased && byCode["AB"]?.flyingCode == nil)
    #expect(byCode["VY"]?.name == "Vueling" && byCode["VY"]?.status == .operating)
    #expect(byCode["AA"]?.name == "American Airlines")  // the airline most of its routes point to
    #expect(byCode["XX"]?.name == "Nobody Air")  // a successor without routes of its own
    #expect(list.map(\.code) == list.map(\.code).sorted())
  }

  @Test func malformedChanges_areRefused() {
    for row in [
      "US,US Airways,bought,AA,American Airlines,2015,https://x\n",  // unknown change
      "US,US Airways,merged,AB,Air Berlin,2015,https://x\nAB,Air Berlin,ceased,,,2017,https://x\n",  // successor gone
      "VY,Formosa Airlines,corrected,VV,Vueling,,https://x\n",  // a correction keeps the code
      "US,US Airways,merged,AA,American,2015,https://x\nUS,US Airways,ceased,,,2015,https://x\n",  // twice
    ] {
      #expect(throws: SharedResources.Failure.self) { try carriers(header + row) }
    }
  }
}
