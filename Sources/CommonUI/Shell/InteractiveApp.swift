import Common
import Dispatch
import Foundation
import Reactive

/// The interactive app's shell: tabs of screen stacks, a header (the app's or feature's name,
/// the tabs, where you are, a status such as "Welcome, Ada Lovelace"), a footer of keys, the help
/// overlay, alerts, and the key routing every screen shares:
///
/// | key | does |
/// | --- | --- |
/// | Ctrl-C | always quits (exit status 130) |
/// | Ctrl-Z | suspends (the terminal is restored; `fg` comes back) |
/// | Esc | a screen that does not use it (to leave a field) goes back; never quits |
/// | `q` | quits, unless a text field has focus |
/// | `?` | shows the help, unless a text field has focus |
/// | `1`…`9`, Tab, Shift-Tab | switch tabs, when the screen does not use them |
///
/// Redrawing is driven by state, never by polling: ``setNeedsDisplay()`` (called for every key,
/// navigation, screen ``Screen/changes`` emission, theme change and resize) schedules one frame on
/// the main queue; calls in between are coalesced, and frames are at least 16 ms apart.
///
/// Tests drive it headless with a ``TestBackend``: ``handle(_:)`` keys, ``displayNow()``, read
/// `backend.text`. ``run()`` drives the real terminal.
@MainActor
public final class InteractiveApp {
  /// The app's name ("travel", "hotel"), shown in the header.
  public let name: String
  /// Smallest usable terminal; below it the app says so instead of drawing.
  public static let minimumSize = Size(width: 60, height: 20)
  /// Whether the last frame was drawn below ``minimumSize`` (only the message shows): then only
  /// Ctrl-C and Ctrl-Z act, so no key changes what cannot be seen.
  public private(set) var isTooSmall = false

  public private(set) var tabs: [AppTab]
  /// Screen stacks, one per tab; the last screen is on top.
  private var stacks: [[any Screen]]
  public private(set) var selectedTab = 0
  public private(set) var theme: Theme
  /// Text at the right of the header (e.g. the signed-in person's greeting).
  public var status: String? {
    didSet { setNeedsDisplay() }
  }
  public private(set) var alert: AlertContent?
  /// The notice in the header (see ``follow(notices:)``), while it shows.
  public private(set) var notice: Notice?
  /// How long a notice stays in the header.
  public var noticeDuration: DispatchQueue.SchedulerTimeType.Stride = .seconds(8)
  /// The clock that takes notices down (the main queue; a test scheduler in tests).
  public var noticeScheduler: AnySchedulerOf<DispatchQueue> = .main
  private var noticeGeneration = 0
  /// What the header says while the server cannot be reached (``follow(connection:)``); shown
  /// under any passing notice until the connection is back.
  public private(set) var connectionNotice: String?
  /// The server that could not be reached, while it cannot.
  private var unreachableServer: String?
  public private(set) var isShowingHelp = false
  /// The shared views the apps attached (``attach(_:)``), and the one open, if any.
  public private(set) var overlays: [any AppOverlay] = []
  public private(set) var openOverlay: (any AppOverlay)?
  /// The overlays' badges, shown in the header on every tab.
  private var badges: [ObjectIdentifier: String] = [:]
  /// Set when the app quit: 0 for `q` or a ``Navigation/quit``, 130 for Ctrl-C.
  public private(set) var exitStatus: Int32?

  public var backend: Backend
  /// Called once with the exit status when the app quits (``run()`` restores the terminal and exits).
  public var onQuit: ((Int32) -> Void)?
  /// Called for Ctrl-Z (``run()`` suspends the process).
  public var onSuspend: (() -> Void)?

  private var subscriptions: [ObjectIdentifier: [AnyCancellable]] = [:]
  private var appSubscriptions: [AnyCancellable] = []
  private nonisolated let schedule: @Sendable (@escaping @Sendable () -> Void) -> Void
  private nonisolated let displayLock = NSLock()
  private nonisolated(unsafe) var displayPending = false
  private var lastFrame: DispatchTime?
  /// Frames drawn so far (for tests and diagnostics).
  public private(set) var frameCount = 0

