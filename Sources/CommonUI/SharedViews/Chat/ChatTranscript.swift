import Common
import Foundation

/// A conversation as lines of text, for the chat sheet and the agents' console: each message as
/// a line naming who wrote it and when (`You · 14:02  ✓✓ read`, `Grace Hopper, agent · 14:03`),
/// then its text wrapped and indented; an attached trip as `↳ trip: SFO → JFK … (ABC123)`; queued
/// messages as `You · queued ⌛`. Own messages carry their mark (sent ✓, delivered ✓✓, read).
public struct ChatTranscript: Widget {
  public var messages: [ChatMessage]
  public var pending: [PendingChatMessage]
  /// Whose messages are "You".
  public var viewer: ChatSender
  /// Times are shown in this zone (the machine's in the apps).
  public var timeZone: TimeZone

  public init(
    messages: [ChatMessage], pending: [PendingChatMessage] = [], viewer: ChatSender, timeZone: TimeZone = .current
  ) {
    self.messages = messages
    self.pending = pending
    self.viewer = viewer
    self.timeZone = timeZone
  }

  /// Every line at `width` columns, oldest first.
  public func lines(width: Int, theme: Theme) -> [Line] {
    var lines: [Line] = []
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = timeZone
    formatter.dateFormat = "HH:mm"
    for message in messages {
      let own = message.sender == viewer
      let who = own ? "You" : message.sender == .agent ? "\(message.senderName), agent" : message.senderName
      var spans = [Span("\(who) · \(formatter.string(from: message.sentAt))", style: own ? theme.muted : theme.accent)]
      if own {
        spans.append(Span("  \(message.state.mark)", style: message.state == .read ? theme.success : theme.muted))
      }
      lines.append(Line(spans))
      if let trip = message.trip {
        lines.append(Line(L("  ↳ trip: \(Self.describe(trip))"), style: theme.muted))
      }
      for row in Paragraph.wrap(message.text, width: max(1, width - 2)) {
        lines.append(Line("  " + row, style: theme.base))
      }
    }
    for message in pending {
      lines.append(Line([Span(L("You · queued  ⌛"), style: theme.warning)]))
      for row in Paragraph.wrap(message.text, width: max(1, width - 2)) {
        lines.append(Line("  " + row, style: theme.muted))
      }
    }
    return lines
  }

  /// `SFO → JFK, UA 123, 2026-12-20 (ABC123)`.
  public static func describe(_ trip: AttachedTrip) -> String {
    trip.summary + (trip.locator.map { " (\($0))" } ?? "")
  }

  /// Draws the newest lines that fit, bottom-aligned (as a chat scrolls).
  public func render(in area: Rect, into buffer: inout Buffer) {
    guard area.height > 0, area.width > 0 else { return }
    let all = lines(width: area.width, theme: buffer.theme)
    let shown = all.suffix(area.height)
    for (index, line) in shown.enumerated() {
      _ = buffer.write(line, x: area.x, y: area.y + index, maxWidth: area.width)
    }
  }
}
