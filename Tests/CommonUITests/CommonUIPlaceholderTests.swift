import Testing

@testable import CommonUI

@Suite struct CommonUITargetTests {
  @Test func targetBuildsAndLinks() {
    #expect(String(describing: CommonUI.self) == "CommonUI")
  }
}