  /// - Parameters:
  ///   - name: shown at the left of the header.
  ///   - tabs: one or more; a single tab shows its title instead of a tab row.
  ///   - theme: see ``Theme/named(_:useColor:)``.
  ///   - backend: where frames go (``TestBackend`` in tests; ``run()`` replaces it with the terminal).
  ///   - schedule: how work reaches the main actor — frames, and intents published off the main
  ///     thread (default: async on the main queue); tests pass their own and run it.
  public init(
    name: String, tabs: [AppTab], theme: Theme = .monochrome, backend: Backend = TestBackend(width: 80, height: 24),
    schedule: (@Sendable (@escaping @Sendable () -> Void) -> Void)? = nil
  ) {
    precondition(!tabs.isEmpty, "InteractiveApp needs at least one tab")
    self.name = name
    self.tabs = tabs
    self.stacks = tabs.map { [$0.root] }
    self.theme = theme
    self.backend = backend
    self.schedule = schedule ?? { work in DispatchQueue.main.async(execute: work) }
    for (index, tab) in tabs.enumerated() { observe(tab.root, tab: index) }
  }

  // MARK: State

  /// The screen on top of the selected tab.
  public var currentScreen: any Screen { stacks[selectedTab].last! }
  /// Screens of the selected tab, first to top.
  public var currentStack: [any Screen] { stacks[selectedTab] }

  /// Switches theme (appearance changed, or colour turned off) and redraws.
  public func setTheme(_ theme: Theme) {
    self.theme = theme
    backend.invalidate()
    setNeedsDisplay()
  }

  /// Follows an appearance preference live: each value switches the theme (monochrome when
  /// `useColor` is false; monochrome too if the palette cannot be read).
  public func follow(appearance: AnyPublisher<Appearance, Never>, useColor: Bool) {
    appearance.sink { [weak self] value in
      let theme = (try? Theme.named(value, useColor: useColor)) ?? .monochrome
      self?.onMain { self?.setTheme(theme) }
    }.store(in: &appSubscriptions)
  }

  /// Shows each value of `publisher` at the right of the header.
  public func follow(status publisher: AnyPublisher<String?, Never>) {
    publisher.sink { [weak self] text in
      self?.onMain { self?.status = text }
    }.store(in: &appSubscriptions)
  }

  /// Shows each notice of `publisher` in the header, on every tab, for ``noticeDuration``
  /// (a newer notice replaces an older one at once). Notices may arrive on any thread.
  public func follow(notices publisher: AnyPublisher<Notice, Never>) {
    publisher.sink { [weak self] notice in
      self?.onMain { self?.show(notice) }
    }.store(in: &appSubscriptions)
  }

  /// Says in the header when the server cannot be reached ("Cannot reach 127.0.0.1:8080, retrying",
  /// until it can), and for a moment when it is back ("Connected to 127.0.0.1:8080 again"). Statuses
  /// may arrive on any thread; the first connection says nothing.
  public func follow(connection publisher: AnyPublisher<ConnectionStatus, Never>) {
    publisher.sink { [weak self] status in
      self?.onMain { self?.connectionChanged(status) }
    }.store(in: &appSubscriptions)
  }

  /// The header's reading of one connection status.
  public func connectionChanged(_ status: ConnectionStatus) {
    switch status {
    case .embedded:
      connectionNotice = nil
      unreachableServer = nil
    case .connecting:
      return
    case .unreachable(let server, _):
      let place = Self.hostAndPort(server)
      unreachableServer = place
      connectionNotice = L("Cannot reach \(place), retrying")
    case .connected:
      guard let server = unreachableServer else { return }
      unreachableServer = nil
      connectionNotice = nil
      show(Notice(L("Connected to \(server) again")))
    }
    setNeedsDisplay()
  }

  /// `127.0.0.1:8080` of `http://127.0.0.1:8080` (short enough for the header), else the text.
  static func hostAndPort(_ server: String) -> String {
    guard let url = URL(string: server), let host = url.host else { return server }
    return url.port.map { "\(host):\($0)" } ?? host
  }

  /// Shows `notice` in the header now, and takes it down after ``noticeDuration``.
  public func show(_ notice: Notice) {
    self.notice = notice
    noticeGeneration += 1
    let generation = noticeGeneration
    noticeScheduler.schedule(after: noticeScheduler.now.advanced(by: noticeDuration)) { [weak self] in
      self?.onMain {
        guard let self, self.noticeGeneration == generation else { return }
        self.notice = nil
        self.setNeedsDisplay()
      }
    }
    setNeedsDisplay()
  }

  /// Attaches a shared view opened by its key over any tab (see ``AppOverlay``).
  public func attach(_ overlay: any AppOverlay) {
    overlays.append(overlay)
    let id = ObjectIdentifier(overlay)
    overlay.changes.sink { [weak self] _ in self?.setNeedsDisplay() }.store(in: &appSubscriptions)
    overlay.badge.sink { [weak self] text in
      self?.onMain {
        self?.badges[id] = text
        self?.setNeedsDisplay()
      }
    }.store(in: &appSubscriptions)
  }

