import CommonUI
import Foundation

/// Text snapshots of views: renders a view through the test backend's text form and compares it
/// with a checked-in file.
///
/// Files live beside the test file: `<test dir>/__Snapshots__/<TestFileName>/<name>.txt`.
/// - A missing snapshot is recorded, and the assertion fails once so that the new file is noticed
///   (run again: it passes).
/// - **Re-record** after an intended change: run the tests with `RECORD_SNAPSHOTS=1`
///   (e.g. `RECORD_SNAPSHOTS=1 swift test --skip-build --filter '^CommonUITests\.'`); every compared
///   snapshot is rewritten and reported as a failure; review the diff with `git diff`, then run
///   again without the variable.
///
/// ```swift
/// @Test func list() throws {
///   try assertSnapshot(of: List(["a", "b"], state: .init(count: 2)), width: 20, height: 4, named: "list")
/// }
/// ```
/// A failure is a thrown ``SnapshotMismatch`` whose description shows both texts line by line;
/// Swift Testing and XCTest both report thrown errors as test failures.
public func assertSnapshot(
  of view: some Widget, width: Int, height: Int, named name: String, theme: Theme = .monochrome,
  filePath: StaticString = #filePath
) throws {
  let text = view.rendered(width: width, height: height, theme: theme).plainText
  try assertSnapshot(text, named: name, filePath: filePath)
}

/// Compares `text` with the snapshot `name` (see ``assertSnapshot(of:width:height:named:theme:filePath:)``).
public func assertSnapshot(_ text: String, named name: String, filePath: StaticString = #filePath) throws {
  let testFile = URL(fileURLWithPath: "\(filePath)")
  let directory = testFile.deletingLastPathComponent().appendingPathComponent("__Snapshots__")
    .appendingPathComponent(testFile.deletingPathExtension().lastPathComponent)
  let file = directory.appendingPathComponent("\(name).txt")
  let recording = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"].map { !$0.isEmpty && $0 != "0" } ?? false
  let contents = text + "\n"
  let existing = try? String(contentsOf: file, encoding: .utf8)
  if recording || existing == nil {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try contents.write(to: file, atomically: true, encoding: .utf8)
    throw SnapshotMismatch(
      name: name, path: file.path, expected: existing, actual: contents,
      note: existing == nil ? "recorded a new snapshot; run again" : "re-recorded (RECORD_SNAPSHOTS is set)")
  }
  if existing != contents {
    throw SnapshotMismatch(name: name, path: file.path, expected: existing, actual: contents, note: nil)
  }
}

/// A snapshot that differs from its file (or was just recorded).
public struct SnapshotMismatch: Error, CustomStringConvertible {
  public var name: String
  public var path: String
  public var expected: String?
  public var actual: String
  public var note: String?

  public var description: String {
    if let note { return "snapshot \"\(name)\": \(note): \(path)" }
    let expectedLines = (expected ?? "").split(separator: "\n", omittingEmptySubsequences: false)
    let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
    var report = ["snapshot \"\(name)\" differs from \(path) (re-record with RECORD_SNAPSHOTS=1):"]
    for index in 0..<max(expectedLines.count, actualLines.count) {
      let old = index < expectedLines.count ? String(expectedLines[index]) : "<none>"
      let new = index < actualLines.count ? String(actualLines[index]) : "<none>"
      if old == new {
        report.append("   |\(new)")
      } else {
        report.append(" - |\(old)")
        report.append(" + |\(new)")
      }
    }
    return report.joined(separator: "\n")
  }
}
