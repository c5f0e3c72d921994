import Backend
import Common
import Dispatch
import Foundation

/// What `travel-server`'s `main.swift` needs beyond a screenful: option parsing and signals.
public enum ServerCommandLine {
  /// The configuration of `travel-server [--listen HOST:PORT] [--data-dir DIR] [--tls-cert F --tls-key F]`;
  /// live flight status is the simulation of the world's operations on the clock options
  /// (`--clock-speed`, `--clock-start`, as for every executable).
  /// - Throws: ``CLIError`` usage (exit 2) for a malformed `--listen` or a lone TLS option.
  public static func configuration(_ invocation: Invocation) throws -> TravelServer.Configuration {
    let listen = invocation.value("listen") ?? "127.0.0.1:8080"
    let (host, port) = try parseListen(listen)
    let cert = invocation.value("tls-cert")
    let key = invocation.value("tls-key")
    if (cert == nil) != (key == nil) {
      throw CLIError.usage("--tls-cert and --tls-key go together: give both PEM files, or neither for plain HTTP")
    }
    return TravelServer.Configuration(
      host: host, port: port, dataDirectory: invocation.context.dataDirectory, tlsCertificate: cert, tlsKey: key,
      flightStatus: try FlightsWiring.status(context: invocation.context))
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

  /// Blocks until SIGTERM or SIGINT.
  public static func waitForTermination() {
    let stop = DispatchSemaphore(value: 0)
    var sources: [any DispatchSourceSignal] = []
    for signalNumber in [SIGTERM, SIGINT] {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
      source.setEventHandler { stop.signal() }
      source.resume()
      sources.append(source)
    }
    signal(SIGPIPE, SIG_IGN)
    stop.wait()
    sources.forEach { $0.cancel() }
  }
}
