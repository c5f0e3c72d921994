import Barcodes
import Common
import CommonTesting
import Foundation

/// Boarding passes (`--only boarding`), on random passes (``BoardingPassSamples``: 1–4 legs,
/// every conditional item, two thirds with a 64–100-character signature; seeded):
/// - `boarding.encode-png`: BCBP text of a pass, then its PNG written by libzint (PDF417, Aztec
///   and QR in turn, 4 pixels per module). Target: p95 ≤ 10 ms.
/// - `boarding.scan-1000px`: a 1000 × 1000 PNG (a pass's code, 3 pixels per module, within 40
///   pixels of the middle of a white page, as a scan is aimed; PDF417, Aztec, QR and Data Matrix in
///   turn) decoded and read (zxing-cpp).
///   Target: p95 ≤ 50 ms.
/// - `boarding.parse`: strict reads of 20,000 different pass texts in a row into a validated
///   ``BCBPView`` (every check of the strict parser, every error; fields decoded only when read:
///   here each leg's day of the year), one sample per batch, as passes per second. Target: median
///   ≥ 1,000,000 per second.
/// - `boarding.parse-pass`: the same texts through `BCBPParser.parse`, which also decodes every
///   field into a ``BoardingPass`` (about 60 `String`s per pass), as passes per second; no target.
extension BenchmarkSuite {
  func boardingFigures() -> [Figure] {
    let samples = BoardingPassSamples.make(count: 2_000, seed: 792)
    let texts = samples.compactMap { try? $0.pass.encoded() }
    guard texts.count == samples.count else {
      return [
        Figure.failed("boarding.parse", unit: "1/s", goal: .atLeast, target: 1_000_000, "a sample did not encode")
      ]
    }
    return encodeFigure(samples.map(\.pass)) + scanFigure(texts) + parseFigure(texts)
  }

  private func encodeFigure(_ passes: [BoardingPass]) -> [Figure] {
    let renderer = ZintRenderer()
    var failures = 0
    var bytes = 0
    let symbologies = BarcodeSymbology.drawable
    let times = sample(count: count(600), warmup: 5) { index in
      do {
        let text = try passes[index % passes.count].encoded()
        bytes += try renderer.image(
          for: text, symbology: symbologies[index % 3], format: .png, moduleSize: 4
        ).count
      } catch {
        failures += 1
      }
    }
    return [
      Figure(
        name: "boarding.encode-png", unit: "ms", target: 10, values: times,
        note: "BCBP text + libzint PNG (PDF417, Aztec, QR in turn, 4 px per module); "
          + "\(bytes / max(1, times.count)) bytes per PNG",
        violation: failures > 0 ? "\(failures) pass(es) could not be drawn" : nil)
    ]
  }

  private func scanFigure(_ texts: [String]) -> [Figure] {
    let renderer = ZintRenderer()
    let scanner = ZXingScanner()
    var generator = SeededGenerator(seed: 1000)
    var files: [(Data, String)] = []
    for index in 0..<(quick ? 8 : 40) {
      let symbology = BarcodeSymbology.allCases[index % 4]
      let text = texts[index]
      guard let symbol = try? renderer.symbol(for: text, symbology: symbology, maximumWidth: nil) else { continue }
      let code = symbol.image(scale: 3)
      guard code.width <= 1000, code.height <= 1000 else { continue }
      var page = GreyImage(width: 1000, height: 1000, filledWith: 255)
      // Aimed at, as a scan is: near the middle of the page.
      let left = min(1000 - code.width, max(0, (1000 - code.width) / 2 + Int.random(in: -40...40, using: &generator)))
      let top = min(1000 - code.height, max(0, (1000 - code.height) / 2 + Int.random(in: -40...40, using: &generator)))
      for y in 0..<code.height {
        page.pixels.replaceSubrange(
          ((top + y) * 1000 + left)..<((top + y) * 1000 + left + code.width),
          with: code.pixels[(y * code.width)..<((y + 1) * code.width)])
      }
      if let png = try? ImageCodec.png(page) { files.append((png, text)) }
    }
    var misses = 0
    let all = Set(BarcodeSymbology.allCases)
    let times = sample(count: count(200), warmup: 3) { index in
      let (png, text) = files[index % files.count]
      if (try? scanner.scan(imageData: png, symbologies: all))?.first?.text != text { misses += 1 }
    }
    return [
      Figure(
        name: "boarding.scan-1000px", unit: "ms", target: 50, values: times,
        note: "PNG decode + zxing-cpp read of a 1000 × 1000 page with one code (PDF417, Aztec, QR, Data Matrix "
          + "in turn, 3 px per module)",
        violation: misses > 0 ? "\(misses) scan(s) did not give the pass back" : nil)
    ]
  }

  private func parseFigure(_ texts: [String]) -> [Figure] {
    let batch = (0..<20_000).map { texts[$0 % texts.count] }
    let averageLength = texts.reduce(0) { $0 + $1.utf8.count } / texts.count
    let passes = "\(texts.count) different passes (1–4 legs, \(averageLength) characters on average)"
    var failures = 0
    var days = 0
    let viewTimes = sample(count: count(30), warmup: 1) { _ in
      for text in batch {
        do {
          for leg in try BCBPView(text).legs { days &+= leg.dayOfYear }
        } catch {
          failures += 1
        }
      }
    }
    var passFailures = 0
    var legs = 0
    let passTimes = sample(count: count(15), warmup: 1) { _ in
      for text in batch {
        do { legs &+= try BCBPParser.parse(text).pass.legs.count } catch { passFailures += 1 }
      }
    }
    return [
      Figure(
        name: "boarding.parse", unit: "1/s", goal: .atLeast, target: 1_000_000,
        values: viewTimes.map { Double(batch.count) / ($0 / 1000) },
        note: "strict reads into a validated BCBPView (each leg's day of the year read) of \(passes)",
        violation: failures > 0 || days == 0 ? "\(failures) read(s) failed" : nil),
      Figure(
        name: "boarding.parse-pass", unit: "1/s", goal: .atLeast, target: nil,
        values: passTimes.map { Double(batch.count) / ($0 / 1000) },
        note: "strict parses into a BoardingPass (every field a String) of \(passes)",
        violation: passFailures > 0 || legs == 0 ? "\(passFailures) parse(s) failed" : nil),
    ]
  }
}
