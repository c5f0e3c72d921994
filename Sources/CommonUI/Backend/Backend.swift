/// A terminal size in cells.
public struct Size: Hashable, Sendable, CustomStringConvertible {
  public var width: Int
  public var height: Int

  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  public var description: String { "\(width)×\(height)" }
}

/// Where frames are shown: the real terminal (``TerminalBackend``) or text for tests
/// (``TestBackend``).
public protocol Backend: AnyObject {
  /// The current size of the screen in cells.
  func size() -> Size
  /// Shows `buffer` (a backend may write only what changed since the last frame).
  func draw(_ buffer: Buffer)
  /// Forgets what is on screen, so the next ``draw(_:)`` writes every cell (after a resize, after
  /// `fg`, after another program wrote to the terminal).
  func invalidate()
}

/// A backend that keeps frames in memory as text: what tests and snapshots look at.
public final class TestBackend: Backend {
  /// The screen size reported to the app; change it to simulate a resize.
  public var screenSize: Size
  /// Every frame drawn, oldest first.
  public private(set) var frames: [Buffer] = []
  /// How many times ``invalidate()`` was called.
  public private(set) var invalidations = 0

  public init(width: Int, height: Int) {
    self.screenSize = Size(width: width, height: height)
  }

  public func size() -> Size { screenSize }
  public func draw(_ buffer: Buffer) { frames.append(buffer) }
  public func invalidate() { invalidations += 1 }

  /// The last frame as plain text (``Buffer/plainText``), or "" before the first frame.
  public var text: String { frames.last?.plainText ?? "" }
}
