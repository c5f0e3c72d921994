import Foundation

/// Runs a built executable of the package (`travel`, `booking`, …) as a separate process, for
/// end-to-end tests. The products are looked up next to the test bundle (the build's `bin`
/// directory), so build them first (`swift build`, which `Scripts/test` does).
public struct ProductRunner: Sendable {
  /// The outcome of one run.
  public struct Result: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
      self.status = status
      self.stdout = stdout
      self.stderr = stderr
    }
  }

  /// Errors of locating or starting a product.
  public enum Failure: Error, CustomStringConvertible {
    case productNotBuilt(String, searched: String)
    /// A server that never said where it listens, with what it printed.
    case didNotStart(String, output: String)
    public var description: String {
      switch self {
      case .productNotBuilt(let name, let dir): "product '\(name)' is not built in \(dir): run `swift build` first"
      case .didNotStart(let name, let output): "\(name) did not start: \(output)"
      }
    }
  }

  /// The build's binary directory.
  public let binDirectory: URL

  public init() {
    var url = Bundle.main.bundleURL
    // Under some runners the bundle is the `.xctest` directory itself.
    if url.pathExtension == "xctest" { url = url.deletingLastPathComponent() }
    binDirectory = url
  }

  /// The path of product `name`.
  public func executable(_ name: String) throws -> URL {
    let url = binDirectory.appendingPathComponent(name)
    guard FileManager.default.isExecutableFile(atPath: url.path) else {
      throw Failure.productNotBuilt(name, searched: binDirectory.path)
    }
    return url
  }

  /// Runs `name` with `arguments`, feeding `stdin` and an environment made of `environment`
  /// over a minimal base (PATH, HOME, LANG). Waits for it to exit.
  public func run(
    _ name: String, _ arguments: [String], stdin: String = "", environment: [String: String] = [:]
  ) throws -> Result {
    let process = Process()
    process.executableURL = try executable(name)
    process.arguments = arguments
    var env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8"]
    env["HOME"] = ProcessInfo.processInfo.environment["HOME"] ?? "/tmp"
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let input = Pipe()
    let output = Pipe()
    let error = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = error
    try process.run()
    input.fileHandleForWriting.write(Data(stdin.utf8))
    try? input.fileHandleForWriting.close()
    // Read both pipes to the end before waiting, so a chatty child never blocks on a full pipe.
    let group = DispatchGroup()
    nonisolated(unsafe) var errData = Data()
    group.enter()
    DispatchQueue.global().async {
      errData = error.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    let outData = output.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus,
      stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }
}
