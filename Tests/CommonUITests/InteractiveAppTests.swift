import CommonTesting
import Foundation
import Reactive
import Testing

import enum Common.ConnectionStatus

@testable import CommonUI

/// A screen for the shell's tests: shows its title and the keys it got, optionally edits text,
/// and exposes subjects for changes and navigation.
@MainActor
final class FakeScreen: Screen {
  let title: String
  var editing = false
  var used: Set<Key> = []
  private(set) var received: [Key] = []
  var text = "nothing yet"
  let changeSubject = PassthroughSubject<Void, Never>()
  let navigationSubject = PassthroughSubject<Navigation, Never>()

  init(_ title: String, editing: Bool = false, used: Set<Key> = []) {
    self.title = title
    self.editing = editing
    self.used = used
  }

  var isEditingText: Bool { editing }
  var hints = [KeyHint("Enter", "open")]
  var keyHints: [KeyHint] { hints }
  var changes: AnyPublisher<Void, Never> { changeSubject.eraseToAnyPublisher() }
  var navigation: AnyPublisher<Navigation, Never> { navigationSubject.eraseToAnyPublisher() }

  func render(in area: Rect, into buffer: inout Buffer) {
    Label("\(title): \(text)").render(in: area.row(0), into: &buffer)
  }

  func handle(_ key: Key) -> KeyResult {
    received.append(key)
    if editing, case .character = key { return .handled }
    return used.contains(key) ? .handled : .ignored
  }
}

/// Collects scheduled frames instead of running them on the main queue.
final class ManualScheduler: @unchecked Sendable {
  private let lock = NSLock()
  private var work: [@Sendable () -> Void] = []
  var count: Int { lock.withLock { work.count } }
  func schedule(_ item: @escaping @Sendable () -> Void) { lock.withLock { work.append(item) } }
  func runAll() {
    let items = lock.withLock {
      defer { work.removeAll() }
      return work
    }
    for item in items { item() }
  }
}

@MainActor
@Suite struct InteractiveAppTests {
  let backend = TestBackend(width: 72, height: 20)
  let flights = FakeScreen("Flights")
  let hotels = FakeScreen("Hotels")
  let scheduler = ManualScheduler()

  func makeApp(tabs: [AppTab]? = nil) -> InteractiveApp {
    let scheduler = self.scheduler
    return InteractiveApp(
      name: "travel",
      tabs: tabs ?? [
        AppTab("Flights", root: flights), AppTab("Hotels", root: hotels), AppTab("Cars", root: FakeScreen("Cars")),
      ],
      backend: backend, schedule: { scheduler.schedule($0) })
  }

  /// A screen of a tab that is not shown (the Account tab following the session) navigates its
  /// own tab, never the one on screen (the booking open in Hotels stays).
  @Test func navigationFromAHiddenTab_actsOnItsOwnTab() {
    let app = makeApp()
    app.selectTab(1)
    app.perform(.push(FakeScreen("Booking")))
    #expect(app.currentStack.map(\.title) == ["Hotels", "Booking"])
    app.selectTab(0)
    app.perform(.push(FakeScreen("Results")))
    app.selectTab(1)
    flights.navigationSubject.send(.popToRoot)  // Flights' root, while Hotels is shown
    scheduler.runAll()
    #expect(app.currentStack.map(\.title) == ["Hotels", "Booking"])
    app.selectTab(0)
    #expect(app.currentStack.map(\.title) == ["Flights"])
  }

  /// While a text field has focus the footer offers Esc to leave it (every form lets it).
  @Test func footer_escLeavesAFieldWhileTyping() {
    let app = makeApp()
    flights.editing = true
    #expect(app.footerHints.contains(KeyHint("Esc", "leave field")))
    #expect(!app.footerHints.contains(KeyHint("Esc", "back")))
    flights.editing = false
    app.perform(.push(FakeScreen("Results")))
    #expect(app.footerHints.contains(KeyHint("Esc", "back")))
  }

