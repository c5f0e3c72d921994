import CommonUI
import Foundation
import Testing

/// Text snapshots of views: renders a view through the test backend's text form and compares it
/// with a checked-in file.
///
/// Files live beside the test file: `<test dir>/__Snapshots__/<TestFileName>/<name>.txt`
/// (Package.swift excludes `__Snapshots__` from the test target's sources).
/// - A difference is recorded as a test issue (Swift Testing) showing both texts line by line.
/// - A missing snapshot is written, and recorded as an issue once so that the new file is
///   noticed (run again: it passes).
/// - **Re-record** after an intended change: run the tests with `RECORD_SNAPSHOTS=1`
///   (e.g. `RECORD_SNAPSHOTS=1 swift test --skip-build --filter '^CommonUITests\.'`); every compared
///   snapshot is rewritten and reported as an issue; review with `git diff`, then run again
///   without the variable.
///
/// ```swift
/// @Test func list() throws {
///   try assertSnapshot(of: List(["a", "b"], state: .init(count: 2)), width: 20, height: 4, named: "list")
/// }
/// ```
/// - Throws: only when the snapshot file cannot be written.
public func assertSnapshot(
  of view: some Widget, width: Int, height: Int, named name: String, theme: Theme = .monochrome,
  fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) throws {
  let text = view.rendered(width: width, height: height, theme: theme).plainText
  try assertSnapshot(text, named: name, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Compares `text` with the snapshot `name` (see ``assertSnapshot(of:width:height:named:theme:fileID:filePath:line:column:)``).
/// - Throws: only when the snapshot file cannot be written.
public func assertSnapshot(
  _ text: String, named name: String, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
  column: Int = #column
) throws {
  let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  let testFile = URL(fileURLWithPath: filePath)
  let directory = testFile.deletingLastPathComponent().appendingPathComponent("__Snapshots__")
    .appendingPathComponent(testFile.deletingPathExtension().lastPathComponent)
  let file = directory.appendingPathComponent("\(name).txt")
  let recording = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"].map { !$0.isEmpty && $0 != "0" } ?? false
  let contents = text + "\n"
  let existing = try? String(contentsOf: file, encoding: .utf8)
  if recording || existing == nil {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try contents.write(to: file, atomically: true, encoding: .utf8)
    let mismatch = SnapshotMismatch(
      name: name, path: file.path, expected: existing, actual: contents,
      note: existing == nil ? "recorded a new snapshot; run again" : "re-recorded (RECORD_SNAPSHOTS is set)")
    Issue.record(Comment(rawValue: mismatch.description), sourceLocation: location)
    return
  }
  if existing != contents {
    let mismatch = SnapshotMismatch(name: name, path: file.path, expected: existing, actual: contents, note: nil)
    Issue.record(Comment(rawValue: mismatch.description), sourceLocation: location)
  }
}

/// A snapshot that differs from its file (or was just recorded): the text of the issue.
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
