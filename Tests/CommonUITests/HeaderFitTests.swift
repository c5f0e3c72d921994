import Testing

@testable import CommonUI

/// #14: the header cuts the least important text first, never a tab (at 60 columns it used to drop
/// the Account tab and keep the greeting).
@MainActor @Suite struct HeaderFitTests {
  let travel = InteractiveApp.HeaderParts(
    name: "travel", tabs: ["Flights", "Hotels", "Cars", "Trips", "Account"], crumbs: ["Results", "Hôtel Lumière"],
    badges: ["Chat 2"], greeting: "Welcome, Ada Lovelace")

  @Test func wide_everythingShows() {
    #expect(travel.fitting(120) == travel)
  }

  @Test func narrower_theGreetingGoesFirst_thenOuterCrumbs_thenTheName() {
    let at80 = travel.fitting(80)
    #expect(at80.greeting == nil)
    #expect(at80.tabs == travel.tabs && at80.badges == ["Chat 2"])
    #expect(at80.width <= 80)
    let at60 = travel.fitting(60)
    #expect(at60.width <= 60, "\(at60)")
    #expect(at60.badges == ["Chat 2"], "unread chat is kept")
    #expect(at60.tabs.count == 5 && at60.tabs.allSatisfy { $0.count >= 3 })
    // Every tab still tells itself apart from the others.
    for (index, title) in at60.tabs.enumerated() {
      #expect(travel.tabs[index].hasPrefix(title))
      #expect(!at60.tabs.indices.contains { $0 != index && travel.tabs[$0].hasPrefix(title) })
    }
  }

  @Test func tooNarrowForAll_tabsStayAtThreeCharacters_badgesGoLast() {
    let tight = travel.fitting(30)
    #expect(tight.tabs == ["Fli", "Hot", "Car", "Tri", "Acc"])
    #expect(tight.name.isEmpty && tight.greeting == nil)
    #expect(tight.badges.isEmpty)
  }

  @Test func shell_at60x20_showsEveryTabAndTheUnreadBadge() {
    let backend = TestBackend(width: 60, height: 20)
    let app = InteractiveApp(
      name: "travel",
      tabs: ["Flights", "Hotels", "Cars", "Trips", "Account"].map { AppTab($0, root: FakeScreen($0)) },
      backend: backend, schedule: { $0() })
    app.status = "Welcome, Ada Lovelace"
    app.displayNow()
    let header = backend.text.split(separator: "\n").first.map(String.init) ?? ""
    for tab in ["Flights", "Hotels", "Cars", "Trips", "Account"] { #expect(header.contains(tab), "\(header)") }
  }
}