  @Test func frame_headerTabsScreenAndFooter() throws {
    let app = makeApp()
    app.status = "Welcome, Ada Lovelace"
    app.displayNow()
    try assertSnapshot(backend.text, named: "shell-tabs")
    let single = InteractiveApp(name: "hotel", tabs: [AppTab("Hotels", root: hotels)], backend: backend)
    single.displayNow()
    try assertSnapshot(backend.text, named: "shell-single")
  }

  @Test func notices_showInTheHeaderOnEveryTab_forAMoment_aNewerOneReplacing() throws {
    let app = makeApp()
    app.status = "Welcome, Ada Lovelace"
    let clock = DispatchQueue.test
    app.noticeScheduler = clock.eraseToAnyScheduler()
    let notices = PassthroughSubject<Notice, Never>()
    app.follow(notices: notices.eraseToAnyPublisher())
    notices.send(Notice("LH 400 to JFK: gate changed to B44"))
    scheduler.runAll()  // notices may arrive on any thread: the shell takes them to the main actor
    app.displayNow()
    try assertSnapshot(backend.text, named: "shell-notice")
    app.selectTab(1)
    app.displayNow()
    #expect(backend.text.split(separator: "\n")[0].contains("LH 400 to JFK: gate changed to B44"))
    clock.advance(by: .seconds(5))
    notices.send(Notice("LH 400 to JFK: boarding at gate B44"))
    scheduler.runAll()
    clock.advance(by: .seconds(5))
    scheduler.runAll()
    app.displayNow()
    #expect(backend.text.split(separator: "\n")[0].contains("boarding at gate B44"))
    clock.advance(by: .seconds(3))
    scheduler.runAll()
    app.displayNow()
    #expect(app.notice == nil)
    #expect(backend.text.split(separator: "\n")[0].contains("Welcome, Ada Lovelace"))
  }

  @Test func connection_unreachableStaysInTheHeader_untilBack_thenSaysSo() throws {
    let app = makeApp()
    app.status = "Welcome, Ada Lovelace"
    let clock = DispatchQueue.test
    app.noticeScheduler = clock.eraseToAnyScheduler()
    let connection = PassthroughSubject<ConnectionStatus, Never>()
    app.follow(connection: connection.eraseToAnyPublisher())
    func header() -> String {
      scheduler.runAll()
      app.displayNow()
      return String(backend.text.split(separator: "\n")[0])
    }
    // The first connection says nothing.
    connection.send(.connecting)
    connection.send(.connected)
    #expect(header().contains("Welcome, Ada Lovelace"))
    // Down: said until it is back, whatever the time, a passing notice over it meanwhile.
    connection.send(.unreachable(server: "http://127.0.0.1:8080", retryIn: 0.5))
    #expect(header().contains("Cannot reach 127.0.0.1:8080, retrying"))
    connection.send(.connecting)
    connection.send(.unreachable(server: "http://127.0.0.1:8080", retryIn: 1))
    clock.advance(by: .seconds(60))
    #expect(header().contains("Cannot reach 127.0.0.1:8080, retrying"))
    app.show(Notice("LH 400 to JFK: gate changed to B44"))
    #expect(header().contains("gate changed to B44"))
    clock.advance(by: .seconds(9))
    #expect(header().contains("Cannot reach 127.0.0.1:8080, retrying"))
    // Back: said for a moment, then the status again.
    connection.send(.connecting)
    connection.send(.connected)
    #expect(header().contains("Connected to 127.0.0.1:8080 again"))
    #expect(app.connectionNotice == nil)
    clock.advance(by: .seconds(9))
    #expect(header().contains("Welcome, Ada Lovelace"))
  }

  @Test func q_quitsUnlessTyping_ctrlCAlwaysQuits() {
    let app = makeApp()
    var statuses: [Int32] = []
    app.onQuit = { statuses.append($0) }
    flights.editing = true
    app.handle(.character("q"))
    #expect(app.exitStatus == nil)
    #expect(flights.received == [.character("q")])
    app.handle(.interrupt)
    #expect(app.exitStatus == 130)
    app.handle(.character("q"))
    #expect(statuses == [130])

    let other = makeApp()
    flights.editing = false
    other.handle(.character("q"))
    #expect(other.exitStatus == 0)
  }

