import Foundation

/// Which `travel-server` the apps talk to, if any: `--server URL`, else `TRAVEL_SERVER`, else the
/// server remembered with the session (`account login --server URL` writes it next to the session
/// file; `account logout` removes it), else none — the embedded backend on the data directory.
public enum ServerSelection {
  /// The server for a run, or nil for the embedded backend.
  /// - Throws: ``CLIError`` usage (exit 2, `invalid_server_url`) for a URL that is not
  ///   `http://HOST[:PORT]` or `https://HOST[:PORT]`.
  public static func resolve(option: String?, environment: [String: String], dataDirectory: URL) throws -> URL? {
    if let option { return try parse(option, source: "--server") }
    if let value = environment["TRAVEL_SERVER"], !value.trimmingCharacters(in: .whitespaces).isEmpty {
      return try parse(value, source: "TRAVEL_SERVER")
    }
    return ServerFile(dataDirectory: dataDirectory).read()
  }

  /// `text` as a server base URL (no path, query or fragment kept).
  public static func parse(_ text: String, source: String) throws -> URL {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased(),
      scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
      components.path.isEmpty || components.path == "/", components.query == nil
    else {
      throw CLIError.usage(
        "invalid \(source) \(EchoedInput.quoted(text)): expected a server URL like http://127.0.0.1:8080",
        code: "invalid_server_url")
    }
    var clean = URLComponents()
    clean.scheme = scheme
    clean.host = host
    clean.port = components.port
    return clean.url!
  }
}

/// The remembered server: `DATA_DIR/server`, one URL, written with the session by
/// `account login` against a server (owner-only, like the session file).
public struct ServerFile: Sendable {
  public let url: URL

  public init(dataDirectory: URL) {
    url = dataDirectory.appendingPathComponent("server", isDirectory: false)
  }

  /// The remembered server; nil when none (or the file is not a server URL).
  public func read() -> URL? {
    guard let data = FileManager.default.contents(atPath: url.path), data.count < 2048,
      let text = String(data: data, encoding: .utf8)
    else { return nil }
    return try? ServerSelection.parse(text.trimmingCharacters(in: .whitespacesAndNewlines), source: "server file")
  }

  /// Remembers `server` (owner-only file).
  public func write(_ server: URL) throws {
    do {
      try DataDirectory.prepare(url.deletingLastPathComponent())
      try Data((server.absoluteString + "\n").utf8).write(to: url, options: .atomic)
      try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    } catch {
      throw ServiceError(
        .unavailable, code: "data_dir_unusable", message: "cannot write \(url.path): check its permissions")
    }
  }

  /// Forgets the server (no error when none was remembered).
  public func delete() { try? FileManager.default.removeItem(at: url) }
}
