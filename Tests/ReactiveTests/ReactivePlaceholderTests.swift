import Testing

@testable import Reactive

@Suite struct ReactiveTargetTests {
  @Test func targetBuildsAndLinks() {
    #expect(String(describing: Reactive.self) == "Reactive")
  }
}
