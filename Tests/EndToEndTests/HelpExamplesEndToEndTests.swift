import CommonTesting
import Foundation
import Testing

/// #14: every example that `--help` prints — each executable, each command, each subcommand —
/// runs as written, in a shell, on a fresh data directory where a traveller is signed in with a
/// card: it is accepted (never exit 2, the CLI's status for invalid input, and no "unknown option"),
/// never crashes, and ends; an example that follows or serves (`--follow`, `chat follow`, the
/// server) is still running, without an error, when stopped after a few seconds.
///
/// Two things an example cannot carry are supplied: an offer id (signed by the data directory that
/// searched, so a printed one never books elsewhere) is replaced by one this directory's own search
/// printed, of the same kind; and an image to scan (`pass.png`) is not made here — scanning is
/// `BoardingEndToEndTests`' — so for those the example must get as far as "cannot read" the file.
/// Serialized: one example process at a time, so the other end-to-end suites running beside it
/// (chat, servers, tmux; 2 cores) keep within their own time limits.
@Suite(.serialized) struct HelpExamplesEndToEndTests {
  static let products = ["travel", "booking", "hotel", "car-rental", "account", "travel-agent", "travel-server"]
  /// The feature executables whose commands `travel` also offers under a group (`travel flights
  /// search` is `booking search`).
  static let features = ["booking", "hotel", "car-rental", "account"]
  static let password = "correct horse battery"
  let runner = ProductRunner()

  /// One example's outcome.
  struct Outcome {
    var status: Int32?
    var stdout: String
    var stderr: String
    var stopped: Bool { status == nil }
  }

