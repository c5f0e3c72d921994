import Barcodes
import Common
import CommonTesting
import CommonUI
import Foundation
import Testing

/// Encode → render → scan → parse: boarding passes come back field for field from PNG files, from
/// the terminal's cells and from photo-like JPEGs.
@Suite(.timeLimit(.minutes(5))) struct BarcodeRoundTripTests {
  let renderer = ZintRenderer()
  let scanner = ZXingScanner()
  let everything = Set(BarcodeSymbology.allCases)

  /// Random passes through PNG files in each drawable symbology.
  @Test func randomPasses_throughPNG_giveEveryFieldBack() throws {
    let samples = BoardingPassSamples.make(count: 300, seed: 2028)
    for (index, sample) in samples.enumerated() {
      let symbology = BarcodeSymbology.drawable[index % 3]
      let text = try sample.pass.encoded()
      let png = try renderer.image(for: text, symbology: symbology, format: .png, moduleSize: 2)
      let found = try scanner.scan(imageData: png, symbologies: everything)
      #expect(found.map(\.symbology) == [symbology], "\(symbology) \(text)")
      let parsed = try BCBPParser.parse(try #require(found.first).text)
      #expect(parsed.pass == sample.pass, "\(symbology) \(text)")
    }
  }

  /// Data Matrix, which the scanner reads (the app draws only the other three).
  @Test func dataMatrix_isRead() throws {
    let text = try BoardingPassSamples.make(count: 1, seed: 3)[0].pass.encoded()
    let png = try renderer.image(for: text, symbology: .dataMatrix, format: .png, moduleSize: 3)
    let found = try scanner.scan(imageData: png, symbologies: everything)
    #expect(found.map(\.symbology) == [.dataMatrix])
    #expect(found.first?.text == text)
  }

  /// The module grid and libzint's PNG agree: same size, same modules.
  @Test func symbolGrid_matchesThePNG() throws {
    let text = try BoardingPassSamples.make(count: 1, seed: 4)[0].pass.encoded()
    for symbology in BarcodeSymbology.allCases {
      let symbol = try renderer.symbol(for: text, symbology: symbology, maximumWidth: nil)
      let image = try ImageCodec.decode(
        try renderer.image(for: text, symbology: symbology, format: .png, moduleSize: 4))
      #expect(image.width == symbol.width * 4 && image.height == symbol.height * 4, "\(symbology)")
      #expect(image == symbol.image(scale: 4), "\(symbology)")
    }
  }

  @Test func svg_isAnSVGDocumentOfTheSymbol() throws {
    let text = try BoardingPassSamples.make(count: 1, seed: 5)[0].pass.encoded()
    let svg = String(
      decoding: try renderer.image(for: text, symbology: .aztec, format: .svg, moduleSize: 4), as: UTF8.self)
    #expect(svg.contains("<svg") && svg.contains("</svg>"))
    #expect(svg.contains("<rect") || svg.contains("<path"))
  }

  /// A PDF417 for the terminal keeps within the width asked for.
  @Test func pdf417_fitsAMaximumWidth() throws {
    let text = try BoardingPassSamples.make(count: 1, seed: 6)[0].pass.encoded()
    let narrow = try renderer.symbol(for: text, symbology: .pdf417, maximumWidth: 160)
    #expect(narrow.width <= 160)
    let found = try scanner.scan(narrow.image(scale: 3), symbologies: [.pdf417])
    #expect(found.first?.text == text)
  }

  /// Passes drawn in the terminal (half-block cells in a ``Buffer``), turned into images the way
  /// a screen shows them (a cell 8 × 16 pixels), scan — in colour and without colour.
  @Test func terminalDrawing_scans() throws {
    let samples = BoardingPassSamples.make(count: 24, seed: 77)
    for (index, sample) in samples.enumerated() {
      let symbology = BarcodeSymbology.drawable[index % 3]
      let text = try sample.pass.encoded()
      let symbol = try renderer.symbol(for: text, symbology: symbology, maximumWidth: 220)
      let size = BarcodeView.size(of: symbol)
      let colour = index % 2 == 0
      let theme = colour ? Theme(palette: try Palette.shared()[.dark]!) : Theme.monochrome
      var buffer = Buffer(width: size.width + 6, height: size.height + 2, theme: theme)
      BarcodeView(symbol).render(in: buffer.area, into: &buffer)
      let image = TerminalImage.capture(buffer, lightInk: !colour)
      let found = try scanner.scan(image, symbologies: everything)
      #expect(found.first?.text == text, "\(symbology) colour \(colour)")
      #expect(try BCBPParser.parse(try #require(found.first).text).pass == sample.pass)
    }
  }

  /// A photo of a pass: rotated by 4–30° either way, scaled 0.8–1.3, on a grey desk with uneven
  /// light, blurred, noisy and saved as JPEG (quality 80) — read back whole, in PDF417 (the paper
  /// pass, straightened by the scanner first) and QR.
  ///
  /// Not Aztec: zxing-cpp 1.4's Aztec detector reads sharp, upright codes (the PNG files, the
  /// terminal), but misses most blurred or rotated large ones (measured: 2 of 6 photos read even
  /// at 8-pixel modules within 3°); its 2.x rewrite is not in Debian 12.
  @Test func photoLikeImages_scan() throws {
    var random = SeededRandom(seed: 1_792)
    let samples = BoardingPassSamples.make(count: 6, seed: 31)
    for (index, sample) in samples.enumerated() {
      let symbology: BarcodeSymbology = index % 2 == 0 ? .pdf417 : .qr
      let text = try sample.pass.encoded()
      let symbol = try renderer.symbol(for: text, symbology: symbology, maximumWidth: nil)
      let clean = symbol.image(scale: symbology == .pdf417 ? 3 : 5)
      let angle = Double.random(in: 4...30, using: &random) * (index % 4 < 2 ? 1 : -1)
      let scale = Double.random(in: 0.8...1.3, using: &random)
      let photo = PhotoSimulation.photograph(clean, angleDegrees: angle, scale: scale, canvas: 900, random: &random)
      let jpeg = try ImageCodec.jpeg(photo, quality: 80)
      let found = try scanner.scan(imageData: jpeg, symbologies: everything)
      #expect(found.first?.text == text, "\(symbology) angle \(angle) scale \(scale)")
      #expect(try BCBPParser.parse(try #require(found.first).text).pass == sample.pass)
    }
  }
}

@Suite struct BarcodeErrorTests {
  @Test func notAnImage_isUnreadable() {
    for data in [Data(), Data("M1DESMARAIS/LUC".utf8), Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0])] {
      #expect {
        try ZXingScanner().scan(imageData: data, symbologies: [.qr])
      } throws: { error in
        (error as? ServiceError)?.code == "unreadable_image"
      }
    }
  }

  @Test func truncatedJPEG_isUnreadable() throws {
    let image = GreyImage(width: 64, height: 64, filledWith: 200)
    let jpeg = try ImageCodec.jpeg(image)
    #expect(throws: ServiceError.self) { try ImageCodec.decode(jpeg.prefix(40)) }
    #expect(try ImageCodec.decode(jpeg).width == 64)
    #expect(try ZXingScanner().scan(imageData: try ImageCodec.png(image), symbologies: [.aztec]).isEmpty)
  }

  /// The size comes from the header, the pixels straight into the image: every pixel of a PNG
  /// comes back (JPEG: the size), and a PNG whose header is whole but whose pixel data is cut is refused as
  /// damaged.
  @Test func decode_givesEveryPixel_andRefusesDataCutAfterTheHeader() throws {
    var image = GreyImage(width: 123, height: 45, filledWith: 255)
    for index in image.pixels.indices { image.pixels[index] = UInt8((index * 37 + index / 123 * 11) % 256) }
    let png = try ImageCodec.png(image)
    let decoded = try ImageCodec.decode(png)
    #expect(decoded.width == 123 && decoded.height == 45 && decoded.pixels == image.pixels)
    let jpeg = try ImageCodec.jpeg(image, quality: 90)
    let fromJPEG = try ImageCodec.decode(jpeg)
    #expect(fromJPEG.width == 123 && fromJPEG.height == 45 && fromJPEG.pixels.count == 123 * 45)
    // (A JPEG cut short is read as far as it goes, the rest grey, as libjpeg does.)
    let cut = Data(png.prefix(png.count - 20))
    #expect((try? ImageCodec.decode(cut)) == nil)
    #expect {
      try ImageCodec.decode(cut)
    } throws: { error in
      (error as? ServiceError)?.code == "unreadable_image"
    }
  }

  @Test func textTooLongForTheSymbology_isRefused() {
    let text = String(repeating: "A", count: 8_000)
    #expect {
      try ZintRenderer().symbol(for: text, symbology: .qr, maximumWidth: nil)
    } throws: { error in
      (error as? ServiceError)?.code == "barcode_failed"
    }
  }
}

