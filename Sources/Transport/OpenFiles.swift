import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The process's open-file limit (`RLIMIT_NOFILE`, `ulimit -n`), which bounds every socket a
/// libwebsockets context may hold.
///
/// libwebsockets sizes a context's tables when the context is made: it reads the soft limit
/// (`sysconf(_SC_OPEN_MAX)`) and finds a socket's connection by indexing a table of that many
/// slots. A context told to hold fewer (`fd_limit_per_thread` below the limit) switches to a
/// linear search of its table on every event, accept and close, so a server of thousands of
/// connections slows down with the square of their number; and a socket numbered above a
/// context's limit is refused. So both loops raise the soft limit before they make their context,
/// and the server leaves lws's table at the process's size and enforces its own connection cap.
enum OpenFiles {
  /// What the soft limit is raised to without being asked for more (when the hard limit allows):
  /// room for tens of thousands of connections, while each context's tables (16 bytes a slot,
  /// zeroed by lws) stay at 1 MB.
  static let comfortable = 65_536

  /// Raises the soft limit to at least `count` descriptors — to `max(count, comfortable)`, never
  /// above the hard limit, never lowering it — and returns the soft limit now in force.
  @discardableResult
  static func raise(toAtLeast count: Int = 0) -> Int {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return Int(sysconf(Int32(_SC_OPEN_MAX))) }
    let wanted = min(limit.rlim_max, rlim_t(max(count, comfortable)))
    if limit.rlim_cur < wanted {
      var raised = limit
      raised.rlim_cur = wanted
      if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
    }
    return Int(clamping: limit.rlim_cur)
  }
}