  /// Every example of `product`, with the command path it belongs to, from `--help --json`,
  /// recursively through the subcommands.
  func examples(of product: String, path: [String] = []) throws -> [String] {
    let help = try runner.run(product, path + ["--help", "--json"])
    #expect(help.status == 0, "\(([product] + path).joined(separator: " ")) --help --json: \(help.stderr)")
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(help.stdout.utf8)) as? [String: Any],
      "\(product) \(path) --help --json is not a JSON object")
    var found = document["examples"] as? [String] ?? []
    for case let subcommand as [String: Any] in document["subcommands"] as? [Any] ?? [] {
      guard let name = subcommand["name"] as? String else { continue }
      found += try examples(of: product, path: path + [name])
    }
    return found
  }

  /// Runs `line` with `sh -c` in `directory`'s `cwd` (`directory` is the data directory and
  /// `HOME`), the products first
  /// on `PATH`, the password twice on stdin; stops it after `seconds`.
  func run(_ line: String, in directory: TemporaryDirectory, seconds: Double, stdin: String? = nil) throws -> Outcome {
    let scratch = TemporaryDirectory(prefix: "help-example-io")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    // `exec`: the product is the process stopped at the deadline (no orphan under the shell).
    process.arguments = ["-c", line.contains("|") ? line : "exec " + line]
    process.currentDirectoryURL = directory.url.appendingPathComponent("cwd")
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    process.environment = [
      "PATH": runner.binDirectory.path + ":" + path, "HOME": directory.path, "LANG": "C.UTF-8",
      "TRAVEL_DATA_DIR": directory.path,
    ]
    let outURL = scratch.url.appendingPathComponent("stdout")
    let errURL = scratch.url.appendingPathComponent("stderr")
    let inURL = scratch.url.appendingPathComponent("stdin")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    _ = FileManager.default.createFile(
      atPath: inURL.path, contents: Data((stdin ?? "\(Self.password)\n\(Self.password)\n").utf8))
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    let input = try FileHandle(forReadingFrom: inURL)
    defer {
      try? out.close()
      try? err.close()
      try? input.close()
    }
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    let done = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in done.signal() }
    try process.run()
    var status: Int32?
    if done.wait(timeout: .now() + seconds) == .success {
      status = process.terminationStatus
    } else {
      process.terminate()
      if done.wait(timeout: .now() + 5) == .timedOut {
        kill(process.processIdentifier, SIGKILL)
        done.wait()
      }
    }
    return Outcome(
      status: status, stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
      stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
  }

  @Test(.timeLimit(.minutes(10)), arguments: products)
  func everyHelpExample_runsAsWritten(product: String) throws {
    var examples = try examples(of: product)
    if product == "travel" {
      // `travel flights search …` is `booking search …`, the same command: run there, not twice.
      var featureExamples = Set<String>()
      for feature in Self.features {
        for example in try self.examples(of: feature) { featureExamples.insert(Self.dropping(1, from: example)) }
      }
      examples.removeAll { featureExamples.contains(Self.dropping(2, from: $0)) }
    }
    #expect(!examples.isEmpty || product == "travel", "\(product) prints no example")
    let directory = TemporaryDirectory(prefix: "help-examples")
    // A traveller signed in with a card, and (in the examples' working directory) the password
    // file an example may read.
    let cwd = directory.url.appendingPathComponent("cwd")
    try FileManager.default.createDirectory(at: cwd, withIntermediateDirectories: true)
    _ = FileManager.default.createFile(
      atPath: cwd.appendingPathComponent("password.txt").path, contents: Data("\(Self.password)\n".utf8))
    for setup in [
      "account signup --email ada@example.com --first-name Ada --last-name Lovelace",
      "account login --email ada@example.com",
    ] {
      let outcome = try run(setup, in: directory, seconds: 60)
      #expect(outcome.status == 0, "\(setup): \(outcome.stderr)")
    }
    let cardLines = "4242424242424242\n12/30\n123\n"
    _ = FileManager.default.createFile(
      atPath: cwd.appendingPathComponent("card.txt").path, contents: Data(cardLines.utf8))
    let card = try runner.run("account", ["cards", "add", "--data-dir", directory.path], stdin: cardLines)
    #expect(card.status == 0, "cards add: \(card.stderr)")
    let ids = try offerIDs(in: directory)

    for written in examples {
      let example = Self.withOwnOfferIDs(written, ids)
      // Following and serving run until stopped: a few seconds show they started well.
      let endless =
        example.range(of: #"(^|\s)(--)?follow(\s|$)"#, options: .regularExpression) != nil
        || example.hasPrefix("travel-server") && !example.contains(" agents ")
      let input = example.contains("cards add") ? cardLines : nil
      let outcome = try run(example, in: directory, seconds: endless ? 4 : 60, stdin: input)
      let said = "\(example)\n  stdout: \(outcome.stdout.prefix(300))\n  stderr: \(outcome.stderr.prefix(500))"
      if outcome.stopped {
        #expect(endless, "did not end within 60 s: \(said)")
        #expect(!outcome.stderr.contains("error:"), "\(said)")
      } else if let file = Self.imageArgument(of: example) {
        #expect(outcome.stderr.contains("cannot read \"\(file)\""), "\(said)")
      } else {
        #expect(outcome.status != 2, "refused as invalid input: \(said)")
        #expect(outcome.status == 0 || outcome.status == 1, "exit \(outcome.status ?? -1): \(said)")
        #expect(!outcome.stderr.contains("unknown option") && !outcome.stderr.contains("unknown command"), "\(said)")
      }
    }
  }

  /// `example` without its first `count` words (`travel flights search --from SFO` → `search --from SFO`).
  static func dropping(_ count: Int, from example: String) -> String {
    example.split(separator: " ", omittingEmptySubsequences: false).dropFirst(count).joined(separator: " ")
  }

  /// The image file an example scans (`boarding-pass scan pass.png` → `pass.png`), if any.
  static func imageArgument(of example: String) -> String? {
    guard example.contains("boarding-pass scan") else { return nil }
    return example.split(separator: " ").map(String.init).first { $0.hasSuffix(".png") || $0.hasSuffix(".jpg") }
  }

  /// `example` with each offer id of a kind (`FL1.…`, `hof_…`, `car_…`) replaced by `ids`' of that kind.
  static func withOwnOfferIDs(_ example: String, _ ids: [String: String]) -> String {
    example.split(separator: " ", omittingEmptySubsequences: false).map { word in
      for (prefix, id) in ids where word.hasPrefix(prefix) && word.count > 20 { return id }
      return String(word)
    }.joined(separator: " ")
  }

  /// One offer id of each kind, from searches in `directory` a month ahead: `FL1.` flights,
  /// `hof_` hotels, `car_` cars.
  func offerIDs(in directory: TemporaryDirectory) throws -> [String: String] {
    let day = Date().addingTimeInterval(30 * 86_400)
    func date(_ offset: Int) -> String {
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = TimeZone(identifier: "UTC")
      formatter.dateFormat = "yyyy-MM-dd"
      return formatter.string(from: day.addingTimeInterval(Double(offset) * 86_400))
    }
    let searches: [(prefix: String, product: String, arguments: [String])] = [
      ("FL1.", "booking", ["search", "--from", "SFO", "--to", "JFK", "--date", date(0)]),
      ("hof_", "hotel", ["search", "--near", "Paris", "--check-in", date(0), "--check-out", date(3)]),
      ("car_", "car-rental", ["search", "--pickup", "LAX", "--from", date(0) + "T10:00", "--to", date(7) + "T10:00"]),
    ]
    var ids: [String: String] = [:]
    for search in searches {
      let result = try runner.run(search.product, search.arguments + ["--json", "--data-dir", directory.path])
      #expect(result.status == 0, "\(search.product) search: \(result.stderr)")
      let pattern = "\"(" + NSRegularExpression.escapedPattern(for: search.prefix) + "[^\"]+)\""
      if let range = result.stdout.range(of: pattern, options: .regularExpression) {
        ids[search.prefix] = String(result.stdout[range].dropFirst().dropLast())
      }
      #expect(ids[search.prefix] != nil, "no \(search.prefix) offer id in \(search.product) search")
    }
    return ids
  }
}
