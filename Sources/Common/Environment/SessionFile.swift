import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file in which the command line keeps the session token of the signed-in user between
/// runs: `session` in the data directory, owner-only (`0600`), holding the token and a newline.
///
/// Every feature's `book` command reads it, `account login` writes it, `account logout` deletes
/// it. The token is a secret: it is written with an atomic rename from an owner-only temporary
/// file, so a reader never sees half a token and no other user can read it at any moment.
public struct SessionFile: Sendable {
  /// The file's name inside the data directory.
  public static let fileName = "session"

  /// The path of the file.
  public let url: URL

  /// The file in which `travel-agent` keeps the signed-in agent's token (a role apart: the
  /// traveller's and the agent's sessions never share a file).
  public static let agentFileName = "agent-session"

  /// The session file of `dataDirectory` (nothing is touched on disk); `fileName` is
  /// ``fileName`` for travellers, ``agentFileName`` for agents.
  public init(dataDirectory: URL, fileName: String = SessionFile.fileName) {
    url = dataDirectory.appendingPathComponent(fileName, isDirectory: false)
  }

  /// The saved token, or nil when nobody is signed in (no file, or an empty one).
  /// - Throws: `session_file_unreadable` (``ServiceError/Kind/unavailable``, exit 1) when the file
  ///   exists but cannot be read or is not a token (a directory, binary data, several lines).
  public func read() throws -> String? {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return nil }
    guard !isDirectory.boolValue, let data = FileManager.default.contents(atPath: url.path), data.count <= 4096 else {
      throw unreadable("it is not a readable file")
    }
    guard let text = String(data: data, encoding: .utf8) else { throw unreadable("it is not text") }
    let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
    if token.isEmpty { return nil }
    guard Self.isPlausibleToken(token) else { throw unreadable("it does not hold a session token") }
    return token
  }

  /// Saves `token` (replacing any previous one), creating the data directory (`0700`) if needed.
  /// The file is `0600` from its creation on.
  /// - Throws: `invalid_session_token` for a token with whitespace or control characters;
  ///   ``CLIError`` `data_dir_unusable` from ``DataDirectory/prepare(_:)``;
  ///   `session_file_unwritable` when the file cannot be written.
  public func write(_ token: String) throws {
    guard Self.isPlausibleToken(token) else {
      throw ServiceError.invalid(
        "invalid_session_token", "a session token is printable ASCII without spaces, at most 1024 characters")
    }
    let directory = url.deletingLastPathComponent()
    try DataDirectory.prepare(directory)
    let temporary = directory.appendingPathComponent(
      ".\(Self.fileName).\(getpid()).\(UInt32.random(in: .min ... .max))")
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw unwritable(errno) }
    let bytes = Array((token + "\n").utf8)
    var written = 0
    var failure: Int32 = 0
    bytes.withUnsafeBytes { buffer in
      while written < buffer.count {
        let result = systemWrite(descriptor, buffer.baseAddress! + written, buffer.count - written)
        if result < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        written += result
      }
    }
    if failure == 0, fsync(descriptor) != 0 { failure = errno }
    close(descriptor)
    if failure == 0, rename(temporary.path, url.path) != 0 { failure = errno }
    if failure != 0 {
      unlink(temporary.path)
      throw unwritable(failure)
    }
  }

  /// The file's identity as it is now, for noticing that it was written or removed (by this
  /// process or another): `inode:modified-nanoseconds:size`, or `absent`. A write replaces the
  /// file (a new inode), so two writes within one clock tick still differ.
  public func stamp() -> String {
    var info = stat()
    guard stat(url.path, &info) == 0 else { return "absent" }
    #if canImport(Darwin)
      let modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
    #else
      let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    #endif
    return "\(info.st_ino):\(modified):\(info.st_size)"
  }

  /// Forgets the token. Deleting a missing file is not an error.
  /// - Throws: `session_file_unwritable` when the file exists but cannot be removed.
  public func delete() throws {
    if unlink(url.path) != 0, errno != ENOENT { throw unwritable(errno) }
  }

  /// Printable ASCII (no space), 1–1024 characters: the shape of any token the store issues.
  static func isPlausibleToken(_ token: String) -> Bool {
    !token.isEmpty && token.utf8.count <= 1024 && token.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
  }

  private func unreadable(_ reason: String) -> ServiceError {
    ServiceError(
      .unavailable, code: "session_file_unreadable",
      message: "cannot read the session file \(url.path): \(reason); remove it and sign in again")
  }

  private func unwritable(_ code: Int32) -> ServiceError {
    ServiceError(
      .unavailable, code: "session_file_unwritable",
      message: "cannot write the session file \(url.path): \(String(cString: strerror(code)))")
  }
}

/// `write(2)`, named apart from ``SessionFile/write(_:)``.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
    Glibc.write(descriptor, buffer, count)
  #else
    Darwin.write(descriptor, buffer, count)
  #endif
}