/// A terminal frame as a screen shows it: each cell 8 × 16 pixels, a half-block's upper and lower
/// halves 8 × 8 each, ink in the cell's foreground, the rest in its background.
enum TerminalImage {
  static func capture(_ buffer: Buffer, lightInk: Bool) -> GreyImage {
    let cellWidth = 8
    let half = 8
    let width = buffer.area.width * cellWidth
    let height = buffer.area.height * 2 * half
    var pixels = [UInt8](repeating: lightInk ? 0 : 255, count: width * height)
    for row in 0..<buffer.area.height {
      for column in 0..<buffer.area.width {
        let cell = buffer[x: column, y: row]
        let (upper, lower): (Bool, Bool) =
          switch cell.symbol {
          case "█": (true, true)
          case "▀": (true, false)
          case "▄": (false, true)
          default: (false, false)
          }
        // Colour: ink is the foreground (black), paper the background (white). Without colour
        // the terminal's light text is the ink.
        let inkLevel: UInt8 = lightInk ? 230 : level(cell.style.foreground, fallback: 0)
        let paperLevel: UInt8 = lightInk ? 20 : level(cell.style.background, fallback: 255)
        for (part, inked) in [(0, upper), (1, lower)] {
          let value = inked ? inkLevel : paperLevel
          for y in 0..<half {
            let start = (row * 2 * half + part * half + y) * width + column * cellWidth
            for x in 0..<cellWidth { pixels[start + x] = value }
          }
        }
      }
    }
    return GreyImage(width: width, height: height, pixels: pixels)
  }

