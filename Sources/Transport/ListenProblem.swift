import Foundation

/// Why an address cannot be listened on, found by binding a socket to it the way libwebsockets
/// does (`SO_REUSEADDR`), in words.
enum ListenProblem {
  /// Why `host` cannot be listened on at all (not an IP address, not one of this machine's), or
  /// nil. Checked before libwebsockets is given it: lws takes an address it cannot bind for an
  /// interface not up yet and waits for it, listening nowhere.
  static func unusableHost(_ host: String) -> String? { diagnose(host: host, port: 0) }

  /// Why binding `host:port` fails, in words; nil when it does not.
  static func diagnose(host: String, port: Int) -> String? {
    let family = host.contains(":") ? AF_INET6 : AF_INET
    let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return "no socket can be opened (\(String(cString: strerror(errno))))" }
    defer { close(fd) }
    var on: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
    let result: Int32
    if family == AF_INET6 {
      var address = sockaddr_in6()
      address.sin6_family = sa_family_t(AF_INET6)
      address.sin6_port = in_port_t(UInt16(clamping: port).bigEndian)
      guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else { return "\(host) is not an IP address" }
      result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
        }
      }
    } else {
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = in_port_t(UInt16(clamping: port).bigEndian)
      guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return "\(host) is not an IP address" }
      result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
      }
    }
    if result == 0 { return nil }
    switch errno {
    case EADDRINUSE: return "port \(port) is in use by another process: choose another port (0 picks a free one)"
    case EADDRNOTAVAIL:
      return "\(host) is not an address of this machine: use 127.0.0.1, ::1, 0.0.0.0 or one of its own addresses"
    case EACCES: return "port \(port) is privileged (below 1024) for this user: choose a port from 1024 up"
    default: return "binding failed (\(String(cString: strerror(errno))))"
    }
  }
}
