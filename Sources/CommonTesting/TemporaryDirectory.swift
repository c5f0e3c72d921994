import Foundation

/// A fresh directory under the system's temporary directory, removed when the value is
/// released. Tests use one as the data directory so they never touch the user's own.
public final class TemporaryDirectory: @unchecked Sendable {
  /// The directory (created `0700`).
  public let url: URL

  /// Creates a new empty directory whose name starts with `prefix`.
  public init(prefix: String = "travel-test") {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
    try? FileManager.default.createDirectory(
      at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    self.url = url
  }

  /// The path of the directory.
  public var path: String { url.path }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }
}