  static func level(_ color: Color?, fallback: UInt8) -> UInt8 {
    guard case .rgb(let r, let g, let b) = color else { return fallback }
    let red: Int = Int(r) * 299
    let green: Int = Int(g) * 587
    let blue: Int = Int(b) * 114
    return UInt8((red + green + blue) / 1000)
  }
}

/// A camera's view of a printed code: placed on a page, rotated and scaled (bilinear sampling), lit
/// unevenly, slightly blurred, with sensor noise.
enum PhotoSimulation {
  static func photograph(
    _ image: GreyImage, angleDegrees: Double, scale: Double, canvas: Int, random: inout SeededRandom
  ) -> GreyImage {
    let angle = angleDegrees * .pi / 180
    let cosine = cos(angle) / scale
    let sine = sin(angle) / scale
    let centreX = Double(canvas) / 2 + Double.random(in: -60...60, using: &random)
    let centreY = Double(canvas) / 2 + Double.random(in: -60...60, using: &random)
    let sourceX = Double(image.width) / 2
    let sourceY = Double(image.height) / 2
    let width = image.width
    let maxX = Double(image.width - 1)
    let maxY = Double(image.height - 1)
    let margin = 40.0
    var out = [UInt8](repeating: 0, count: canvas * canvas)
    image.pixels.withUnsafeBufferPointer { source in
      out.withUnsafeMutableBufferPointer { target in
        for y in 0..<canvas {
          let dy = Double(y) - centreY
          for x in 0..<canvas {
            let dx = Double(x) - centreX
            let u = cosine * dx + sine * dy + sourceX
            let v = -sine * dx + cosine * dy + sourceY
            var level: Double
            if u >= 0, v >= 0, u < maxX, v < maxY {
              let x0 = Int(u)
              let y0 = Int(v)
              let fx = u - Double(x0)
              let fy = v - Double(y0)
              let index = y0 * width + x0
              let top = Double(source[index]) * (1 - fx) + Double(source[index + 1]) * fx
              let bottom = Double(source[index + width]) * (1 - fx) + Double(source[index + width + 1]) * fx
              level = top * (1 - fy) + bottom * fy
            } else {
              // Outside the code: the page around it (a light margin), then a darker desk.
              let inPage = u > -margin && v > -margin && u < maxX + margin && v < maxY + margin
              level = inPage ? 235 : 120
            }
            // Light falls off towards one corner; white paper prints at 90 %, black at 10 %.
            let light = 0.75 + 0.25 * (1 - Double(x + y) / Double(2 * canvas))
            target[y * canvas + x] = UInt8(max(0, min(255, (20 + level * 0.8) * light)))
          }
        }
      }
    }
    // A 3 × 3 box blur (focus) and noise: the sum of three uniform values in −6 … 6 (xorshift).
    var state = UInt32(truncatingIfNeeded: random.next()) | 1
    var blurred = out
    out.withUnsafeBufferPointer { source in
      blurred.withUnsafeMutableBufferPointer { target in
        for y in 1..<(canvas - 1) {
          let row = y * canvas
          for x in 1..<(canvas - 1) {
            let index = row + x
            var sum = Int(source[index - canvas - 1]) + Int(source[index - canvas]) + Int(source[index - canvas + 1])
            sum += Int(source[index - 1]) + Int(source[index]) + Int(source[index + 1])
            sum += Int(source[index + canvas - 1]) + Int(source[index + canvas]) + Int(source[index + canvas + 1])
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            let noise = Int(state & 0xFF) % 13 + Int((state >> 8) & 0xFF) % 13 + Int((state >> 16) & 0xFF) % 13 - 18
            target[index] = UInt8(max(0, min(255, sum / 9 + noise)))
          }
        }
      }
    }
    return GreyImage(width: canvas, height: canvas, pixels: blurred)
  }
}

