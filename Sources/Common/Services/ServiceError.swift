import Foundation

/// The error every service of the app fails with: what went wrong, in words a user can act on,
/// and a stable snake_case code for scripts (`sold_out`, `price_changed`, `invalid_date`, …).
///
/// `kind` decides the command-line exit status (see ``cliError``): `.invalidInput` is bad usage
/// (exit 2); every other kind is a refusal or failure (exit 1).
public struct ServiceError: Error, Equatable, Hashable, Sendable, LocalizedError, Codable {
  /// The broad class of a failure.
  public enum Kind: String, Sendable, Codable {
    /// The request itself is invalid (malformed date, unknown airport): the caller must change it.
    case invalidInput
    /// Not signed in, or the session is unknown or expired.
    case unauthenticated
    /// The thing asked for does not exist (or is not the caller's).
    case notFound
    /// The operation was refused: sold out, price changed, card declined, already cancelled.
    case refused
    /// Storage or another part of the system failed; retrying may help.
    case unavailable
  }

  public var kind: Kind
  /// snake_case, stable: scripts and tests rely on it.
  public var code: String
  /// The human message: what was wrong and what is accepted.
  public var message: String
  /// Extra fields for the JSON error document (e.g. `offerId` and `price` of `price_changed`).
  public var details: [String: String]

  /// - Parameter message: what was wrong and what is accepted; its quoted parts (echoed input)
  ///   are escaped and a long one cut to a short prefix (``EchoedInput/bounded(_:)``).
  public init(_ kind: Kind, code: String, message: String, details: [String: String] = [:]) {
    self.kind = kind
    self.code = code
    self.message = EchoedInput.bounded(message)
    self.details = details
  }

  /// Shorthand for an ``Kind/invalidInput`` error.
  public static func invalid(_ code: String, _ message: String) -> ServiceError {
    ServiceError(.invalidInput, code: code, message: message)
  }

  /// Shorthand for a ``Kind/refused`` error.
  public static func refused(_ code: String, _ message: String, details: [String: String] = [:]) -> ServiceError {
    ServiceError(.refused, code: code, message: message, details: details)
  }

  /// The error every command reports when a signed-in user is needed (exit 1).
  public static let notSignedIn = ServiceError(
    .unauthenticated, code: "not_signed_in", message: "sign in first: account login --email …")

  public var errorDescription: String? { message }

  /// The same failure as a command-line error: exit 2 for invalid input, else exit 1.
  public var cliError: CLIError {
    CLIError(code: code, message: message, exitStatus: kind == .invalidInput ? 2 : 1, details: details)
  }
}
