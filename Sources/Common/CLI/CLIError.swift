import Foundation

/// An error that ends a command with a contract exit status (see `CLI.md` of the project docs):
/// `2` for bad usage or invalid input, `1` when the operation was refused or failed.
///
/// `code` is the snake_case code of the `--json` error document; `message` is the human text
/// printed to stderr. It names what was wrong and what is accepted.
public struct CLIError: Error, Equatable, Sendable, LocalizedError {
  public var code: String
  public var message: String
  public var exitStatus: Int32
  /// Extra fields for the `--json` error document (e.g. the new offer id of `price_changed`).
  public var details: [String: String]

  /// - Parameter message: the human text; its quoted parts (echoed input) are escaped and a long
  ///   one cut to a short prefix (``EchoedInput/bounded(_:)``).
  public init(code: String, message: String, exitStatus: Int32, details: [String: String] = [:]) {
    self.code = code
    self.message = EchoedInput.bounded(message)
    self.exitStatus = exitStatus
    self.details = details
  }

  /// Bad usage or invalid input: exit status 2.
  public static func usage(_ message: String, code: String = "invalid_argument") -> CLIError {
    CLIError(code: code, message: message, exitStatus: 2)
  }

  /// The operation was refused or failed: exit status 1.
  public static func refused(_ message: String, code: String, details: [String: String] = [:]) -> CLIError {
    CLIError(code: code, message: message, exitStatus: 1, details: details)
  }

  public var errorDescription: String? { message }
}
