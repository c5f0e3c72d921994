import CommonTesting
import Foundation
import Testing

@testable import Reactive

/// The shape of view model the app uses (see README.md), built from the operators of the first
/// milestone, so that the overloads resolve the way the README shows.
private final class SearchViewModel {
  @Published private(set) var results: [String] = []
  private let queries = PassthroughSubject<String, Never>()

  init(search: @escaping (String) -> AnyPublisher<[String], TestError>, scheduler: AnySchedulerOf<DispatchQueue>) {
    queries
      .debounce(for: .milliseconds(300), scheduler: scheduler)
      .removeDuplicates()
      .map { search($0).replaceError(with: []) }
      .switchToLatest()
      .receive(on: scheduler)
      .assign(to: &$results)
  }

  func searchTextChanged(_ text: String) { queries.send(text) }
}

@Suite struct ViewModelPatternTests {
  @Test func results_staleAnswerIsDropped_andErrorsBecomeEmpty() {
    let scheduler = DispatchQueue.test
    let answers = [
      "LH": PassthroughSubject<[String], TestError>(), "LHR": PassthroughSubject<[String], TestError>(),
    ]
    let model = SearchViewModel(
      search: { answers[$0]!.eraseToAnyPublisher() }, scheduler: scheduler.eraseToAnyScheduler())
    let results = model.$results.record()
    model.searchTextChanged("LH")
    scheduler.advance(by: .milliseconds(300))
    model.searchTextChanged("LHR")
    scheduler.advance(by: .milliseconds(300))
    answers["LH"]!.send(["stale"])
    answers["LHR"]!.send(["London Heathrow"])
    scheduler.advance()
    #expect(results.values == [[], ["London Heathrow"]])
    answers["LHR"]!.send(completion: .failure(TestError()))
    scheduler.advance()
    #expect(results.values == [[], ["London Heathrow"], []])
  }

  @Test func flatMapOverloads_resolve() {
    let never = Just(1).flatMap { Just($0 + 1) }.record()
    let failingInner = Just(1).flatMap { _ in Fail<Int, TestError>(error: TestError()) }.record()
    let failingOuter = Fail<Int, TestError>(error: TestError()).flatMap { Just($0) }.record()
    #expect(never.values == [2])
    #expect(failingInner.failure == TestError())
    #expect(failingOuter.failure == TestError())
  }
}
