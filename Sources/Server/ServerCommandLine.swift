import Backend
import Common
import Dispatch
import Foundation
import Transport

/// What `travel-server`'s `main.swift` needs beyond a screenful: option parsing and signals.
public enum ServerCommandLine {
  /// The configuration of `travel-server [--listen HOST:PORT] [--data-dir DIR] [--tls-cert F --tls-key F]
  /// [--max-connections N]` (connections served at once, default 4,096; the open-file limit is
  /// raised to fit them);
  /// live flight status is the simulation of the world's operations on the clock options
  /// (`--clock-speed`, `--clock-start`, as for every executable).
  /// - Throws: ``CLIError`` usage (exit 2) for a malformed `--listen`, a lone TLS option or a bad
  ///   `--max-connections`; refused (exit 1) when `ulimit -Hn` cannot fit the connections.
  public static func configuration(_ invocation: Invocation) throws -> TravelServer.Configuration {
    let listen = invocation.value("listen") ?? "127.0.0.1:8080"
    let (host, port) = try parseListen(listen)
    let cert = invocation.value("tls-cert")
    let key = invocation.value("tls-key")
    if (cert == nil) != (key == nil) {
      throw CLIError.usage("--tls-cert and --tls-key go together: give both PEM files, or neither for plain HTTP")
    }
    var transport = HTTPServer.Configuration()
    if let text = invocation.value("max-connections") {
      transport.maxConnections = try maxConnections(text)
    }
    try allowDescriptors(for: transport.maxConnections)
    var configuration = TravelServer.Configuration(
      host: host, port: port, dataDirectory: invocation.context.dataDirectory, tlsCertificate: cert, tlsKey: key,
      transport: transport, flightStatus: try FlightsWiring.status(context: invocation.context))
    configuration.database = try database(invocation)
    configuration.signInsPerAddress = try signInLimit(invocation, "sign-ins-per-address", default: 30)
    configuration.signInsPerEmail = try signInLimit(invocation, "sign-ins-per-email", default: 10)
    if let text = invocation.value("trusted-proxy") {
      configuration.trustedProxies = try trustedProxies(text)
    }
    return configuration
  }

  /// The sign-in limit options (attempts a minute; see ``TravelServer/Configuration``).
  public static let signInOptions: [OptionSpec] = [
    .option(
      "sign-ins-per-address", "N",
      help: "Sign-in and sign-up attempts a minute from one client address (1 to 1,000,000; shared by every "
        + "server on one database).", default: "30"),
    .option(
      "sign-ins-per-email", "N", help: "Sign-in and sign-up attempts a minute for one email (1 to 1,000,000).",
      default: "10"),
    .option(
      "trusted-proxy", "ADDRESS[,ADDRESS]",
      help: "Reverse proxies (nginx) whose X-Real-IP header names the client, for the sign-in limit and the "
        + "access log; default: none."),
  ]

  /// `--sign-ins-per-address N` / `--sign-ins-per-email N`: 1…1,000,000.
  /// - Throws: ``CLIError`` usage (exit 2) naming what is accepted.
  static func signInLimit(_ invocation: Invocation, _ name: String, default value: Int) throws -> Int {
    guard let text = invocation.value(name) else { return value }
    guard let count = Int(text), (1...1_000_000).contains(count) else {
      throw CLIError.usage(
        "invalid --\(name) \"\(EchoedInput.escaped(text))\": expected a whole number from 1 to 1,000,000 "
          + "(default \(value))")
    }
    return count
  }

