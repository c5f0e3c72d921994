import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the app keeps its store, session and caches, and what it may do there.
///
/// Resolution order (the contract of `CLI.md`): `--data-dir DIR`, else `$TRAVEL_DATA_DIR`, else
/// `$XDG_DATA_HOME/travel`, else `~/.local/share/travel`.
///
/// Permissions are the user's: the app creates a missing directory owner-only (`0700`) when a
/// command first needs to write, and never changes the mode of an existing directory or file.
/// What it finds is checked (``Status``, ``check(_:for:)``) and reported:
/// - a directory the process cannot read (another user's, `0700`) fails every command that needs
///   it with `data_dir_unreadable`, naming the owner and mode and what to do instead;
/// - a directory whose owner removed their own write permission (`chmod u-w`, or `0500`), or that
///   the process cannot write, is **read-only**: searches still work (they only read), and
///   a command that must write (sign-in, booking, cancelling) fails with `data_dir_read_only`
///   before anything changes. The owner's write bit is honoured even by root, who could write
///   anyway: a directory made read-only by its owner is never written into.
/// - a directory that other users can enter (group or world permissions) is reported by
///   ``permissionWarning(_:path:)`` (the session and the card key live there), not changed.
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

  /// Where the interactive apps save what a traveller exports (the Trips screen's `e`: a trip's
  /// `.ics`): `exports` in the data directory `dataDirectory` (created owner-only on the first
  /// export, ``prepare(_:)``). The command line writes where `--ics PATH` says instead.
  public static func exports(in dataDirectory: URL) -> URL {
    dataDirectory.appendingPathComponent("exports", isDirectory: true)
  }

  /// What a command intends to do in the directory.
  public enum Access: Sendable {
    /// Read only (searches, listings): a missing directory is not created.
    case read
    /// Create or change files (sign-in, booking, adding a card).
    case write
  }

  /// What is on disk at a path, as `stat(2)` and `access(2)` see it for this process.
  public struct Status: Equatable, Sendable {
    /// Whether anything exists at the path (following symbolic links).
    public var exists: Bool
    public var isDirectory: Bool
    /// The permission bits (`st_mode & 0o7777`).
    public var mode: UInt32
    /// The owner's user id, and name when the system knows it.
    public var ownerUID: UInt32
    public var ownerName: String?
    /// `access(R_OK | X_OK)`: this process may list and enter it (root always may).
    public var canRead: Bool
    /// `access(W_OK | X_OK)`: this process may create files in it (root always may).
    public var canWrite: Bool
    /// False when a parent directory denies search permission, so nothing about the path is known.
    public var canExamine: Bool

    public init(
      exists: Bool, isDirectory: Bool = true, mode: UInt32 = 0o700, ownerUID: UInt32 = 0, ownerName: String? = nil,
      canRead: Bool = true, canWrite: Bool = true, canExamine: Bool = true
    ) {
      self.exists = exists
      self.isDirectory = isDirectory
      self.mode = mode
      self.ownerUID = ownerUID
      self.ownerName = ownerName
      self.canRead = canRead
      self.canWrite = canWrite
      self.canExamine = canExamine
    }

    /// Nothing at the path.
    public static let missing = Status(exists: false, isDirectory: false, mode: 0, canRead: false, canWrite: false)

    /// The owner removed their own write permission (`u-w`): the directory is read-only by choice.
    public var ownerMadeReadOnly: Bool { mode & 0o200 == 0 }

    /// The mode as `ls -l` writes it after the type letter (`rwx------`) and in octal (`0700`).
    public var modeText: String {
      let letters = Array("rwxrwxrwx")
      let symbolic = String((0..<9).map { mode & (0o400 >> UInt32($0)) != 0 ? letters[$0] : "-" })
      return "\(symbolic), " + "0" + String(mode & 0o777, radix: 8)
    }

    /// "user ada (uid 1000)" or "uid 1000".
    public var ownerText: String { ownerName.map { "user \($0) (uid \(ownerUID))" } ?? "uid \(ownerUID)" }
  }

  /// The status of `url` (following symbolic links). Never throws: a path that cannot be
  /// examined (a parent without search permission) is reported as existing but unreadable.
  public static func status(of url: URL) -> Status {
    var info = stat()
    guard stat(url.path, &info) == 0 else {
      if errno == EACCES {
        return Status(exists: true, isDirectory: true, mode: 0, canRead: false, canWrite: false, canExamine: false)
      }
      return .missing
    }
    let isDirectory = (info.st_mode & S_IFMT) == S_IFDIR
    return Status(
      exists: true, isDirectory: isDirectory, mode: UInt32(info.st_mode) & 0o7777, ownerUID: UInt32(info.st_uid),
      ownerName: userName(UInt32(info.st_uid)),
      canRead: access(url.path, R_OK | (isDirectory ? X_OK : 0)) == 0,
      canWrite: access(url.path, W_OK | (isDirectory ? X_OK : 0)) == 0)
  }

  /// Decides whether a command may go on with `access` in a directory of `status` at `path`.
  ///
  /// A missing directory is fine for both (reading finds nothing; writing creates it).
  /// - Throws: ``ServiceError`` (`.unavailable`, exit 1), each with advice that can work:
  ///   `data_dir_unusable` when the path is not a directory; `data_dir_unreadable` when this
  ///   process may not read it; `data_dir_read_only` for `.write` when the owner made it
  ///   read-only or this process may not write there.
  public static func check(_ status: Status, for access: Access, path: String) throws(ServiceError) {
    guard status.exists else { return }
    guard status.isDirectory else {
      throw ServiceError(
        .unavailable, code: "data_dir_unusable",
        message: "the data directory \(path) is a file, not a directory: move it away, or pass --data-dir DIR "
          + "(or set TRAVEL_DATA_DIR) to use another directory")
    }
    guard status.canRead else {
      let who =
        status.canExamine
        ? " (owner \(status.ownerText), \(status.modeText))" : " (a parent directory is closed to you)"
      throw ServiceError(
        .unavailable, code: "data_dir_unreadable",
        message: "the data directory \(path)\(who) cannot be read by you (permission denied). Nothing was changed. "
          + "Use a directory of your own with --data-dir DIR or TRAVEL_DATA_DIR, or ask its owner for access")
    }
    guard access == .write else { return }
    if status.ownerMadeReadOnly {
      throw ServiceError(
        .unavailable, code: "data_dir_read_only",
        message: "the data directory \(path) is read-only (\(status.modeText)), so this command, which must save, "
          + "changed nothing; searches still work. To save there, make it writable yourself (chmod u+w \(path)), "
          + "or use another directory with --data-dir DIR")
    }
    guard status.canWrite else {
      throw ServiceError(
        .unavailable, code: "data_dir_read_only",
        message: "the data directory \(path) (owner \(status.ownerText), \(status.modeText)) is not writable by you, "
          + "so this command, which must save, changed nothing; searches still work. Use a directory of your own "
          + "with --data-dir DIR or TRAVEL_DATA_DIR")
    }
  }

  /// Makes sure a command may write in `directory`: creates it (and missing parents) owner-only
  /// (`0700`) when it does not exist; an existing directory is checked (``check(_:for:path:)``),
  /// never changed.
  /// - Throws: ``ServiceError`` `data_dir_unusable` (not a directory, or it cannot be created: the
  ///   reason and the first missing or read-only parent named), `data_dir_unreadable`,
  ///   `data_dir_read_only`.
  public static func prepare(_ directory: URL) throws(ServiceError) {
    let path = directory.path
    let found = status(of: directory)
    if found.exists { return try check(found, for: .write, path: path) }
    do {
      try FileManager.default.createDirectory(
        at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      // Name the reason from the nearest existing parent, in words (never Foundation's text).
      var parent = directory.deletingLastPathComponent()
      while parent.path != "/" && !status(of: parent).exists { parent = parent.deletingLastPathComponent() }
      let parentStatus = status(of: parent)
      let reason: String
      if !parentStatus.isDirectory {
        reason = "\(parent.path) is a file, not a directory"
      } else if !parentStatus.canWrite || parentStatus.ownerMadeReadOnly {
        reason = "\(parent.path) is not writable by you (owner \(parentStatus.ownerText), \(parentStatus.modeText))"
      } else {
        reason = ErrorText.reason(of: error)
      }
      throw ServiceError(
        .unavailable, code: "data_dir_unusable",
        message: "cannot create the data directory \(path): \(reason). Nothing was changed. Pass --data-dir DIR "
          + "(or set TRAVEL_DATA_DIR) to use another directory")
    }
  }

  /// A warning for a data directory other users may enter or read (group or world permissions),
  /// or nil. The session token and the card key live there, so the user should know; the mode
  /// is theirs to change, and the app never changes it.
  public static func permissionWarning(_ status: Status, path: String) -> String? {
    guard status.exists, status.isDirectory, status.mode & 0o077 != 0 else { return nil }
    return "the data directory \(path) is open to other users (\(status.modeText)); it holds your session and card "
      + "key: chmod 700 \(path) to keep them private"
  }

  private static func userName(_ uid: UInt32) -> String? {
    var entry = passwd()
    var result: UnsafeMutablePointer<passwd>?
    var buffer = [CChar](repeating: 0, count: 4096)
    let status = buffer.withUnsafeMutableBufferPointer { bytes in
      getpwuid_r(uid_t(uid), &entry, bytes.baseAddress!, bytes.count, &result)
    }
    guard status == 0, let result, let name = result.pointee.pw_name else { return nil }
    return String(validatingCString: name)
  }
}
