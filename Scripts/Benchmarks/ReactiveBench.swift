import Foundation
import Reactive

/// The reactive core: per-operator throughput. Each figure is the time to push 1,000,000 `Int`
/// values (20,000 in quick mode) through one operator into a `sink` that counts and sums them, so
/// the figure divided by a million is the cost per value. The sources are a `Publishers.Sequence`
/// over an array (demand `.unlimited` from the sink) or subjects sent from a loop. Each run checks
/// the values that arrive (count and sum), so an operator that drops or doubles values fails the
/// run instead of looking fast.
extension BenchmarkSuite {
  func reactiveFigures() -> [Figure] {
    let total = quick ? 20_000 : 1_000_000
    let source = Array(0..<total)
    let halves = source.map { $0 / 2 }
    let chunk = Array(0..<1_000)
    let half = Array(0..<(total / 2))
    let runs = count(10)

    /// Runs `body` (which pushes the values and returns the tally) `runs` times after a warm-up,
    /// and checks each tally against `expected`.
    func figure(_ name: String, _ note: String, expected: Tally, _ body: () -> Tally) -> Figure {
      var wrong: Tally?
      let times = sample(count: runs, warmup: 1) { _ in
        let tally = body()
        if tally != expected { wrong = tally }
      }
      let violation = wrong.map {
        "delivered \($0.count) values summing to \($0.sum), expected \(expected.count) summing to \(expected.sum)"
      }
      return Figure(
        name: "reactive.\(name)", unit: "ms", target: nil, values: times,
        note: "\(grouped(total)) values: \(note)", violation: violation)
    }

    let all = Tally(source)
    let evens = Tally(source.filter { $0 % 2 == 0 })
    var scanned: [Int] = []
    var running = 0
    for value in source {
      running &+= value
      scanned.append(running)
    }
    var pairs = Tally()
    for index in half.indices {
      pairs.add(index &* 2)
      if index > 0 { pairs.add(index &* 2 &- 1) }
    }

    return [
      figure("sink", "Sequence → sink", expected: all) {
        let tally = TallyBox()
        _ = source.publisher.sink { tally.add($0) }
        return tally.value
      },
      figure("map", "Sequence → map → sink", expected: Tally(source.map { $0 &* 3 })) {
        let tally = TallyBox()
        _ = source.publisher.map { $0 &* 3 }.sink { tally.add($0) }
        return tally.value
      },
      figure("filter", "Sequence → filter (keeps half) → sink", expected: evens) {
        let tally = TallyBox()
        _ = source.publisher.filter { $0 % 2 == 0 }.sink { tally.add($0) }
        return tally.value
      },
      figure("compactMap", "Sequence → compactMap (keeps half) → sink", expected: evens) {
        let tally = TallyBox()
        _ = source.publisher.compactMap { $0 % 2 == 0 ? $0 : nil }.sink { tally.add($0) }
        return tally.value
      },
      figure("removeDuplicates", "Sequence of pairs → removeDuplicates → sink", expected: Tally(Array(Set(halves)))) {
        let tally = TallyBox()
        _ = halves.publisher.removeDuplicates().sink { tally.add($0) }
        return tally.value
      },
      figure("scan", "Sequence → scan(0, &+) → sink", expected: Tally(scanned)) {
        let tally = TallyBox()
        _ = source.publisher.scan(0, &+).sink { tally.add($0) }
        return tally.value
      },
      figure(
        "flatMap", "\(total / chunk.count) outer values → flatMap into a 1,000-value Sequence each → sink",
        expected: Tally(Array(repeating: chunk, count: total / chunk.count).flatMap { $0 })
      ) {
        let tally = TallyBox()
        _ = (0..<(total / chunk.count)).publisher.flatMap { _ in chunk.publisher }.sink { tally.add($0) }
        return tally.value
      },
      figure("merge", "two Sequences of half each → merge → sink", expected: Tally(half + half)) {
        let tally = TallyBox()
        _ = half.publisher.merge(with: half.publisher).sink { tally.add($0) }
        return tally.value
      },
      figure(
        "combineLatest", "two PassthroughSubjects sent in turn → combineLatest (a + b) → sink", expected: pairs
      ) {
        let tally = TallyBox()
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let cancellable = a.combineLatest(b).sink { tally.add($0.0 &+ $0.1) }
        for value in half {
          a.send(value)
          b.send(value)
        }
        cancellable.cancel()
        return tally.value
      },
      figure("zip", "two PassthroughSubjects sent in turn → zip (a + b) → sink", expected: Tally(half.map { $0 &* 2 }))
      {
        let tally = TallyBox()
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let cancellable = a.zip(b).sink { tally.add($0.0 &+ $0.1) }
        for value in half {
          a.send(value)
          b.send(value)
        }
        cancellable.cancel()
        return tally.value
      },
      figure("receiveOn-immediate", "Sequence → receive(on: ImmediateScheduler) → sink", expected: all) {
        let tally = TallyBox()
        _ = source.publisher.receive(on: ImmediateScheduler.shared).sink { tally.add($0) }
        return tally.value
      },
      figure("passthrough-send", "PassthroughSubject.send → sink", expected: all) {
        let tally = TallyBox()
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.sink { tally.add($0) }
        for value in source { subject.send(value) }
        cancellable.cancel()
        return tally.value
      },
      figure("currentvalue-send", "CurrentValueSubject(-1).send → sink (the initial -1 included)", expected: all + -1) {
        let tally = TallyBox()
        let subject = CurrentValueSubject<Int, Never>(-1)
        let cancellable = subject.sink { tally.add($0) }
        for value in source { subject.send(value) }
        cancellable.cancel()
        return tally.value
      },
    ]
  }
}

/// How many values arrived and their wrapping sum.
private struct Tally: Equatable {
  var count = 0
  var sum = 0

  init() {}

  init(_ values: [Int]) {
    for value in values { add(value) }
  }

  mutating func add(_ value: Int) {
    count += 1
    sum &+= value
  }

  static func + (lhs: Tally, value: Int) -> Tally {
    var tally = lhs
    tally.add(value)
    return tally
  }
}

/// A tally a sink closure can update (the closures run on the sending thread, one at a time).
private final class TallyBox {
  var value = Tally()
  func add(_ number: Int) { value.add(number) }
}

/// `1000000` as `1,000,000`.
private func grouped(_ number: Int) -> String {
  var digits = Array(String(number))
  var index = digits.count - 3
  while index > 0 {
    digits.insert(",", at: index)
    index -= 3
  }
  return String(digits)
}
