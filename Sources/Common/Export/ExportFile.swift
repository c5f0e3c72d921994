import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a file a user asked for (`trips export ID --ics PATH`, `hotel map --svg PATH`, the
/// trips screen's export) the way command-line tools do.
///
/// - `PATH` names a file, or a directory: an existing directory, or any path ending in `/`, gets
///   `PATH/<defaultName>` (`trips export res_1 --ics ~/Calendars/` writes `~/Calendars/res_1.ics`).
/// - A relative path is taken from the working directory.
/// - The file is written whole or not at all: a temporary file next to it, `fsync`, then an atomic
///   `rename` over any old file. Its mode follows the umask, as files a user creates do.
/// - Errors name the path and the reason in plain words, never Foundation's text: a missing
///   directory is `no_such_directory` (invalid input, exit 2, naming the first missing directory);
///   a parent that is a file, a permission or a full disk is `export_failed` (exit 1).
public enum ExportFile {
  /// Writes `data` to `target` (see the type's documentation) and returns the file written.
  /// - Parameters:
  ///   - target: a file or directory path, as the user typed it.
  ///   - defaultName: the file name used when `target` is a directory (`res_1.ics`).
  ///   - workingDirectory: where a relative `target` starts (the process's by default).
  /// - Throws: ``ServiceError`` `no_such_directory` (`.invalidInput`) or `export_failed`
  ///   (`.unavailable`); nothing is left behind.
  @discardableResult
  public static func write(
    _ data: Data, to target: String, defaultName: String,
    workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
  ) throws(ServiceError) -> URL {
    guard !target.isEmpty else { throw ServiceError.invalid("invalid_path", "the file path is empty") }
    let base =
      target.hasPrefix("/") ? URL(fileURLWithPath: target) : workingDirectory.appendingPathComponent(target)
    let wantsDirectory = target.hasSuffix("/")
    let found = DataDirectory.status(of: base)
    let file: URL
    if wantsDirectory || (found.exists && found.isDirectory) {
      try requireDirectory(base.standardizedFileURL, target: target)
      file = base.appendingPathComponent(defaultName).standardizedFileURL
    } else {
      file = base.standardizedFileURL
      try requireDirectory(file.deletingLastPathComponent(), target: target)
    }
    let temporary = file.deletingLastPathComponent()
      .appendingPathComponent(".\(file.lastPathComponent).\(getpid()).\(UInt32.random(in: .min ... .max)).tmp").path
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else { throw failure(file, errno: errno) }
    var problem: Int32 = 0
    data.withUnsafeBytes { buffer in
      var written = 0
      while written < buffer.count {
        #if canImport(Glibc)
          let result = Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
        #else
          let result = Darwin.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
        #endif
        if result < 0 {
          if errno == EINTR { continue }
          problem = errno
          return
        }
        written += result
      }
    }
    if problem == 0, fsync(descriptor) != 0 { problem = errno }
    if close(descriptor) != 0, problem == 0 { problem = errno }
    if problem == 0, rename(temporary, file.path) != 0 { problem = errno }
    if problem != 0 {
      unlink(temporary)
      throw failure(file, errno: problem)
    }
    return file
  }

  /// Checks that `directory` exists and is a directory, naming the first missing one.
  private static func requireDirectory(_ directory: URL, target: String) throws(ServiceError) {
    let status = DataDirectory.status(of: directory)
    if status.exists && status.isDirectory { return }
    if status.exists {
      throw ServiceError(
        .unavailable, code: "export_failed",
        message: "cannot write \(target): \(directory.path) is a file, not a directory. Nothing was written")
    }
    var missing = directory
    while true {
      let parent = missing.deletingLastPathComponent()
      if parent.path == missing.path || DataDirectory.status(of: parent).exists { break }
      missing = parent
    }
    let extra = missing.path == directory.path ? "" : " (nor does \(directory.path))"
    throw ServiceError.invalid(
      "no_such_directory",
      "cannot write \(target): the directory \(missing.path) does not exist\(extra). Create it first "
        + "(mkdir -p \(directory.path)) or give another path. Nothing was written")
  }

  private static func failure(_ file: URL, errno code: Int32) -> ServiceError {
    ServiceError(
      .unavailable, code: "export_failed",
      message: "cannot write \(file.path): \(ErrorText.reason(errno: code)). Nothing was written")
  }
}
