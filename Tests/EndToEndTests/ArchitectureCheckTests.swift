import CommonTesting
import Foundation
import Testing

/// `Scripts/check-architecture` passes on the tree and fails, naming each rule, on a copy of the
/// tree with violations planted in it.
@Suite struct ArchitectureCheckTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  func check(_ root: URL) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = Self.root.appendingPathComponent("Scripts/check-architecture")
    process.arguments = [root.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  @Test func passesOnTheTree() throws {
    let result = try check(Self.root)
    #expect(result.status == 0, "\(result.output)")
  }

  @Test func failsOnAPlantedViolationOfEachRule() throws {
    let copy = TemporaryDirectory(prefix: "arch-bad-tree")
    let fileManager = FileManager.default
    for item in ["Package.swift", "Sources", "Apps", "Tests"] {
      try fileManager.copyItem(at: Self.root.appendingPathComponent(item), to: copy.url.appendingPathComponent(item))
    }
    func plant(_ path: String, _ text: String) throws {
      try Data(text.utf8).write(to: copy.url.appendingPathComponent(path))
    }
    try plant("Sources/Booking/Planted.swift", "import Hotel\nimport Backend\nimport Remote\nimport Server\n")
    try plant("Sources/Remote/Planted.swift", "import Backend\nimport Server\n")
    try plant("Sources/CommonUI/Planted.swift", "import Remote\n")
    try plant("Sources/Common/Planted.swift", "import CommonUI\n")
    // Spelled in two pieces so that this file itself does not declare one.
    let delegateName = "ProfileEditor" + "Delegate"
    try plant("Sources/Account/Planted\(delegateName).swift", "protocol \(delegateName): AnyObject {}\n")
    try plant("Apps/AccountApp/Planted.swift", "import Reactive\n" + String(repeating: "// filler\n", count: 130))
    let result = try check(copy.url)
    #expect(result.status == 1)
    #expect(result.output.contains("Sources/Booking/Planted.swift:1: feature Booking imports Hotel"))
    #expect(result.output.contains("Sources/Booking/Planted.swift:2: feature Booking imports Backend"))
    #expect(result.output.contains("Sources/Booking/Planted.swift:3: feature Booking imports Remote"))
    #expect(result.output.contains("Sources/Booking/Planted.swift:4: feature Booking imports Server"))
    #expect(result.output.contains("Sources/Remote/Planted.swift:1: Remote imports Backend"))
    #expect(result.output.contains("Sources/Remote/Planted.swift:2: Remote imports Server"))
    #expect(result.output.contains("Sources/CommonUI/Planted.swift:1: CommonUI imports Remote: only the apps"))
    #expect(result.output.contains("Sources/Common/Planted.swift:1: Common imports UI target CommonUI"))
    #expect(result.output.contains("Sources/Account/Planted\(delegateName).swift:1: delegate protocol \(delegateName)"))
    #expect(result.output.contains("Apps/AccountApp/Planted.swift:1: AccountApp imports Reactive, which is not among"))
    #expect(result.output.contains("Apps/AccountApp:1: app AccountApp has"))
  }
}
