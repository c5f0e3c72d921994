import Common
import Foundation

/// Why a profile cannot be saved. Its `errorDescription` is the message users see
/// ("First Name is missing"), in English; ``message(in:)`` gives it in the user's language.
public enum UserProfileError: Error, Equatable, Sendable, LocalizedError {
  /// The first name is empty after trimming whitespace.
  case firstNameMissing
  /// The last name is empty after trimming whitespace.
  case lastNameMissing
  /// A name with a control character or too long (``AccountInputRules/nameProblem(_:field:)``):
  /// its snake_case code and English message.
  case invalidName(code: String, message: String)

  public var errorDescription: String? { message(in: .english) }

  /// The message in the language of `strings`.
  public func message(in strings: Strings) -> String {
    switch self {
    case .firstNameMissing: strings[.profileFirstNameMissing]
    case .lastNameMissing: strings[.profileLastNameMissing]
    case .invalidName(_, let message): message
    }
  }

  /// The stable snake_case code of the command line (`first_name_missing`).
  public var code: String {
    switch self {
    case .firstNameMissing: "first_name_missing"
    case .lastNameMissing: "last_name_missing"
    case .invalidName(let code, _): code
    }
  }

  /// The same failure on the command line: invalid input, exit 2.
  public var cliError: CLIError { .usage(message(in: .english), code: code) }
}

/// The rules of a savable profile, shared by the profile editor and the `profile` command.
public enum ProfileRules {
  /// `profile` with first and last name trimmed of whitespace and newlines.
  /// - Throws: ``UserProfileError/firstNameMissing`` or ``UserProfileError/lastNameMissing``
  ///   (first name checked first) when a name is blank; ``UserProfileError/invalidName(code:message:)``
  ///   for a control character or more than 100 characters.
  public static func validated(_ profile: UserProfile) throws(UserProfileError) -> UserProfile {
    var trimmed = profile
    trimmed.firstName = profile.firstName.trimmingCharacters(in: .whitespacesAndNewlines)
    trimmed.lastName = profile.lastName.trimmingCharacters(in: .whitespacesAndNewlines)
    trimmed.email = profile.email.trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.firstName.isEmpty { throw .firstNameMissing }
    if trimmed.lastName.isEmpty { throw .lastNameMissing }
    for (name, field) in [(trimmed.firstName, L("First Name")), (trimmed.lastName, L("Last Name"))] {
      if let problem = AccountInputRules.nameProblem(name, field: field) {
        throw .invalidName(code: problem.code, message: problem.message)
      }
    }
    return trimmed
  }
}

/// The shape checks of sign-up and sign-in input that the feature makes before it asks for a
/// password (the account service checks them again).
public enum SignUpRules {
  /// The fewest characters of a password.
  public static let minimumPasswordLength = 10

  /// `text` trimmed and lowercased, if it looks like `local@domain.tld`.
  /// - Throws: `invalid_email` (``ServiceError/Kind/invalidInput``).
  public static func email(_ text: String) throws -> String {
    let email = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    let parts = email.split(separator: "@", omittingEmptySubsequences: false)
    let domainLabels = parts.count == 2 ? parts[1].split(separator: ".", omittingEmptySubsequences: false) : []
    guard parts.count == 2, !parts[0].isEmpty, domainLabels.count >= 2, domainLabels.allSatisfy({ !$0.isEmpty }),
      !email.contains(where: { $0.isWhitespace || $0.isNewline })
    else {
      throw ServiceError.invalid(
        "invalid_email", L("invalid email \"\(text)\": expected an address like name@example.com"))
    }
    return email
  }

  /// - Throws: `password_too_short` when `password` has fewer than 10 characters, `password_blank`
  ///   when they are all whitespace (``AccountInputRules/checkPassword(_:)``).
  public static func checkPassword(_ password: String) throws {
    try AccountInputRules.checkPassword(password)
  }
}
