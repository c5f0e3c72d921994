import CZXingReader
import Common
import Foundation

/// Reads barcodes with zxing-cpp 1.4 (Debian `libzxing-dev`) through the `CZXingReader` C++
/// target, from PNG or JPEG files (``ImageCodec``) or grey images.
///
/// A first pass looks for upright symbols at the image's scale and its downscaled copies; when it
/// finds nothing, a second pass also tries quarter turns and harder binarization; when that finds
/// nothing either (a photo held at an angle: zxing-cpp 1.4 reads Aztec and PDF417 only within a
/// few degrees of upright), the image is straightened by the direction of its strongest edges
/// (``ImageGeometry``) and read again. Corners are in the coordinates of the image given.
public struct ZXingScanner: BarcodeScanning {
  /// How many symbols one image may yield.
  static let capacity = 8

  public init() {}

  public func scan(imageData: Data, symbologies: Set<BarcodeSymbology>) throws -> [ScannedBarcode] {
    try scan(ImageCodec.decode(imageData), symbologies: symbologies)
  }

  public func scan(_ image: GreyImage, symbologies: Set<BarcodeSymbology>) throws -> [ScannedBarcode] {
    var found = try read(image, symbologies: symbologies, hard: false)
    if found.isEmpty { found = try read(image, symbologies: symbologies, hard: true) }
    guard found.isEmpty, let angle = ImageGeometry.dominantAngle(image), abs(angle) >= 1 else { return found }
    for degrees in [angle, -angle] {
      let straight = ImageGeometry.rotated(image, degrees: degrees)
      let read = try self.read(straight, symbologies: symbologies, hard: true)
      guard !read.isEmpty else { continue }
      // Corners back into the given image's coordinates.
      let radians = degrees * .pi / 180
      return read.map { barcode in
        var barcode = barcode
        barcode.corners = stride(from: 0, to: barcode.corners.count - 1, by: 2).flatMap { index -> [Int] in
          let dx = Double(barcode.corners[index]) - Double(straight.width) / 2
          let dy = Double(barcode.corners[index + 1]) - Double(straight.height) / 2
          let u = cos(radians) * dx - sin(radians) * dy + Double(image.width) / 2
          let v = sin(radians) * dx + cos(radians) * dy + Double(image.height) / 2
          return [Int(u.rounded()), Int(v.rounded())]
        }
        return barcode
      }
    }
    return found
  }

  private func read(_ image: GreyImage, symbologies: Set<BarcodeSymbology>, hard: Bool) throws -> [ScannedBarcode] {
    guard image.width > 0, image.height > 0 else { return [] }
    var formats: Int32 = 0
    for symbology in symbologies { formats |= Self.bit(symbology) }
    guard formats != 0 else { return [] }
    var results = [czxing_barcode](repeating: czxing_barcode(), count: Self.capacity)
    var error = [CChar](repeating: 0, count: 256)
    let count = image.pixels.withUnsafeBufferPointer { pixels in
      results.withUnsafeMutableBufferPointer { out in
        czxing_read(
          pixels.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width), formats, hard ? 1 : 0,
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