extension BarcodeRoundTripTests {
  /// A code in a corner of a large page (zxing-cpp 1.4's Aztec detector looks from the middle):
  /// found in each symbology, its corners where it is.
  @Test func codeAwayFromTheMiddle_isFound() throws {
    let samples = BoardingPassSamples.make(count: 4, seed: 404)
    for (index, symbology) in BarcodeSymbology.allCases.enumerated() {
      let text = try samples[index].pass.encoded()
      let code = try renderer.symbol(for: text, symbology: symbology, maximumWidth: nil).image(scale: 3)
      var page = GreyImage(width: 1000, height: 1000, filledWith: 255)
      let left = 1000 - code.width - 10
      for y in 0..<code.height {
        page.pixels.replaceSubrange(
          ((10 + y) * 1000 + left)..<((10 + y) * 1000 + left + code.width),
          with: code.pixels[(y * code.width)..<((y + 1) * code.width)])
      }
      let found = try scanner.scan(page, symbologies: everything)
      #expect(found.first?.text == text, "\(symbology)")
      let xs = stride(from: 0, to: found.first?.corners.count ?? 0, by: 2).map { found.first!.corners[$0] }
      #expect(xs.allSatisfy { $0 >= left - 20 }, "\(symbology) \(xs)")
    }
  }
}
