import Common
import Reactive

/// A shared view the shell opens over any tab by one key, whatever screen is shown (the chat
/// with a travel agent): its key is in the footer of every screen, its badge in the header of
/// every tab. The apps attach it (``InteractiveFeature/overlays``); features know nothing of it.
///
/// While it is open it gets every key first (Ctrl-C and Ctrl-Z stay the shell's); a key it
/// ignores does nothing, except Esc and its own key, which close it.
@MainActor
public protocol AppOverlay: AnyObject {
  /// The key that opens (and closes) it, e.g. Ctrl-T.
  var key: Key { get }
  /// The footer's hint for the key ("Ctrl-T chat").
  var hint: KeyHint { get }
  /// Text for the header on every tab ("Chat: 2 unread"), nil for none.
  var badge: AnyPublisher<String?, Never> { get }
  /// The footer's hints while it is open.
  var keyHints: [KeyHint] { get }
  /// Emits when what it shows changed.
  var changes: AnyPublisher<Void, Never> { get }
  /// Called when it opens and closes.
  func setOpen(_ isOpen: Bool)
  /// Draws it over the screen area.
  func render(in area: Rect, into buffer: inout Buffer)
  /// Handles a key while open.
  func handle(_ key: Key) -> KeyResult
}