  @Test func escape_goesBackAndNeverQuits() {
    let app = makeApp()
    app.perform(.push(FakeScreen("Results")))
    app.perform(.push(FakeScreen("LH 400")))
    #expect(app.currentStack.map(\.title) == ["Flights", "Results", "LH 400"])
    app.handle(.escape)
    #expect(app.currentScreen.title == "Results")
    app.handle(.escape)
    app.handle(.escape)
    app.handle(.escape)
    #expect(app.currentScreen.title == "Flights")
    #expect(app.exitStatus == nil)
  }

  @Test func screenGetsKeysFirst() {
    let app = makeApp()
    flights.used = [.escape, .character("q"), .character("2")]
    app.handle(.escape)
    app.handle(.character("q"))
    app.handle(.character("2"))
    #expect(app.exitStatus == nil)
    #expect(app.selectedTab == 0)
    #expect(flights.received == [.escape, .character("q"), .character("2")])
  }

  @Test func digitsAndTabSwitchTabs() {
    let app = makeApp()
    app.handle(.character("2"))
    #expect(app.currentScreen === hotels)
    app.handle(.tab)
    #expect(app.selectedTab == 2)
    app.handle(.tab)
    #expect(app.selectedTab == 0)
    app.handle(.backTab)
    #expect(app.selectedTab == 2)
    app.handle(.character("9"))
    #expect(app.selectedTab == 2)
    app.perform(.selectTab("Hotels"))
    #expect(app.selectedTab == 1)
  }

  @Test func navigationPublisher_pushesReplacesAndShowsAlerts() throws {
    let app = makeApp()
    let results = FakeScreen("Results")
    flights.navigationSubject.send(.push(results))
    scheduler.runAll()
    #expect(app.currentScreen === results)
    results.navigationSubject.send(.replace(FakeScreen("Confirmation")))
    scheduler.runAll()
    #expect(app.currentStack.map(\.title) == ["Flights", "Confirmation"])
    // A popped screen's publishers are no longer followed.
    results.navigationSubject.send(.push(FakeScreen("Stale")))
    scheduler.runAll()
    #expect(app.currentStack.map(\.title) == ["Flights", "Confirmation"])
    flights.navigationSubject.send(.alert(AlertContent(title: "Missing Data", message: "First Name is missing")))
    scheduler.runAll()
    app.displayNow()
    try assertSnapshot(backend.text, named: "shell-alert")
    app.handle(.character("q"))  // swallowed by the alert
    #expect(app.exitStatus == nil)
    app.handle(.enter)
    #expect(app.alert == nil)
    flights.navigationSubject.send(.popToRoot)
    scheduler.runAll()
    #expect(app.currentStack.count == 1)
    flights.navigationSubject.send(.quit)
    scheduler.runAll()
    #expect(app.exitStatus == 0)
  }

  @Test func navigationFromABackgroundThread_goesThroughTheScheduler() async {
    let app = makeApp()
    let subject = flights.navigationSubject
    let screen = UncheckedBox(FakeScreen("Later"))
    await Task.detached { subject.send(.push(screen.value)) }.value
    #expect(app.currentStack.count == 1)
    scheduler.runAll()
    #expect(app.currentScreen.title == "Later")
  }

  @Test func help_showsKeysAndAnyKeyCloses() throws {
    let app = makeApp()
    app.handle(.character("?"))
    #expect(app.isShowingHelp)
    app.displayNow()
    try assertSnapshot(backend.text, named: "shell-help")
    app.handle(.character("q"))
    #expect(!app.isShowingHelp)
    #expect(app.exitStatus == nil)
  }

