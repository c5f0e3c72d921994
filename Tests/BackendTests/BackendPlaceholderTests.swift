import Testing

@testable import Backend

@Suite struct BackendTargetTests {
  @Test func targetBuildsAndLinks() {
    #expect(String(describing: Backend.self) == "Backend")
  }
}
