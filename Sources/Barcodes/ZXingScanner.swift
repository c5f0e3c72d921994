import CZXingReader
import Common
import Foundation

/// Reads barcodes with zxing-cpp 1.4 (Debian `libzxing-dev`) through the `CZXingReader` C++
/// target, from PNG or JPEG files (``ImageCodec``) or grey images.
///
/// A first pass reads the image as a clean one (a file a program wrote, a screenshot: black below
/// a fixed mid-grey, at the image's own scale, upright; a few milliseconds for 1000 × 1000 pixels).
/// When it finds nothing, a second pass looks for upright symbols with a local threshold (uneven
/// light) at the image's scale and its downscaled copies; then a third also tries quarter turns
/// and harder binarization; when that finds
/// nothing either (a photo held at an angle: zxing-cpp 1.4 reads Aztec and PDF417 only within a
/// few degrees of upright), the part of the image with edges is cut out (its Aztec detector
/// looks from the middle of the image) and read again, then straightened by the direction of its
/// strongest edges (``ImageGeometry``) and read again. Corners are in the coordinates of the
/// image given.
public struct ZXingScanner: BarcodeScanning {
  /// How many symbols one image may yield.
  static let capacity = 8

  public init() {}

  public func scan(imageData: Data, symbologies: Set<BarcodeSymbology>) throws -> [ScannedBarcode] {
    try scan(ImageCodec.decode(imageData), symbologies: symbologies)
  }

  public func scan(_ image: GreyImage, symbologies: Set<BarcodeSymbology>) throws -> [ScannedBarcode] {
    var found = try read(image, symbologies: symbologies, effort: CZXING_EFFORT_CLEAN)
    if found.isEmpty { found = try read(image, symbologies: symbologies, effort: CZXING_EFFORT_UPRIGHT) }
    if found.isEmpty { found = try read(image, symbologies: symbologies, effort: CZXING_EFFORT_HARD) }
    guard found.isEmpty else { return found }
    // A code away from the middle (zxing-cpp 1.4's Aztec detector looks from the centre out):
    // the part of the image with edges, cropped, then read again.
    var work = image
    var offset = (x: 0, y: 0)
    if let box = ImageGeometry.contentBounds(image), box.width * box.height * 10 < image.width * image.height * 9 {
      work = ImageGeometry.cropped(image, box)
      offset = (box.x, box.y)
      found = try read(work, symbologies: symbologies, effort: CZXING_EFFORT_HARD)
      if !found.isEmpty { return found.map { Self.moved($0, by: offset) } }
    }
    guard let angle = ImageGeometry.dominantAngle(work), abs(angle) >= 1 else { return found }
    for degrees in [angle, -angle] {
      let straight = ImageGeometry.rotated(work, degrees: degrees)
      let read = try self.read(straight, symbologies: symbologies, effort: CZXING_EFFORT_HARD)
      guard !read.isEmpty else { continue }
      // Corners back into the given image's coordinates.
      let radians = degrees * .pi / 180
      return read.map { barcode in
        var barcode = barcode
        barcode.corners = stride(from: 0, to: barcode.corners.count - 1, by: 2).flatMap { index -> [Int] in
          let dx = Double(barcode.corners[index]) - Double(straight.width) / 2
          let dy = Double(barcode.corners[index + 1]) - Double(straight.height) / 2
          let u = cos(radians) * dx - sin(radians) * dy + Double(work.width) / 2
          let v = sin(radians) * dx + cos(radians) * dy + Double(work.height) / 2
          return [Int(u.rounded()) + offset.x, Int(v.rounded()) + offset.y]
        }
        return barcode
      }
    }
    return found
  }

  /// `barcode` with its corners moved by `offset`.
  private static func moved(_ barcode: ScannedBarcode, by offset: (x: Int, y: Int)) -> ScannedBarcode {
    var moved = barcode
    moved.corners = barcode.corners.enumerated().map { $0.element + ($0.offset % 2 == 0 ? offset.x : offset.y) }
    return moved
  }

  /// The symbols zxing-cpp finds in `image` looking as hard as `effort` (a `CZXING_EFFORT_` value).
  private func read(_ image: GreyImage, symbologies: Set<BarcodeSymbology>, effort: Int) throws -> [ScannedBarcode] {
    guard image.width > 0, image.height > 0 else { return [] }
    var formats: Int32 = 0
    for symbology in symbologies { formats |= Self.bit(symbology) }
    guard formats != 0 else { return [] }
    var results = [czxing_barcode](repeating: czxing_barcode(), count: Self.capacity)
    var error = [CChar](repeating: 0, count: 256)
    let count = image.pixels.withUnsafeBufferPointer { pixels in
      results.withUnsafeMutableBufferPointer { out in
        czxing_read(
          pixels.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width), formats, Int32(effort),
          out.baseAddress, Int32(out.count), &error, Int32(error.count))
      }
    }
    guard count >= 0 else {
      let reason = error.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
      throw ServiceError(.unavailable, code: "scan_failed", message: "the barcode reader failed: \(reason)")
    }
    return results.prefix(Int(count)).compactMap { result in
      var result = result
      let text = withUnsafeBytes(of: &result.text) { raw in
        String(decoding: raw.prefix(Int(result.length)), as: UTF8.self)
      }
      let corners = withUnsafeBytes(of: result.corners) { Array($0.bindMemory(to: Int32.self)).map(Int.init) }
      guard let symbology = Self.symbology(result.format) else { return nil }
      return ScannedBarcode(symbology: symbology, text: text, corners: corners)
    }
  }

  static func bit(_ symbology: BarcodeSymbology) -> Int32 {
    switch symbology {
    case .aztec: Int32(CZXING_AZTEC)
    case .pdf417: Int32(CZXING_PDF417)
    case .qr: Int32(CZXING_QR_CODE)
    case .dataMatrix: Int32(CZXING_DATA_MATRIX)
    }
  }

  static func symbology(_ bit: Int32) -> BarcodeSymbology? {
    BarcodeSymbology.allCases.first { self.bit($0) == bit }
  }
}
