import Foundation
import Transport

/// The structured access log: one JSON object per line per request, written by `write` (stderr by
/// default): `{"time", "remote", "method", "path", "status", "bytes", "ms", "requestId"?, "error"?}`.
///
/// Only the path is logged: never the query, the headers or the body, so no token, password or
/// card number can reach the log (a test greps it for them). `error` is the error code of a failed
/// request (`sold_out`), never its message (which may echo input).
struct AccessLog: Sendable {
  var write: @Sendable (String) -> Void

  static let standardError = AccessLog { line in
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }

  static let discard = AccessLog { _ in }

  func record(_ request: HTTPRequest, _ response: HTTPResponse, seconds: TimeInterval, errorCode: String?) {
    var fields: [(String, String)] = [
      ("time", Self.quoted(Self.iso(request.receivedAt))),
      ("remote", Self.quoted(request.remoteAddress)),
      ("method", Self.quoted(request.method)),
      ("path", Self.quoted(String(request.path.prefix(300)))),
      ("status", "\(response.status)"),
      ("bytes", "\(response.body.count)"),
      ("ms", String(format: "%.3f", seconds * 1000)),
    ]
    if let id = request.header("x-request-id"), id.count <= 100 { fields.append(("requestId", Self.quoted(id))) }
    if let errorCode { fields.append(("error", Self.quoted(errorCode))) }
    write("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
  }

  private static func iso(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.string(from: date)
  }

  /// `text` as a JSON string literal.
  static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 {
          out += String(format: "\\u%04x", scalar.value)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }
}