  @Test func tooSmall_saysSo() throws {
    let app = makeApp()
    backend.screenSize = Size(width: 50, height: 12)
    app.displayNow()
    try assertSnapshot(backend.text, named: "shell-too-small")
  }

  @Test func tooSmall_keysWaitUntilTheScreenIsBigAgain_butCtrlCQuits() {
    let app = makeApp()
    backend.screenSize = Size(width: 50, height: 12)
    app.displayNow()
    app.handle(.character("2"))
    app.handle(.character("q"))
    #expect(app.selectedTab == 0 && app.exitStatus == nil)
    backend.screenSize = Size(width: 80, height: 24)
    app.displayNow()
    app.handle(.character("2"))
    #expect(app.selectedTab == 1)
    backend.screenSize = Size(width: 50, height: 12)
    app.displayNow()
    app.handle(.interrupt)
    #expect(app.exitStatus == 130)
  }

  @Test func redraws_areCoalescedAndDrivenByChanges() {
    let app = makeApp()
    #expect(scheduler.count == 0)
    flights.changeSubject.send()
    flights.changeSubject.send()
    app.setNeedsDisplay()
    #expect(scheduler.count == 1)
    scheduler.runAll()
    #expect(app.frameCount == 1)
    #expect(backend.frames.count == 1)
    flights.text = "3 offers"
    flights.changeSubject.send()
    #expect(scheduler.count == 1)
    app.displayNow()
    #expect(backend.text.contains("Flights: 3 offers"))
  }

  @Test func followAppearance_switchesThemeLive() {
    let app = makeApp()
    let appearance = CurrentValueSubject<Appearance, Never>(.dark)
    app.follow(appearance: appearance.eraseToAnyPublisher(), useColor: true)
    scheduler.runAll()
    #expect(app.theme == (try? Theme.named(.dark, useColor: true)))
    appearance.send(.light)
    scheduler.runAll()
    #expect(app.theme == (try? Theme.named(.light, useColor: true)))
    let mono = makeApp()
    mono.follow(appearance: appearance.eraseToAnyPublisher(), useColor: false)
    scheduler.runAll()
    #expect(mono.theme == .monochrome)
    let status = PassthroughSubject<String?, Never>()
    app.follow(status: status.eraseToAnyPublisher())
    status.send("Welcome, Ada Lovelace")
    scheduler.runAll()
    #expect(app.status == "Welcome, Ada Lovelace")
  }

  @Test func ctrlZ_callsSuspend() {
    let app = makeApp()
    var suspended = 0
    app.onSuspend = { suspended += 1 }
    flights.editing = true
    app.handle(.control("z"))
    #expect(suspended == 1)
    #expect(flights.received.isEmpty)
  }

  @Test func footer_hintsFollowFocus() {
    let app = makeApp()
    #expect(app.footerHints.map(\.keys) == ["Enter", "1-3", "?", "q"])
    flights.editing = true
    #expect(app.footerHints.map(\.keys) == ["Enter", "Esc", "Ctrl-C"])
  }

  /// A screen whose hints name Esc ("Esc close list" over a suggestion list) gets no second,
  /// contradicting "Esc back" from the shell; a key list naming Esc among others counts too.
  @Test func footer_screenNamingEsc_noShellEscHint() throws {
    let app = makeApp()
    flights.editing = true
    flights.hints = [KeyHint("↓↑", "choose"), KeyHint("Enter Tab", "take airport"), KeyHint("Esc", "close list")]
    #expect(app.footerHints.filter { $0.keys == "Esc" } == [KeyHint("Esc", "close list")])
    app.displayNow()
    try assertSnapshot(backend.text, named: "shell-footer-screen-esc")
    flights.hints = [KeyHint("Del Esc", "clear")]
    #expect(app.footerHints.map(\.keys) == ["Del Esc", "Ctrl-C"])
    flights.hints = [KeyHint("Escape", "odd")]  // a word that merely starts with Esc is not Esc
    #expect(app.footerHints.map(\.keys) == ["Escape", "Esc", "Ctrl-C"])
  }
}
