// `travel-server`: the backend over HTTP and WebSocket (see Server.TravelServer).
import Common
import Foundation
import Server

// First, before any thread starts: a SIGTERM that comes while the server starts is held, not lost.
ServerCommandLine.holdTerminationSignals()

let root = Command(
  name: "travel-server",
  summary: "Serve the travel backend over HTTP (JSON under /v1) and WebSocket (/v1/stream).",
  discussion: """
    Listens on loopback (127.0.0.1:8080) unless --listen says otherwise; the store is the data directory's SQLite
    file, as for the apps, or the PostgreSQL database of --database (or TRAVEL_DATABASE_URL), which several
    servers can share. One JSON access-log line per request goes to stderr. SIGTERM or SIGINT: stop accepting, finish
    the requests in flight, close WebSockets (1001), exit 0 within 10 s. Point the apps at it with --server URL
    or TRAVEL_SERVER.
    """,
  options: [
    .option(
      "listen", "HOST:PORT", help: "Address and port to listen on (port 0: any free port).", default: "127.0.0.1:8080"),
    .option("tls-cert", "FILE", help: "PEM certificate: serve HTTPS/WSS (with --tls-key)."),
    .option("tls-key", "FILE", help: "PEM private key of --tls-cert."),
    .option(
      "max-connections", "N",
      help: "Connections (HTTP and WebSocket) served at once, 1 to 1,000,000; more wait to be accepted.",
      default: "4096"),
    ServerCommandLine.databaseOption,
  ] + ServerCommandLine.signInOptions,
  examples: [
    "", "--listen 127.0.0.1:9090 --data-dir /tmp/travel-server",
    "--database postgresql://travel@db.example/travel?sslmode=require", "agents add --email grace@agency.example",
  ],
  subcommands: [AgentCommands.group],
  action: { invocation in
    let configuration = try ServerCommandLine.configuration(invocation)
    let server = try TravelServer(configuration: configuration)
    ServerCommandLine.announce(server, console: invocation.context.console)
    ServerCommandLine.waitForTermination()
    server.shutdown(timeout: 10)
  })
exit(CommandLineTool(root: root).run(arguments: Array(CommandLine.arguments.dropFirst())))
