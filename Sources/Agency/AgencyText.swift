import Common
import Foundation

/// How the agents' commands print the queue, a conversation and a traveller's trips.
enum AgencyText {
  /// `waiting 12 min`, `waiting 2 h 5 min`, `answered`.
  static func waiting(_ conversation: Conversation, now: Date) -> String {
    guard let since = conversation.waitingSince else { return "answered" }
    let minutes = max(0, Int(now.timeIntervalSince(since) / 60))
    if minutes < 1 { return L("waiting <1 min") }
    if minutes < 60 { return L("waiting \(minutes) min") }
    return L("waiting \(minutes / 60) h \(minutes % 60) min")
  }

  static func holder(_ conversation: Conversation) -> String {
    if conversation.heldByMe { return "you" }
    return conversation.agentName ?? "queue"
  }

  static func queue(_ queue: [Conversation], now: Date) -> String {
    guard !queue.isEmpty else { return L("The queue is empty: no open conversation.") }
    var lines = [L("#      waiting           unread  held by         traveller")]
    for conversation in queue {
      let id = "#\(conversation.id)".padding(toLength: 6, withPad: " ", startingAt: 0)
      let wait = waiting(conversation, now: now).padding(toLength: 17, withPad: " ", startingAt: 0)
      let unread = String(conversation.unread).padding(toLength: 7, withPad: " ", startingAt: 0)
      let holder = holder(conversation).padding(toLength: 15, withPad: " ", startingAt: 0)
      let trip = conversation.trip.map { " · \($0.summary)" } ?? ""
      lines.append("\(id) \(wait) \(unread) \(holder) \(conversation.travellerName)\(trip)")
    }
    return lines.joined(separator: "\n")
  }

  static func thread(_ thread: ChatThread) -> String {
    let c = thread.conversation
    var lines = [
      "Conversation #\(c.id) · \(c.status.rawValue) · \(c.travellerName) <\(c.travellerEmail)> · held by \(holder(c))"
    ]
    if let trip = c.trip { lines.append(L("About: \(trip.summary)") + (trip.locator.map { " (\($0))" } ?? "")) }
    for message in thread.messages {
      let who = message.sender == .agent ? "\(message.senderName) (agent)" : message.senderName
      let mark = message.sender == .agent ? "  \(message.state.mark)" : ""
      let trip = message.trip.map { L(" [trip: \($0.summary)]") } ?? ""
      lines.append("\(ChatText.time(message.sentAt))  \(who): \(message.text)\(trip)\(mark)")
    }
    return lines.joined(separator: "\n")
  }

  static func trips(_ trips: [Reservation]) -> String {
    guard !trips.isEmpty else { return L("The traveller has no trips.") }
    return trips.map { reservation in
      let locator = reservation.locator.map { " (\($0))" } ?? ""
      return "\(reservation.id)  \(reservation.kind.rawValue)  \(reservation.status.rawValue)  "
        + "\(reservation.summary)\(locator)  \(reservation.total.formatted())"
    }.joined(separator: "\n")
  }
}