  /// `--trusted-proxy 127.0.0.1[,::1]`: IPv4 or IPv6 addresses, comma-separated.
  /// - Throws: ``CLIError`` usage (exit 2) naming the address that is not one.
  static func trustedProxies(_ text: String) throws -> Set<String> {
    var addresses = Set<String>()
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      let address = part.trimmingCharacters(in: .whitespaces)
      var v4 = in_addr()
      var v6 = in6_addr()
      guard inet_pton(AF_INET, address, &v4) == 1 || inet_pton(AF_INET6, address, &v6) == 1 else {
        throw CLIError.usage(
          "invalid --trusted-proxy \"\(EchoedInput.escaped(address))\": expected IP addresses like 127.0.0.1 or "
            + "::1, separated by commas")
      }
      addresses.insert(address)
    }
    return addresses
  }

  /// The option naming the store's database (`travel-server`, `agents add`, `agents list`).
  public static let databaseOption = OptionSpec.option(
    "database", "URL",
    help: "PostgreSQL database (postgresql://USER@HOST/DB; env TRAVEL_DATABASE_URL); default: the data directory's "
      + "SQLite file.")

  /// Where the store is: `--database URL`, else `TRAVEL_DATABASE_URL` (when not empty), else the
  /// data directory's SQLite file (``DatabaseLocation/sqlite``).
  /// - Throws: ``CLIError`` usage (exit 2, `invalid_database_url`) for a malformed URL, another
  ///   scheme than `postgres://`/`postgresql://` or an unknown parameter, naming the source.
  public static func database(_ invocation: Invocation) throws -> DatabaseLocation {
    let source: String
    let text: String
    if let option = invocation.value("database") {
      (source, text) = ("--database", option)
    } else if let variable = invocation.context.environment["TRAVEL_DATABASE_URL"],
      !variable.trimmingCharacters(in: .whitespaces).isEmpty
    {
      (source, text) = ("TRAVEL_DATABASE_URL", variable)
    } else {
      return .sqlite
    }
    do {
      return try DatabaseLocation.parse(text.trimmingCharacters(in: .whitespaces))
    } catch let error as ServiceError {
      throw CLIError.usage("\(source): \(error.message)", code: error.code)
    }
  }

  /// The largest `--max-connections`: one file descriptor each, far above what one process is
  /// let open on common systems (`ulimit -n`).
  public static let connectionLimit = 1_000_000

  /// `--max-connections N`: connections (HTTP and WebSocket) served at once, 1…1,000,000.
  /// - Throws: ``CLIError`` usage (exit 2) naming what is accepted.
  public static func maxConnections(_ text: String) throws -> Int {
    guard let count = Int(text), (1...connectionLimit).contains(count) else {
      throw CLIError.usage(
        "invalid --max-connections \"\(EchoedInput.escaped(text))\": expected a whole number from 1 to 1,000,000 "
          + "(default 4096)")
    }
    return count
  }

  /// Raises this process's open-file limit (`RLIMIT_NOFILE`, the soft limit up to the hard one)
  /// so `connections` sockets fit with room for the store and the data files (64 more).
  /// - Throws: ``CLIError`` (exit 1) naming both numbers when the hard limit is too low.
  public static func allowDescriptors(for connections: Int) throws {
    let needed = rlim_t(connections + 64)
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < needed else { return }
    guard limit.rlim_max >= needed else {
      throw CLIError.refused(
        "--max-connections \(connections) needs \(needed) open files, but this process may open at most "
          + "\(limit.rlim_max) (ulimit -Hn): raise the limit or ask for fewer connections", code: "open_file_limit")
    }
    limit.rlim_cur = needed
    _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
  }

  /// `HOST:PORT`, `[v6]:PORT` or `:PORT` (loopback).
  /// - Throws: ``CLIError`` usage naming the accepted shapes.
  public static func parseListen(_ text: String) throws -> (host: String, port: Int) {
    let usage = CLIError.usage(
      "invalid --listen \"\(EchoedInput.escaped(text))\": expected HOST:PORT like 127.0.0.1:8080, [::1]:8080 or :8080")
    guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
      (0...65535).contains(port)
    else { throw usage }
    var host = String(text[..<colon])
    if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    if host.isEmpty { host = "127.0.0.1" }
    if host == "localhost" { host = "127.0.0.1" }
    guard host.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == ":" }) else { throw usage }
    return (host, port)
  }

  /// Says where the server listens (stderr, one line).
  public static func announce(_ server: TravelServer, console: Console) {
    console.printError("travel-server listening on \(server.baseURL.absoluteString) (Ctrl-C or SIGTERM to stop)")
  }

  /// Holds SIGTERM and SIGINT: blocks them in the calling thread, which every thread started
  /// after it inherits, so one that arrives while the server starts stays pending until
  /// ``waitForTermination()`` takes it (it is neither lost, leaving the server running until
  /// SIGKILL, nor fatal to a half-started process). Call it first in `main`, before any thread
  /// starts; ``releaseTerminationSignals()`` gives commands that are no server their default back.
  public static func holdTerminationSignals() {
    var set = terminationSignals
    pthread_sigmask(SIG_BLOCK, &set, nil)
    signal(SIGPIPE, SIG_IGN)
  }

  /// Undoes ``holdTerminationSignals()`` for the calling thread (Ctrl-C interrupts again).
  public static func releaseTerminationSignals() {
    var set = terminationSignals
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
  }

  /// Blocks until SIGTERM or SIGINT (held by ``holdTerminationSignals()``); returns which.
  @discardableResult
  public static func waitForTermination() -> Int32 {
    var set = terminationSignals
    var received: Int32 = 0
    while sigwait(&set, &received) != 0 {}
    return received
  }

  private static var terminationSignals: sigset_t {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGTERM)
    sigaddset(&set, SIGINT)
    return set
  }
}
