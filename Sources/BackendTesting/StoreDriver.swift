/// The two drivers of the store, for tests parameterised over both
/// (`@Test(arguments: StoreDriver.allCases)`): `.postgres` tests run in a ``PostgresTestSchema``.
public enum StoreDriver: String, CaseIterable, Sendable, CustomStringConvertible {
  case sqlite, postgres
  public var description: String { rawValue }
}
