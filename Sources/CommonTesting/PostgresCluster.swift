import Foundation
import Glibc

/// A throwaway PostgreSQL cluster for one test suite, as `Scripts/with-postgres` makes for a whole
/// test target, but the suite's own, so it may stop and restart it (fault tests) without touching
/// anyone else's: `initdb` in a new temporary directory, listening only on a Unix socket there (no
/// TCP port, so runs never collide), trust authentication for `postgres`, one database `travel`,
/// `fsync=off` (nothing must survive an operating-system crash; commits stay synchronous, so a
/// crash of PostgreSQL itself loses nothing committed). As root the server runs as the
/// `postgres` user (PostgreSQL refuses root). Stopped and deleted when released.
///
/// Without PostgreSQL's programs (Debian: postgresql, which `Scripts/bootstrap` installs) `init`
/// throws, naming what is missing: a test that needs a cluster fails, it never skips.
public final class PostgresCluster: @unchecked Sendable {
  /// `postgresql://postgres@/travel?host=<socket directory>&port=5432`.
  public let url: String
  /// The directory of the socket, the data and the server's log.
  public let directory: URL
  private let bin: URL
  private let asPostgres: Bool

  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  public init() throws {
    let fileManager = FileManager.default
    let versions = ((try? fileManager.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []).sorted {
      (Int($0) ?? 0) < (Int($1) ?? 0)
    }
    guard
      let version = versions.last(where: {
        fileManager.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/initdb")
      })
    else {
      throw Failure(
        description: "PostgreSQL is missing (no initdb under /usr/lib/postgresql/*/bin): run Scripts/bootstrap "
          + "(Debian package postgresql); the PostgreSQL tests fail without it, they never skip")
    }
    bin = URL(fileURLWithPath: "/usr/lib/postgresql/\(version)/bin")
    var template = Array((NSTemporaryDirectory() + "/travel-pg.XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { throw Failure(description: "mkdtemp failed") }
    directory = URL(fileURLWithPath: String(cString: made))
    asPostgres = getuid() == 0
    let path = directory.path
    url =
      "postgresql://postgres@/travel?host=\(path.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)&port=5432"
    if asPostgres { try run("/bin/chown", ["postgres:", path], asPostgres: false) }
    try run(
      bin.appendingPathComponent("initdb").path,
      ["-D", "\(path)/data", "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"])
    try start()
    try run(bin.appendingPathComponent("createdb").path, ["-h", path, "-p", "5432", "-U", "postgres", "travel"])
  }

  deinit {
    try? stop(mode: "immediate")
    try? FileManager.default.removeItem(at: directory)
  }

  /// Starts the server (after ``stop(mode:)``), waiting until it accepts connections.
  public func start() throws {
    try run(
      bin.appendingPathComponent("pg_ctl").path,
      [
        "-D", "\(directory.path)/data", "-l", "\(directory.path)/server.log", "-w", "-t", "60", "-o",
        "-k \(directory.path) -p 5432 -c listen_addresses='' -c max_connections=300 -c fsync=off", "start",
      ])
  }

  /// Stops the server: `immediate` (a crash: no checkpoint, recovery at the next start) or `fast`
  /// (sessions ended, a clean shutdown).
  public func stop(mode: String = "fast") throws {
    guard FileManager.default.fileExists(atPath: "\(directory.path)/data/postmaster.pid") else { return }
    try run(
      bin.appendingPathComponent("pg_ctl").path, ["-D", "\(directory.path)/data", "-m", mode, "-w", "-t", "30", "stop"])
  }

  /// Runs `sql` with `psql` on the `travel` database; returns what it printed (unaligned, tuples only).
  @discardableResult
  public func sql(_ sql: String) throws -> String {
    try run(
      bin.appendingPathComponent("psql").path,
      [
        "-h", directory.path, "-p", "5432", "-U", "postgres", "-d", "travel", "-X", "-q", "-A", "-t", "-v",
        "ON_ERROR_STOP=1", "-c", sql,
      ])
  }

  /// Runs `executable` (as `postgres` when the tests run as root) with its output in a file, and
  /// waits for it with `waitpid`: `pg_ctl start` leaves a server running that keeps the
  /// descriptors it was given, and Foundation's `Process` does not always see such a command end.
  /// - Throws: ``Failure`` with what it printed when it exits with another status than 0.
  @discardableResult
  private func run(_ executable: String, _ arguments: [String], asPostgres: Bool? = nil) throws -> String {
    // Run in the cluster's directory (`env -C`): as `postgres`, the tests' own working directory
    // may be closed to that user (a fresh clone under a mode-700 temporary directory), and psql
    // would print "could not change directory" into what it answers.
    let inDirectory = ["/usr/bin/env", "-C", directory.path, executable]
    let command =
      (asPostgres ?? self.asPostgres) ? ["/sbin/runuser", "-u", "postgres", "--"] + inDirectory : inDirectory
    let argv = command + arguments
    let file = directory.appendingPathComponent("command-\(UUID().uuidString).out").path
    defer { unlink(file) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, file, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    var pointers = argv.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, argv[0], &actions, nil, &pointers, environ)
    guard spawned == 0 else {
      throw Failure(description: "cannot run \(argv[0]): \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
    let exited = status & 0x7f == 0
    let code = (status >> 8) & 0xff
    guard exited && code == 0 else {
      throw Failure(
        description: "\(URL(fileURLWithPath: executable).lastPathComponent) \(arguments.joined(separator: " ")) "
          + "failed (status \(status)): \(text)")
    }
    return text.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
