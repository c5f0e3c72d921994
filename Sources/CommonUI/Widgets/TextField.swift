import Common

/// The text of a one-line field and where its cursor is, edited by keys. Kept by the screen (or
/// its view model) between frames and drawn by ``TextField``.
///
/// Keys (``handle(_:)``): printable characters insert at the cursor; Backspace / Delete remove
/// before / at it; ← → move by a character; Home / Ctrl-A and End / Ctrl-E jump; Ctrl-U clears
/// to the start, Ctrl-K to the end; a paste inserts its text with line breaks and tabs turned
/// into spaces. Cursor positions count grapheme clusters (`Character`s), so `é` or `東` is one step.
public struct TextFieldState: Hashable, Sendable {
  /// The text (setting it moves the cursor to the end).
  public var text: String {
    didSet { cursor = text.count }
  }
  /// The cursor as a character offset, `0...text.count`.
  public private(set) var cursor: Int
  /// Longest text accepted, in characters (nil: no limit); longer input is cut.
  public var maxLength: Int?

  public init(text: String = "", maxLength: Int? = nil) {
    self.text = text
    self.cursor = text.count
    self.maxLength = maxLength
  }

  /// Moves the cursor to `position` (clamped to the text).
  public mutating func moveCursor(to position: Int) { cursor = min(max(0, position), text.count) }

  /// Inserts `string` at the cursor (cut to ``maxLength``) and moves the cursor after it.
  public mutating func insert(_ string: String) {
    var addition = string
    if let maxLength { addition = String(addition.prefix(max(0, maxLength - text.count))) }
    guard !addition.isEmpty else { return }
    let index = text.index(text.startIndex, offsetBy: cursor)
    let newCursor = cursor + addition.count
    text.insert(contentsOf: addition, at: index)
    cursor = min(newCursor, text.count)
  }

  /// Applies an editing key. - Returns: whether the key was used (others pass to the screen).
  public mutating func handle(_ key: Key) -> Bool {
    switch key {
    case .character(let c):
      insert(String(c))
    case .paste(let pasted):
      insert(String(pasted.map { $0.isNewline || $0 == "\t" ? " " : $0 }))
    case .backspace:
      guard cursor > 0 else { return true }
      let index = text.index(text.startIndex, offsetBy: cursor - 1)
      let newCursor = cursor - 1
      text.remove(at: index)
      cursor = newCursor
    case .delete:
      guard cursor < text.count else { return true }
      let newCursor = cursor
      text.remove(at: text.index(text.startIndex, offsetBy: cursor))
      cursor = newCursor
    case .left: moveCursor(to: cursor - 1)
    case .right: moveCursor(to: cursor + 1)
    case .home, .control("a"): cursor = 0
    case .end, .control("e"): cursor = text.count
    case .control("u"):
      text = String(text.dropFirst(cursor))
      cursor = 0
    case .control("k"):
      let newCursor = cursor
      text = String(text.prefix(cursor))
      cursor = newCursor
    default:
      return false
    }
    return true
  }
}

/// A one-line text field: an optional label, then the text on an underlined area, scrolled
/// sideways so the cursor stays visible. Focused, the cursor is a reverse-video cell; a secure
/// field shows `•` per character; an empty unfocused field shows its placeholder, dimmed.
///
/// ```swift
/// TextField("From", state: fromField).placeholder("City or airport").focused(focus == .from)
///   .render(in: row, into: &buffer)
/// ```
public struct TextField: Widget {
  public var label: String?
  public var state: TextFieldState
  public var placeholder = ""
  public var isFocused = false
  public var isSecure = false
  /// Columns given to the label (nil: its own width); aligns fields of a form.
  public var labelWidth: Int?

  public init(_ label: String? = nil, state: TextFieldState) {
    self.label = label.map { L(english: $0) }
    self.state = state
  }

  public func placeholder(_ text: String) -> TextField { with { $0.placeholder = text } }
  public func focused(_ focused: Bool) -> TextField { with { $0.isFocused = focused } }
  public func secure(_ secure: Bool = true) -> TextField { with { $0.isSecure = secure } }
  public func labelWidth(_ width: Int) -> TextField { with { $0.labelWidth = width } }

  private func with(_ change: (inout TextField) -> Void) -> TextField {
    var copy = self
    change(&copy)
    return copy
  }

  public func render(in area: Rect, into buffer: inout Buffer) {
    guard !area.isEmpty else { return }
    var field = area.row(0)
    if let label {
      let width = labelWidth ?? DisplayWidth.of(label) + 1
      let style = isFocused ? buffer.theme.accent : buffer.theme.base
      buffer.write(label, x: field.x, y: field.y, maxWidth: min(width, field.width), style: style)
      field = field.inset(left: min(width, field.width))
    }
    guard field.width > 0 else { return }
    let fieldStyle = buffer.theme.base.adding(.underline)
    buffer.fill(field, style: fieldStyle)
    let characters: [Character] = isSecure ? Array(repeating: "•", count: state.text.count) : Array(state.text)
    if characters.isEmpty, !placeholder.isEmpty, !isFocused {
      buffer.write(
        placeholder, x: field.x, y: field.y, maxWidth: field.width, style: buffer.theme.muted.adding(.underline))
      return
    }
    // Scroll: the first character shown is the one that leaves room for the text up to the cursor
    // and the cursor cell itself.
    let widths = characters.map(DisplayWidth.of)
    let cursor = min(state.cursor, characters.count)
    var start = 0
    var before = widths[0..<cursor].reduce(0, +)
    while start < cursor, before + 1 > field.width {
      before -= widths[start]
      start += 1
    }
    var x = field.x
    var index = start
    while index < characters.count, x + widths[index] <= field.right {
      let style = isFocused && index == cursor ? buffer.theme.selection : fieldStyle
      x += buffer.write(String(characters[index]), x: x, y: field.y, maxWidth: field.right - x, style: style)
      index += 1
    }
    if isFocused, cursor == characters.count, x < field.right {
      buffer.set(x: x, y: field.y, Cell(" ", style: buffer.theme.selection))
    }
  }
}

/// A button: `[ Title ]`, highlighted when focused.
public struct Button: Widget {
  public var title: String
  public var isFocused: Bool

  public init(_ title: String, focused: Bool = false) {
    self.title = L(english: title)
    self.isFocused = focused
  }

  /// Columns the button takes.
  public var width: Int { DisplayWidth.of(title) + 4 }

  public func render(in area: Rect, into buffer: inout Buffer) {
    let style = isFocused ? buffer.theme.selection : buffer.theme.accent
    buffer.write("[ \(title) ]", x: area.x, y: area.y, maxWidth: area.width, style: style)
  }
}
