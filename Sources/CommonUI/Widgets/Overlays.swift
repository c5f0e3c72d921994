import Common
import Dispatch

/// A modal sheet: dims what is behind it and draws a titled box centred over it. Draw the
/// screen first, then the sheet, then the sheet's contents into ``contentArea(in:)``.
///
/// ```swift
/// let sheet = Sheet(title: "Edit profile", width: 48, height: 9)
/// sheet.render(in: area, into: &buffer)
/// form.render(in: sheet.contentArea(in: area), into: &buffer)
/// ```
public struct Sheet: Widget {
  public var title: String
  /// Outer size of the box in cells, border included (clamped to the area).
  public var width: Int
  public var height: Int

  public init(title: String, width: Int, height: Int) {
    self.title = L(english: title)
    self.width = width
    self.height = height
  }

  /// The box, centred in `area`.
  public func frame(in area: Rect) -> Rect { area.centered(width: width, height: height) }

  /// Inside the box: a border and one column of padding on each side.
  public func contentArea(in area: Rect) -> Rect { frame(in: area).inset(horizontal: 2, vertical: 1) }

  public func render(in area: Rect, into buffer: inout Buffer) {
    buffer.patchStyle(area, buffer.theme.muted.withoutColor.adding(.dim))
    Block(title: title).render(in: frame(in: area), into: &buffer)
  }
}

/// What an alert says: a title, a message and its buttons (the first is the default). Screens
/// publish one to show it; the shell shows it over everything until Enter or Esc.
public struct AlertContent: Hashable, Sendable {
  public var title: String
  public var message: String
  public var buttons: [String]

  public init(title: String, message: String, buttons: [String] = ["OK"]) {
    self.title = title
    self.message = message
    self.buttons = buttons
  }
}

/// An alert: a small sheet with the title, the message word-wrapped, and a row of buttons with
/// `selected` highlighted.
public struct Alert: Widget {
  public var content: AlertContent
  public var selected: Int

  /// The content is English; shown in the current language where the tables have it.
  public init(_ content: AlertContent, selected: Int = 0) {
    self.content = AlertContent(
      title: L(english: content.title), message: L(english: content.message),
      buttons: content.buttons.map { L(english: $0) })
    self.selected = selected
  }

  public init(title: String, message: String, buttons: [String] = ["OK"]) {
    self.init(AlertContent(title: title, message: message, buttons: buttons))
  }

  private func size(in area: Rect) -> (width: Int, height: Int) {
    let buttonsWidth = content.buttons.reduce(0) { $0 + Button($1).width + 1 }
    let width = min(
      area.width,
      max(30, min(60, max(DisplayWidth.of(content.message), DisplayWidth.of(content.title)) + 6), buttonsWidth + 4))
    let lines = Paragraph.wrap(content.message, width: max(1, width - 4)).count
    return (width, min(area.height, lines + 4))
  }

  public func render(in area: Rect, into buffer: inout Buffer) {
    let (width, height) = size(in: area)
    let sheet = Sheet(title: content.title, width: width, height: height)
    sheet.render(in: area, into: &buffer)
    let inner = sheet.contentArea(in: area)
    guard inner.height >= 1 else { return }
    let rows = inner.rows([.fill, .length(1)])
    Paragraph(content.message, style: buffer.theme.base).render(in: rows[0].inset(bottom: 1), into: &buffer)
    let buttonsWidth = content.buttons.reduce(0) { $0 + Button($1).width + 1 } - 1
    var x = rows[1].x + max(0, (rows[1].width - buttonsWidth) / 2)
    for (index, title) in content.buttons.enumerated() {
      let button = Button(title, focused: index == selected)
      button.render(in: Rect(x: x, y: rows[1].y, width: rows[1].right - x, height: 1), into: &buffer)
      x += button.width + 1
    }
  }
}

/// A spinner (braille dots turning) with a label, for work in progress. `frame` picks the
/// picture; by default it follows the clock (a new picture every 100 ms), so a screen that
/// shows one asks the shell for animation frames (``Screen/isAnimating``).
public struct Spinner: Widget {
  public static let frames: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
  public var label: String
  public var frame: Int

  public init(_ label: String, frame: Int? = nil) {
    self.label = label
    self.frame = frame ?? Spinner.clockFrame()
  }

  /// The frame for now: a new one every 100 ms of uptime.
  public static func clockFrame() -> Int {
    Int(DispatchTime.now().uptimeNanoseconds / 100_000_000)
  }

  public func render(in area: Rect, into buffer: inout Buffer) {
    guard !area.isEmpty else { return }
    let symbol = Self.frames[((frame % Self.frames.count) + Self.frames.count) % Self.frames.count]
    buffer.write(String(symbol), x: area.x, y: area.y, maxWidth: area.width, style: buffer.theme.accent)
    buffer.write(label, x: area.x + 2, y: area.y, maxWidth: area.width - 2, style: buffer.theme.base)
  }
}

/// A progress bar with eighth-cell precision and the percentage (or a label) after it:
/// `███████▍        42%`.
public struct ProgressBar: Widget {
  /// Done so far, `0...1` (clamped).
  public var fraction: Double
  public var label: String?

  public init(fraction: Double, label: String? = nil) {
    self.fraction = fraction
    self.label = label
  }

  public func render(in area: Rect, into buffer: inout Buffer) {
    guard !area.isEmpty else { return }
    let clamped = fraction.isNaN ? 0 : min(1, max(0, fraction))
    let text = label ?? L("\(Int((clamped * 100).rounded(.down)))%")
    let textWidth = min(area.width, DisplayWidth.of(text))
    let barWidth = max(0, area.width - textWidth - 1)
    let eighths = Int((clamped * Double(barWidth * 8)).rounded(.down))
    let partials: [String] = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
    for column in 0..<barWidth {
      let filled = eighths - column * 8
      let symbol = filled >= 8 ? "█" : filled > 0 ? partials[filled] : "·"
      let style = filled > 0 ? buffer.theme.accent.withoutAttributes : buffer.theme.muted
      buffer.set(x: area.x + column, y: area.y, Cell(symbol, style: style))
    }
    Label(text, style: buffer.theme.base).alignment(.trailing).render(in: area.row(0), into: &buffer)
  }
}

extension Style {
  /// The colours of the style without its attributes.
  var withoutAttributes: Style { Style(foreground: foreground, background: background) }
}
