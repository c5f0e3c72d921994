import Foundation

/// Where the app keeps its store, session and caches.
///
/// Resolution order (the contract of `CLI.md`): `--data-dir DIR`, else `$TRAVEL_DATA_DIR`, else
/// `$XDG_DATA_HOME/travel`, else `~/.local/share/travel`. The directory is created owner-only
/// (`0700`) by ``prepare(_:)``, only when a command needs it.
public enum DataDirectory {
  /// The directory chosen by `option` (from `--data-dir`) and `environment`. Does not touch disk.
  public static func resolve(option: String?, environment: [String: String]) -> URL {
    if let option, !option.isEmpty { return URL(fileURLWithPath: option, isDirectory: true).standardizedFileURL }
    if let dir = environment["TRAVEL_DATA_DIR"], !dir.isEmpty {
      return URL(fileURLWithPath: dir, isDirectory: true).standardizedFileURL
    }
    if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
      return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("travel", isDirectory: true)
    }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return URL(fileURLWithPath: home, isDirectory: true)
      .appendingPathComponent(".local/share/travel", isDirectory: true)
  }

  /// Creates `directory` (and its parents) if needed and makes it owner-only (`0700`).
  /// - Throws: ``CLIError`` with code `data_dir_unusable` (exit 1) when it cannot be created or
  ///   is not a directory.
  public static func prepare(_ directory: URL) throws {
    let fileManager = FileManager.default
    var isDirectory: ObjCBool = false
    if fileManager.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
      guard isDirectory.boolValue else {
        throw CLIError.refused(
          "data directory \(directory.path) is a file, not a directory: pass --data-dir DIR or set TRAVEL_DATA_DIR",
          code: "data_dir_unusable")
      }
    } else {
      do {
        try fileManager.createDirectory(
          at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      } catch {
        throw CLIError.refused(
          "cannot create data directory \(directory.path): \(error.localizedDescription)", code: "data_dir_unusable")
      }
    }
    try? fileManager.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
  }
}