  /// Opens `overlay` (closing another one that is open), or closes it with nil.
  public func show(overlay: (any AppOverlay)?) {
    if let open = openOverlay, open !== overlay { open.setOpen(false) }
    openOverlay = overlay
    overlay?.setOpen(true)
    setNeedsDisplay()
  }

  // MARK: Navigation

  /// Does what a screen of the selected tab asked (see ``Navigation``).
  public func perform(_ navigation: Navigation) {
    perform(navigation, inTab: selectedTab)
  }

  /// Does what a screen of tab `tab` asked: pushes, pops and replaces act on that tab's stack,
  /// even while another tab is shown (a session that changed under the Account tab never pops the
  /// booking open in Hotels); alerts, tab switches and quitting act on the app.
  func perform(_ navigation: Navigation, inTab tab: Int) {
    guard stacks.indices.contains(tab) else { return }
    switch navigation {
    case .push(let screen):
      stacks[tab].append(screen)
      observe(screen, tab: tab)
    case .pop:
      popScreen(inTab: tab)
    case .popToRoot:
      while stacks[tab].count > 1 { popScreen(inTab: tab) }
    case .replace(let screen):
      if stacks[tab].count > 1 {
        popScreen(inTab: tab)
      } else {
        unobserve(stacks[tab][0])
        stacks[tab].removeAll()
      }
      stacks[tab].append(screen)
      observe(screen, tab: tab)
    case .selectTab(let title):
      if let index = tabs.firstIndex(where: { $0.title == title }) { selectTab(index) }
    case .alert(let content):
      alert = content
    case .quit:
      quit(status: 0)
    }
    setNeedsDisplay()
  }

  /// Selects tab `index` (ignored when out of range).
  public func selectTab(_ index: Int) {
    guard tabs.indices.contains(index) else { return }
    selectedTab = index
    setNeedsDisplay()
  }

  private func popScreen(inTab tab: Int? = nil) {
    let tab = tab ?? selectedTab
    guard stacks[tab].count > 1 else { return }
    unobserve(stacks[tab].removeLast())
  }

  private func observe(_ screen: any Screen, tab: Int) {
    let id = ObjectIdentifier(screen)
    var list: [AnyCancellable] = []
    screen.changes.sink { [weak self] _ in self?.setNeedsDisplay() }.store(in: &list)
    screen.navigation.sink { [weak self] intent in
      let box = UncheckedBox(intent)
      self?.onMain { self?.perform(box.value, inTab: tab) }
    }.store(in: &list)
    subscriptions[id] = list
  }

  private func unobserve(_ screen: any Screen) {
    subscriptions[ObjectIdentifier(screen)] = nil
  }

  /// Runs `work` on the main actor: now when already on the main thread, else through `schedule`
  /// (the main queue).
  nonisolated func onMain(_ work: @escaping @MainActor () -> Void) {
    if Thread.isMainThread {
      MainActor.assumeIsolated { work() }
    } else {
      let box = UncheckedBox(work)
      schedule { MainActor.assumeIsolated { box.value() } }
    }
  }

  // MARK: Keys

  /// Routes one key (see the table in the type's documentation), then redraws.
  public func handle(_ key: Key) {
    defer { setNeedsDisplay() }
    switch key {
    case .interrupt:
      quit(status: 130)
      return
    case .control("z"):
      onSuspend?()
      return
    default: break
    }
    // Below the minimum size nothing is drawn but the message: keys would act unseen.
    if isTooSmall { return }
    if alert != nil {
      if key == .enter || key == .escape || key == .character(" ") {
        self.alert = nil
      }
      return
    }
    if isShowingHelp {
      isShowingHelp = false
      return
    }
    if let overlay = openOverlay {
      if overlay.handle(key) == .ignored, key == .escape || key == overlay.key { show(overlay: nil) }
      return
    }
    if let overlay = overlays.first(where: { $0.key == key }) {
      show(overlay: overlay)
      return
    }
    let screen = currentScreen
    if screen.handle(key) == .handled { return }
    let editing = screen.isEditingText
    switch key {
    case .escape:
      popScreen()
    case .character("q") where !editing:
      quit(status: 0)
    case .character("?") where !editing:
      isShowingHelp = true
    case .character(let c) where !editing && c.isWholeNumber:
      if let digit = c.wholeNumberValue, digit >= 1 { selectTab(digit - 1) }
    case .tab where tabs.count > 1:
      selectTab((selectedTab + 1) % tabs.count)
    case .backTab where tabs.count > 1:
      selectTab((selectedTab + tabs.count - 1) % tabs.count)
    default:
      break
    }
  }

