import Common
import Foundation
import Reactive

/// What one feature brings to the interactive app: its tab, and optionally a status for the
/// header (the signed-in person's greeting), the appearance it wants (the user's preference) and
/// notices for the header on every tab (a booked flight's gate changed).
/// Features build these (`AccountScreens.feature(…)`); the apps only list them.
public struct InteractiveFeature {
  public var tab: AppTab
  /// Text for the right of the header; nil shows nothing.
  public var status: AnyPublisher<String?, Never>?
  /// The appearance to draw with, followed live.
  public var appearance: AnyPublisher<Appearance, Never>?
  /// One-line notices shown in the header for a moment, whatever tab is open.
  public var notices: AnyPublisher<Notice, Never>?
  /// Shared views opened by a key over every tab (the chat sheet), attached by the apps
  /// (`withChat(…)`); features never set them.
  public var overlays: [any AppOverlay] = []
  /// The connection to the server, said in the header while it is down and when it is back
  /// (``InteractiveApp/follow(connection:)``); nil or ``ConnectionStatus/embedded``: nothing.
  public var connection: AnyPublisher<ConnectionStatus, Never>?

  public init(
    tab: AppTab, status: AnyPublisher<String?, Never>? = nil, appearance: AnyPublisher<Appearance, Never>? = nil,
    notices: AnyPublisher<Notice, Never>? = nil, connection: AnyPublisher<ConnectionStatus, Never>? = nil
  ) {
    self.tab = tab
    self.status = status
    self.appearance = appearance
    self.notices = notices
    self.connection = connection
  }

  /// A feature whose header status and appearance are those of the app's one `session`: the
  /// greeting ("Welcome, Ada Lovelace") while someone is signed in, and their appearance
  /// preference (system shows dark; nothing changes while nobody is signed in); the session's
  /// connection to the server (``AccountSession/connection``); and `notices`.
  public init(tab: AppTab, session: AccountSession, notices: AnyPublisher<Notice, Never>? = nil) {
    self.init(
      tab: tab, status: session.greeting,
      appearance: session.appearance.compactMap { $0.map { $0 == .light ? Appearance.light : .dark } }
        .eraseToAnyPublisher(), notices: notices, connection: session.connection)
  }

  /// A feature whose screens are not built yet: one plain screen that lists the subcommands of
  /// `command` (with their summaries) to use meanwhile. `commandPrefix` is how they are spelled in
  /// this app, e.g. `travel flights` or `booking`.
  @MainActor
  public static func commandsOnly(title: String, commandPrefix: String, command: Command) -> Self {
    let commands = command.subcommands.map { ($0.name, $0.summary) }
    return InteractiveFeature(
      tab: AppTab(title, root: CommandListScreen(title: title, prefix: commandPrefix, commands: commands)))
  }
}

/// A one-line message for the header of the interactive app, shown for a moment on whatever tab
/// is open ("LH 400 to JFK: gate changed to B44"). Any part of an app can publish notices; the
/// apps hand the publishers to the shell (``InteractiveFeature/notices``,
/// ``InteractiveApp/follow(notices:)``).
public struct Notice: Hashable, Sendable {
  public var text: String

  public init(_ text: String) { self.text = L(english: text) }
}

extension InteractiveApp {
  /// The app of `features` (one tab each, in order; the first is selected), drawn with the dark
  /// theme (monochrome when `useColor` is false), following the status and the appearance of the
  /// first feature that has one (the features of one app share one session: they all offer the
  /// same).
  public static func assemble(name: String, features: [InteractiveFeature], useColor: Bool) -> InteractiveApp {
    let theme = (try? Theme.named(.dark, useColor: useColor)) ?? .monochrome
    let app = InteractiveApp(name: name, tabs: features.map(\.tab), theme: theme)
    if let status = features.lazy.compactMap(\.status).first { app.follow(status: status) }
    if let appearance = features.lazy.compactMap(\.appearance).first {
      app.follow(appearance: appearance, useColor: useColor)
    }
    for notices in features.compactMap(\.notices) { app.follow(notices: notices) }
    for overlay in features.flatMap(\.overlays) { app.attach(overlay) }
    // The features of one app share one session, so one connection: follow the first.
    if let connection = features.lazy.compactMap(\.connection).first { app.follow(connection: connection) }
    return app
  }
}

extension Command {
  /// This command group, opening the interactive app when it is run without a subcommand on a
  /// terminal: stdin and stdout both terminals, and no `--json`. Otherwise (a pipe, a file, a
  /// test) it prints its help, as a group without an action does. Colour follows
  /// `CLIContext.useColor` (`--no-color`, `NO_COLOR`).
  ///
  /// `makeFeatures` runs on the main thread with the invocation's context; it may throw (a store
  /// that cannot be opened), which reports the error and exits 1 like any command.
  public func openingInteractiveApp(
    _ makeFeatures: @escaping @MainActor @Sendable (CLIContext) throws -> [InteractiveFeature]
  ) -> Command {
    var copy = self
    let plain = self
    copy.action = { invocation in
      let context = invocation.context
      guard Terminal.isInteractive, !context.json, Thread.isMainThread else {
        try CommandLineTool.printHelp(
          for: plain, path: invocation.path, json: context.json, console: context.console)
        return
      }
      // The app's text outlives this command's language scope (it runs from the main queue).
      Localization.setProcessLanguage(Localization.current)
      try MainActor.assumeIsolated {
        let features = try makeFeatures(context)
        let app = InteractiveApp.assemble(name: plain.name, features: features, useColor: context.useColor)
        try app.run()
      }
    }
    return copy
  }
}

/// The screen of a feature whose interactive screens are not built yet: the commands to use.
@MainActor
final class CommandListScreen: Screen {
  let title: String
  let prefix: String
  let commands: [(String, String)]

  init(title: String, prefix: String, commands: [(String, String)]) {
    self.title = title
    self.prefix = prefix
    self.commands = commands
  }

  func handle(_ key: Key) -> KeyResult { .ignored }

  func render(in area: Rect, into buffer: inout Buffer) {
    let intro = L("The \(title) screens are not in this version yet. Meanwhile, use these commands in a shell:")
    Paragraph(intro, style: buffer.theme.base).render(
      in: Rect(x: area.x, y: area.y + 1, width: area.width, height: 2), into: &buffer)
    let width = min(48, (commands.map { DisplayWidth.of("\(prefix) \($0.0)") }.max() ?? 0) + 2)
    for (index, command) in commands.enumerated() {
      let y = area.y + 4 + index
      guard y < area.bottom else { break }
      buffer.write("\(prefix) \(command.0)", x: area.x + 2, y: y, maxWidth: width, style: buffer.theme.accent)
      buffer.write(
        command.1, x: area.x + 2 + width, y: y, maxWidth: max(0, area.width - 2 - width), style: buffer.theme.base)
    }
    let helpY = area.y + 5 + commands.count
    if helpY < area.bottom {
      buffer.write(
        L("'\(prefix) <command> --help' shows each command's options."), x: area.x + 2, y: helpY,
        maxWidth: area.width - 2,
        style: buffer.theme.muted)
    }
  }
}
