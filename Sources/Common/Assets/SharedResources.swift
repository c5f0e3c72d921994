import Foundation

/// Locates `Shared/`, the asset and reference data files of the app (strings, palette,
/// airports, routes, cities, currencies, …).
///
/// Search order:
/// 1. `$TRAVEL_SHARED_DIR`, when set;
/// 2. `share/travel` beside the executable's directory (`<prefix>/bin/travel` →
///    `<prefix>/share/travel`), for an installed copy;
/// 3. `Shared/` at the root of the package this file was compiled from (a clone run with
///    `swift run`, and the tests).
public enum SharedResources {
  /// Errors of locating or reading an asset.
  public enum Failure: Error, LocalizedError, Equatable {
    /// No `Shared/` directory was found; the paths tried are listed.
    case directoryNotFound(tried: [String])
    /// A file of `Shared/` is missing or unreadable.
    case unreadable(path: String)
    /// A file of `Shared/` does not have the expected shape; `reason` names the row or field.
    case malformed(path: String, reason: String)

    public var errorDescription: String? {
      switch self {
      case .directoryNotFound(let tried):
        "the app's data files (Shared/) were not found; tried \(tried.joined(separator: ", ")); set TRAVEL_SHARED_DIR"
      case .unreadable(let path): "cannot read data file \(path)"
      case .malformed(let path, let reason): "data file \(path) is malformed: \(reason)"
      }
    }
  }

  /// The `Shared/` directory, found once per process.
  public static func directory() throws -> URL {
    try located.get()
  }

  /// The URL of `relativePath` inside `Shared/` (e.g. `currencies/iso4217_currencies.csv`).
  public static func url(_ relativePath: String) throws -> URL {
    try directory().appendingPathComponent(relativePath)
  }

  /// The contents of `relativePath` inside `Shared/`.
  /// - Throws: ``Failure/unreadable(path:)`` when it cannot be read.
  public static func data(_ relativePath: String) throws -> Data {
    let url = try url(relativePath)
    guard let data = FileManager.default.contents(atPath: url.path) else {
      throw Failure.unreadable(path: url.path)
    }
    return data
  }

  private static let located: Result<URL, Failure> = {
    var tried: [String] = []
    let fileManager = FileManager.default
    func isDirectory(_ url: URL) -> Bool {
      var flag: ObjCBool = false
      return fileManager.fileExists(atPath: url.path, isDirectory: &flag) && flag.boolValue
    }
    if let override = ProcessInfo.processInfo.environment["TRAVEL_SHARED_DIR"], !override.isEmpty {
      let url = URL(fileURLWithPath: override, isDirectory: true)
      if isDirectory(url) { return .success(url) }
      tried.append(url.path)
    }
    let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
    let installed = executable.deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("share/travel", isDirectory: true)
    if isDirectory(installed) { return .success(installed) }
    tried.append(installed.path)
    // This file is Sources/Common/Assets/SharedResources.swift.
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Shared", isDirectory: true)
    if isDirectory(source) { return .success(source) }
    tried.append(source.path)
    return .failure(.directoryNotFound(tried: tried))
  }()
}
