import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Plain words for why an operation failed (most often a file operation), for messages a user reads.
///
/// Foundation's own texts ("The operation could not be completed. (NSCocoaErrorDomain error
/// 512.)") never reach a user: a `CocoaError` or `POSIXError` becomes the system's wording of its
/// cause ("permission denied", "no such file or directory", "no space left on device"); our own
/// errors (``ServiceError``, ``CLIError``, any other `LocalizedError` of the app) give their
/// message; a `DecodingError` the field at fault; anything else a generic sentence naming the type,
/// so a bug is reported rather than hidden.
public enum ErrorText {
  /// The reason `error` gives, in lower-case words without a final period.
  public static func reason(of error: any Error) -> String {
    switch error {
    case let error as ServiceError: return error.message
    case let error as CLIError: return error.message
    case let error as POSIXError: return reason(errno: error.code.rawValue)
    case let error as CocoaError: return reason(cocoa: error)
    case let error as DecodingError: return decodingReason(error)
    default:
      let bridged = error as NSError
      if bridged.domain == NSPOSIXErrorDomain { return reason(errno: Int32(bridged.code)) }
      if let underlying = bridged.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
        return reason(errno: Int32(underlying.code))
      }
      if bridged.domain == NSCocoaErrorDomain {
        return reason(cocoa: CocoaError(CocoaError.Code(rawValue: bridged.code)))
      }
      if let described = (error as? any LocalizedError)?.errorDescription { return described }
      return "unexpected failure (\(type(of: error)))"
    }
  }

  /// `strerror(code)` in lower case: "permission denied", "no such file or directory".
  public static func reason(errno code: Int32) -> String {
    guard let text = strerror(code), let words = String(validatingCString: text) else { return "error \(code)" }
    return words.prefix(1).lowercased() + words.dropFirst()
  }

  private static func reason(cocoa error: CocoaError) -> String {
    if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
      return reason(errno: Int32(underlying.code))
    }
    switch error.code {
    case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file or directory"
    case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
    case .fileWriteOutOfSpace: return "no space left on device"
    case .fileWriteVolumeReadOnly: return "the file system is read-only"
    case .fileWriteFileExists: return "something is already there"
    case .fileReadTooLarge: return "the file is too large"
    case .fileReadCorruptFile: return "the file is damaged or not in the expected format"
    case .fileReadInapplicableStringEncoding, .fileWriteInapplicableStringEncoding:
      return "the text is not in the expected encoding"
    case .fileReadInvalidFileName, .fileWriteInvalidFileName: return "the file name is not valid"
    case .fileLocking: return "the file is locked by another program"
    default: return "the file could not be read or written (error \(error.code.rawValue))"
    }
  }

  private static func decodingReason(_ error: DecodingError) -> String {
    func path(_ context: DecodingError.Context) -> String {
      let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
      return keys.isEmpty ? "the top level" : keys.joined(separator: ".")
    }
    switch error {
    case .dataCorrupted(let context): return "malformed data at \(path(context))"
    case .keyNotFound(let key, let context): return "missing field \"\(key.stringValue)\" at \(path(context))"
    case .typeMismatch(_, let context), .valueNotFound(_, let context): return "wrong value at \(path(context))"
    @unknown default: return "malformed data"
    }
  }
}
