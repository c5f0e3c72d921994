import Reactive

/// One screen of the interactive app, implemented by the features (search form, results,
/// details, booking, …): a thin view over a view model. The shell (``InteractiveApp``) owns the
/// terminal, draws the header and footer, and gives the screen the area between them.
///
/// - ``render(in:into:)`` draws the current state — the view model's outputs and the screen's
///   own UI state (focus, ``TextFieldState``, ``SelectionState``) — every frame, from scratch.
/// - ``handle(_:)`` gets each key first; return ``KeyResult/ignored`` to let the shell apply its
///   own meaning (Esc goes back, `q` quits, `?` help, digits / Tab switch tabs).
/// - ``changes`` tells the shell when view-model state changed, so it redraws (coalesced to at
///   most one frame per 16 ms). Keys the screen handled are redrawn anyway.
/// - ``navigation`` publishes what the user wants next (push a screen, go back, show an alert,
///   switch tab, quit); the shell does it. No delegates.
///
/// Publishers may emit on any thread; the shell hops to the main thread.
///
/// ```swift
/// @MainActor final class ProfileScreen: Screen {
///   let title = "Profile"
///   private let model: ProfileViewModel
///   private var name = TextFieldState()
///   private let intents = PassthroughSubject<Navigation, Never>()
///   init(model: ProfileViewModel) { self.model = model }
///
///   var changes: AnyPublisher<Void, Never> { model.$profile.map { _ in () }.eraseToAnyPublisher() }
///   var navigation: AnyPublisher<Navigation, Never> { intents.eraseToAnyPublisher() }
///   var isEditingText: Bool { true }
///   var keyHints: [KeyHint] { [KeyHint("Enter", "save")] }
///
///   func render(in area: Rect, into buffer: inout Buffer) {
///     Label("Hello, \(model.profile.firstName)", style: buffer.theme.accent).render(in: area.row(0), into: &buffer)
///     TextField("First name", state: name).focused(true).render(in: area.row(2), into: &buffer)
///   }
///
///   func handle(_ key: Key) -> KeyResult {
///     if key == .enter { model.saveTapped(firstName: name.text); return .handled }
///     return name.handle(key) ? .handled : .ignored
///   }
/// }
/// ```
@MainActor
public protocol Screen: AnyObject {
  /// The screen's name, shown in the header's trail ("Results", "LH 400").
  var title: String { get }
  /// The screen's keys for the footer and the help (the shell adds its own).
  var keyHints: [KeyHint] { get }
  /// Whether a text field has focus: then `q`, `?` and digits are text, not commands.
  var isEditingText: Bool { get }
  /// Whether something moves on its own (a ``Spinner``): the shell then redraws ten times a second.
  var isAnimating: Bool { get }
  /// Draws the screen into `area`.
  func render(in area: Rect, into buffer: inout Buffer)
  /// Handles a key; ``KeyResult/ignored`` passes it to the shell.
  func handle(_ key: Key) -> KeyResult
  /// Emits whenever state that the screen shows changed.
  var changes: AnyPublisher<Void, Never> { get }
  /// Emits navigation intents.
  var navigation: AnyPublisher<Navigation, Never> { get }
}

extension Screen {
  public var keyHints: [KeyHint] { [] }
  public var isEditingText: Bool { false }
  public var isAnimating: Bool { false }
  public var changes: AnyPublisher<Void, Never> { Empty().eraseToAnyPublisher() }
  public var navigation: AnyPublisher<Navigation, Never> { Empty().eraseToAnyPublisher() }
}

/// Whether a screen used a key.
public enum KeyResult: Hashable, Sendable {
  case handled
  case ignored
}

/// What a screen asks the shell to do.
public enum Navigation {
  /// Show `screen` on top of the current one (in the current tab); Esc comes back.
  case push(any Screen)
  /// Back to the previous screen (does nothing on a tab's first screen).
  case pop
  /// Back to the tab's first screen.
  case popToRoot
  /// Replace the current screen (e.g. booking → confirmation, so Esc does not return to the form).
  case replace(any Screen)
  /// Switch to the tab titled `title` (e.g. "Account" to sign in).
  case selectTab(String)
  /// Show an alert over everything until Enter or Esc.
  case alert(AlertContent)
  /// Leave the app with exit status 0.
  case quit
}

/// A tab of the app: its title (a feature's name, shown in the header) and its first screen.
public struct AppTab {
  public var title: String
  public var root: any Screen

  public init(_ title: String, root: any Screen) {
    self.title = title
    self.root = root
  }
}
