import Foundation

/// The 2D symbologies boarding passes use (IATA Resolution 792): PDF417 on paper, Aztec and QR
/// (and, for reading, Data Matrix) on phones.
public enum BarcodeSymbology: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
  case pdf417
  case aztec
  case qr
  case dataMatrix = "datamatrix"

  /// The symbologies a boarding pass is drawn in (`--symbology pdf417|aztec|qr`).
  public static let drawable: [BarcodeSymbology] = [.pdf417, .aztec, .qr]

  /// `PDF417`, `Aztec`, `QR`, `Data Matrix`.
  public var description: String {
    switch self {
    case .pdf417: "PDF417"
    case .aztec: "Aztec"
    case .qr: "QR"
    case .dataMatrix: "Data Matrix"
    }
  }

  /// The light margin around the symbol, in modules, that a reader needs: 4 for QR (ISO/IEC
  /// 18004), 2 for PDF417 and Data Matrix, and 4 for Aztec (which needs none by its standard;
  /// phone cameras read it better with one).
  public var quietZone: Int {
    switch self {
    case .qr, .aztec: 4
    case .pdf417, .dataMatrix: 2
    }
  }

  /// Parses `--symbology`: `pdf417`, `aztec` or `qr` (any case).
  /// - Throws: ``ServiceError`` `invalid_symbology` naming what is accepted.
  public static func parseDrawable(_ text: String) throws -> BarcodeSymbology {
    guard let symbology = BarcodeSymbology(rawValue: text.lowercased()), drawable.contains(symbology) else {
      throw ServiceError.invalid(
        "invalid_symbology",
        "invalid --symbology \(EchoedInput.quoted(text)): expected pdf417, aztec or qr")
    }
    return symbology
  }
}

/// An encoded 2D barcode as a grid of modules, its quiet zone included: what a view draws, one
/// module per half terminal cell, and what an image is made from.
///
/// `rows` are in X-dimension units: a PDF417 row three modules tall is three rows here.
public struct BarcodeSymbol: Hashable, Sendable {
  public var symbology: BarcodeSymbology
  /// Columns, quiet zone included.
  public var width: Int
  /// Rows (X-dimension units), quiet zone included.
  public var height: Int
  /// The quiet zone on each side, in modules.
  public var quietZone: Int
  /// `width * height` values, row by row: true for a dark module.
  public var modules: [Bool]

  public init(symbology: BarcodeSymbology, width: Int, height: Int, quietZone: Int, modules: [Bool]) {
    precondition(modules.count == width * height, "a symbol has width × height modules")
    self.symbology = symbology
    self.width = width
    self.height = height
    self.quietZone = quietZone
    self.modules = modules
  }

  /// Whether the module at column `x`, row `y` is dark (false outside the symbol).
  public func isDark(x: Int, y: Int) -> Bool {
    guard x >= 0, y >= 0, x < width, y < height else { return false }
    return modules[y * width + x]
  }

  /// The symbol as an 8-bit grey image, `scale` pixels per module (dark 0, light 255).
  public func image(scale: Int = 4) -> GreyImage {
    let scale = max(1, scale)
    var pixels = [UInt8](repeating: 255, count: width * scale * height * scale)
    let stride = width * scale
    for y in 0..<height {
      for x in 0..<width where modules[y * width + x] {
        for dy in 0..<scale {
          let row = (y * scale + dy) * stride + x * scale
          for dx in 0..<scale { pixels[row + dx] = 0 }
        }
      }
    }
    return GreyImage(width: stride, height: height * scale, pixels: pixels)
  }
}

/// An 8-bit grey image, row by row without padding (0 black, 255 white).
public struct GreyImage: Hashable, Sendable {
  public var width: Int
  public var height: Int
  public var pixels: [UInt8]

  public init(width: Int, height: Int, pixels: [UInt8]) {
    precondition(pixels.count == width * height, "a grey image has width × height pixels")
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// A `width` × `height` image of one grey level.
  public init(width: Int, height: Int, filledWith level: UInt8) {
    self.init(width: width, height: height, pixels: [UInt8](repeating: level, count: width * height))
  }
}

/// A barcode found in an image: its symbology, the text it carries and where it is (corners in
/// pixels: top-left, top-right, bottom-right, bottom-left).
public struct ScannedBarcode: Hashable, Sendable, Codable {
  public var symbology: BarcodeSymbology
  public var text: String
  public var corners: [Int]

  public init(symbology: BarcodeSymbology, text: String, corners: [Int] = []) {
    self.symbology = symbology
    self.text = text
    self.corners = corners
  }
}

/// Image formats barcodes are written in.
public enum BarcodeImageFormat: String, Hashable, Sendable, Codable {
  case png
  case svg
}

/// Encodes text as a barcode: the module grid (for the terminal) and PNG or SVG files. Implemented
/// over libzint by the `Barcodes` target; the apps wire it into the features.
public protocol BarcodeRendering: Sendable {
  /// The symbol of `text` in `symbology`, with its quiet zone; for PDF417, data columns chosen so
  /// the symbol is at most `maximumWidth` modules wide when it can be (nil: the encoder's choice).
  /// - Throws: ``ServiceError`` `barcode_failed` (`.invalidInput`) when the text does not fit the
  ///   symbology (too long) or cannot be encoded.
  func symbol(for text: String, symbology: BarcodeSymbology, maximumWidth: Int?) throws -> BarcodeSymbol

  /// `text` as an image file in `format`: black modules on white, the quiet zone included,
  /// `moduleSize` pixels per module (PNG; SVG scales the same way, in user units).
  /// - Throws: ``ServiceError`` `barcode_failed` as ``symbol(for:symbology:maximumWidth:)``.
  func image(for text: String, symbology: BarcodeSymbology, format: BarcodeImageFormat, moduleSize: Int) throws -> Data
}

/// Reads barcodes from images. Implemented over zxing-cpp (and libpng, libjpeg) by the `Barcodes`
/// target.
public protocol BarcodeScanning: Sendable {
  /// The barcodes of `symbologies` in a PNG or JPEG file's bytes, best first (empty when none).
  /// - Throws: ``ServiceError`` `unreadable_image` (`.invalidInput`) when the bytes are not a PNG or
  ///   JPEG image or the image is damaged or too large (the reason says which).
  func scan(imageData: Data, symbologies: Set<BarcodeSymbology>) throws -> [ScannedBarcode]

  /// The barcodes of `symbologies` in a grey image.
  /// - Throws: ``ServiceError`` `scan_failed` (`.unavailable`) when the reader fails.
  func scan(_ image: GreyImage, symbologies: Set<BarcodeSymbology>) throws -> [ScannedBarcode]
}