  private func quit(status: Int32) {
    guard exitStatus == nil else { return }
    exitStatus = status
    onQuit?(status)
  }

  // MARK: Drawing

  /// Asks for a frame. Safe from any thread; calls before the frame is drawn are coalesced into
  /// one, and a frame follows the previous one by at least 16 ms.
  public nonisolated func setNeedsDisplay() {
    let shouldSchedule = displayLock.withLock {
      if displayPending { return false }
      displayPending = true
      return true
    }
    guard shouldSchedule else { return }
    schedule { [weak self] in
      MainActor.assumeIsolated { self?.displayAfterFrameInterval() }
    }
  }

  private func displayAfterFrameInterval() {
    if let lastFrame {
      let next = lastFrame + .milliseconds(16)
      if DispatchTime.now() < next {
        DispatchQueue.main.asyncAfter(deadline: next) { [weak self] in
          MainActor.assumeIsolated { self?.displayNow() }
        }
        return
      }
    }
    displayNow()
  }

  /// Draws a frame now (clears a pending request).
  public func displayNow() {
    displayLock.withLock { displayPending = false }
    backend.draw(frame(size: backend.size()))
    lastFrame = DispatchTime.now()
    frameCount += 1
    if currentScreen.isAnimating, exitStatus == nil {
      DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(100)) { [weak self] in
        self?.setNeedsDisplay()
      }
    }
  }

  /// The whole screen at `size`: header, the current screen, footer, and any help or alert.
  public func frame(size: Size) -> Buffer {
    var buffer = Buffer(width: size.width, height: size.height, theme: theme)
    let area = buffer.area
    isTooSmall = size.width < Self.minimumSize.width || size.height < Self.minimumSize.height
    guard !isTooSmall else {
      let message =
        L(
          "The terminal is \(size.width)×\(size.height); \(name) needs at least "
            + "\(Self.minimumSize.width)×\(Self.minimumSize.height). Make the window larger (Ctrl-C quits).")
      let lines = Paragraph.wrap(message, width: max(1, size.width - 2))
      Paragraph(message, style: theme.warning).alignment(.center)
        .render(in: area.centered(width: max(1, size.width - 2), height: lines.count), into: &buffer)
      return buffer
    }
    let rows = area.rows([.length(1), .fill, .length(1)])
    renderHeader(in: rows[0], into: &buffer)
    currentScreen.render(in: rows[1].inset(horizontal: 1), into: &buffer)
    renderFooter(in: rows[2], into: &buffer)
    if let openOverlay { openOverlay.render(in: rows[1], into: &buffer) }
    if isShowingHelp { renderHelp(in: rows[1], into: &buffer) }
    if let alert { Alert(alert).render(in: area, into: &buffer) }
    return buffer
  }

  /// What the header shows in a given width: the app's name, the tab titles, the path of screens
  /// pushed on the tab (breadcrumbs) and the status (the overlays' badges, then the greeting).
  public struct HeaderParts: Hashable, Sendable {
    public var name: String
    public var tabs: [String]
    public var crumbs: [String]
    public var badges: [String]
    public var greeting: String?

    /// The status at the right: the badges, then the greeting, joined by " · " (nil: nothing).
    public var status: String? { (badges + [greeting].compactMap { $0 }).joined(separator: " · ").nilIfEmpty }

    /// Columns taken when drawn as ``InteractiveApp`` draws the header.
    public var width: Int {
      let nameWidth = name.isEmpty ? 0 : DisplayWidth.of(name) + 2
      let tabsWidth = tabs.reduce(0) { $0 + DisplayWidth.of($1) + 2 } + max(0, tabs.count - 1)
      let crumbsWidth = crumbs.reduce(0) { $0 + DisplayWidth.of($1) + 3 }
      return nameWidth + tabsWidth + crumbsWidth + (status.map { DisplayWidth.of($0) + 2 } ?? 0)
    }

    /// These parts cut to `columns`, the least important first, never what tells two things apart
    /// (#14: at 60 columns the header dropped the Account tab and kept the greeting):
    /// 1. the greeting (the Account tab says who is signed in);
    /// 2. the breadcrumbs but the screen on top;
    /// 3. the app's name;
    /// 4. the screen on top, shortened (to `…` at least);
    /// 5. the tab titles, shortened to their shortest prefixes that still differ (at least 3
    ///    characters: `Fli│Hot│Car`), the longest first;
    /// 6. the badges (unread chat last of all: then the line is cut at the right edge).
    public func fitting(_ columns: Int) -> HeaderParts {
      var parts = self
      while parts.width > columns {
        if parts.greeting != nil {
          parts.greeting = nil
        } else if parts.crumbs.count > 1 {
          parts.crumbs.removeFirst()
        } else if !parts.name.isEmpty {
          parts.name = ""
        } else if let crumb = parts.crumbs.last, DisplayWidth.of(crumb) > 1 {
          let excess = parts.width - columns
          parts.crumbs[parts.crumbs.count - 1] = DisplayWidth.truncate(
            crumb, to: max(1, DisplayWidth.of(crumb) - excess))
        } else if let index = parts.shortenableTab() {
          let title = parts.tabs[index]
          parts.tabs[index] = String(title.prefix(title.count - 1))
        } else if !parts.badges.isEmpty {
          parts.badges.removeFirst()
        } else {
          break
        }
      }
      return parts
    }

    /// The longest tab title that can lose a character and still differ from every other title's
    /// start (3 characters at least); nil when none can.
    private func shortenableTab() -> Int? {
      let candidates = tabs.indices.filter { index in
        let shorter = tabs[index].prefix(tabs[index].count - 1)
        return shorter.count >= 3
          && !tabs.indices.contains { $0 != index && tabs[$0].lowercased().hasPrefix(shorter.lowercased()) }
      }
      return candidates.max { tabs[$0].count < tabs[$1].count }
    }
  }

  /// The header's parts now, before fitting.
  var headerParts: HeaderParts {
    HeaderParts(
      name: name, tabs: tabs.map { L(english: $0.title) },
      crumbs: currentStack.dropFirst().map { L(english: $0.title) },
      badges: overlays.compactMap { badges[ObjectIdentifier($0)] }, greeting: status)
  }

  private func renderHeader(in area: Rect, into buffer: inout Buffer) {
    let bar = theme.bar
    buffer.fill(area, style: bar)
    let shown =
      notice.map { ($0.text, theme.selection.adding(.bold)) }
      ?? connectionNotice.map { ($0, theme.warning.adding(.bold)) }
    // A notice takes the right of the header (over the status), at most what is left after the
    // tabs (cut to their shortest) or two thirds of the width.
    var notice: (text: String, style: Style)?
    var parts = headerParts
    parts.greeting = nil
    parts.badges = []
    if let (message, style) = shown {
      let least = parts.fitting(0).width
      let room = max(12, min(area.width - least, area.width * 2 / 3))
      let text = " ● " + DisplayWidth.truncate(message, to: max(0, room - 4)) + " "
      notice = (text, style)
      parts = parts.fitting(area.width - DisplayWidth.of(text))
    } else {
      parts = headerParts.fitting(area.width)
    }
    var x = area.x
    if !parts.name.isEmpty { x += buffer.write(" \(parts.name) ", x: x, y: area.y, style: bar.adding(.bold)) }
    var spans: [Span] = []
    if parts.tabs.count > 1 {
      for (index, title) in parts.tabs.enumerated() {
        if index > 0 { spans.append(Span("│", style: bar)) }
        let selected = index == selectedTab
        spans.append(Span(" \(title) ", style: selected ? theme.selection.adding(.bold) : bar))
      }
    } else if let title = parts.tabs.first {
      spans.append(Span(" \(title) ", style: bar.adding(.bold)))
    }
    for crumb in parts.crumbs { spans.append(Span(" › \(crumb)", style: bar)) }
    if let notice {
      let width = DisplayWidth.of(notice.text)
      buffer.write(Line(spans), x: x, y: area.y, maxWidth: max(0, area.right - x - width))
      buffer.write(notice.text, x: area.right - width, y: area.y, maxWidth: width, style: notice.style)
      return
    }
    let statusWidth = parts.status.map { DisplayWidth.of($0) + 2 } ?? 0
    x += buffer.write(Line(spans), x: x, y: area.y, maxWidth: max(0, area.right - x - statusWidth))
    if let status = parts.status {
      Label(" \(status) ", style: bar).alignment(.trailing).render(
        in: Rect(x: x, y: area.y, width: area.right - x, height: 1), into: &buffer)
    }
  }

  /// The footer's hints: the screen's, then the shell's. The shell's Esc hint — "Esc leave field"
  /// while a text field has focus (every form lets Esc leave its field), else "Esc back" on a
  /// screen pushed over another — is left out when the screen's hints already name Esc ("Esc
  /// close list": one Esc hint, the one that applies).
  public var footerHints: [KeyHint] {
    let (screen, shell) = footerParts
    return screen + shell
  }

  /// The footer's hints in `width` columns: when they do not all fit, the screen's last hints give
  /// way first (`?` lists every key); the shell's (Esc, the overlays' keys such as Ctrl-T, the
  /// tabs, `?`, `q`) always stay. Never a hint cut in the middle.
  public func footerHints(fitting width: Int) -> [KeyHint] {
    var (screen, shell) = footerParts
    func columns(_ hints: [KeyHint]) -> Int {
      1 + hints.reduce(0) { $0 + DisplayWidth.of($1.keys) + 1 + DisplayWidth.of($1.action) } + 2
        * max(0, hints.count - 1)
    }
    while !screen.isEmpty, columns(screen + shell) > width { screen.removeLast() }
    return screen + shell
  }

  /// The footer's hints: the screen's (first) and the shell's.
  private var footerParts: (screen: [KeyHint], shell: [KeyHint]) {
    if let openOverlay {
      return (openOverlay.keyHints, [KeyHint("Esc", "close"), KeyHint("Ctrl-C", "quit")])
    }
    let screen = currentScreen
    var hints = overlays.map(\.hint)
    let screenNamesEsc = (screen.keyHints + hints).contains { $0.keys.split(separator: " ").contains("Esc") }
    if !screenNamesEsc {
      if screen.isEditingText {
        hints.append(KeyHint("Esc", "leave field"))
      } else if currentStack.count > 1 {
        hints.append(KeyHint("Esc", "back"))
      }
    }
    if !screen.isEditingText {
      if tabs.count > 1 { hints.append(KeyHint("1-\(tabs.count)", "tabs")) }
      hints.append(KeyHint("?", "help"))
      hints.append(KeyHint("q", "quit"))
    } else {
      hints.append(KeyHint("Ctrl-C", "quit"))
    }
    return (screen.keyHints, hints)
  }

  private func renderFooter(in area: Rect, into buffer: inout Buffer) {
    let bar = theme.bar
    buffer.fill(area, style: bar)
    var spans: [Span] = [Span(" ", style: bar)]
    for (index, hint) in footerHints(fitting: area.width).enumerated() {
      if index > 0 { spans.append(Span("  ", style: bar)) }
      spans.append(Span(hint.keys, style: bar.adding(.bold)))
      spans.append(Span(" \(hint.action)", style: bar))
    }
    buffer.write(Line(spans), x: area.x, y: area.y, maxWidth: area.width)
  }

  private func renderHelp(in area: Rect, into buffer: inout Buffer) {
    var hints = openOverlay?.keyHints ?? (currentScreen.keyHints + overlays.map(\.hint))
    hints += [
      KeyHint("Esc", "leave a field, go back (never quits)"), KeyHint("q", "quit (when not typing)"),
      KeyHint("Ctrl-C", "quit, always"), KeyHint("Ctrl-Z", "suspend (fg to return)"),
    ]
    if tabs.count > 1 { hints.append(KeyHint("1-\(tabs.count) Tab Shift-Tab", "switch tabs")) }
    let keyWidth = min(24, hints.map { DisplayWidth.of($0.keys) }.max() ?? 0)
    let sheet = Sheet(
      title: L("Keys · \(L(english: currentScreen.title))"), width: min(area.width - 4, 64), height: hints.count + 4)
    sheet.render(in: area, into: &buffer)
    let inner = sheet.contentArea(in: area)
    for (row, hint) in hints.enumerated() where row < inner.height {
      let y = inner.y + row
      buffer.write(hint.keys, x: inner.x, y: y, maxWidth: keyWidth, style: theme.accent)
      buffer.write(
        hint.action, x: inner.x + keyWidth + 2, y: y, maxWidth: inner.width - keyWidth - 2, style: theme.base)
    }
    if hints.count + 1 < inner.height {
      buffer.write(
        L("any key closes"), x: inner.x, y: inner.y + hints.count + 1, maxWidth: inner.width, style: theme.muted)
    }
  }
}

extension String {
  fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}

/// Carries a value across a `@Sendable` boundary when the code guarantees it is used on one
/// thread at a time (here: handed to the main queue and used only there).
struct UncheckedBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
