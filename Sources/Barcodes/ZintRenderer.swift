import CZint
import Common
import Foundation

/// Encodes barcodes with libzint 2.11 (Debian `libzint-dev`): the module grid of a symbol for the
/// terminal, and PNG and SVG files written by libzint itself.
///
/// Settings: Aztec with libzint's default error correction (23 % + 3 codewords), QR at level M
/// (15 %, for reading off screens), PDF417 at libzint's automatic level; byte mode (`DATA_MODE`).
/// Quiet zones: ``BarcodeSymbology/quietZone`` modules on every side (QR 4, Aztec 4, PDF417 2,
/// Data Matrix 2). PDF417 rows are three modules tall (libzint's default).
public struct ZintRenderer: BarcodeRendering {
  public init() {}

  public func symbol(for text: String, symbology: BarcodeSymbology, maximumWidth: Int?) throws -> BarcodeSymbol {
    try withEncoded(text, symbology: symbology, maximumWidth: maximumWidth) { symbol in
      let quiet = symbology.quietZone
      let columns = Int(symbol.pointee.width)
      let rows = Int(symbol.pointee.rows)
      let totalHeight = Double(symbol.pointee.height)
      var heights: [Int] = []
      for row in 0..<rows {
        let explicit = Double(czint_row_height(symbol, Int32(row)))
        let height = explicit > 0 ? explicit : totalHeight / Double(max(1, rows))
        heights.append(max(1, Int(height.rounded())))
      }
      let width = columns + 2 * quiet
      let height = heights.reduce(0, +) + 2 * quiet
      var modules = [Bool](repeating: false, count: width * height)
      var y = quiet
      for row in 0..<rows {
        var line = [Bool](repeating: false, count: width)
        for column in 0..<columns where czint_module_is_set(symbol, Int32(row), Int32(column)) != 0 {
          line[quiet + column] = true
        }
        for _ in 0..<heights[row] {
          modules.replaceSubrange((y * width)..<((y + 1) * width), with: line)
          y += 1
        }
      }
      return BarcodeSymbol(symbology: symbology, width: width, height: height, quietZone: quiet, modules: modules)
    }
  }

  public func image(for text: String, symbology: BarcodeSymbology, format: BarcodeImageFormat, moduleSize: Int) throws
    -> Data
  {
    let moduleSize = min(max(moduleSize, 1), 40)
    return try withEncoded(text, symbology: symbology, maximumWidth: nil) { symbol in
      // libzint draws a module 2 × scale pixels wide.
      symbol.pointee.scale = Float(moduleSize) / 2
      let file = FileManager.default.temporaryDirectory
        .appendingPathComponent("travel-barcode-\(UUID().uuidString).\(format.rawValue)")
      defer { try? FileManager.default.removeItem(at: file) }
      guard czint_set_outfile(symbol, file.path) != 0 else {
        throw Self.failure("the temporary file name \(file.path) is too long for libzint")
      }
      let status = ZBarcode_Print(symbol, 0)
      guard status < ZINT_ERROR else {
        throw Self.failure("libzint could not write the \(format.rawValue.uppercased()) image: \(Self.message(symbol))")
      }
      guard let data = FileManager.default.contents(atPath: file.path), !data.isEmpty else {
        throw Self.failure("libzint wrote no \(format.rawValue.uppercased()) image")
      }
      return data
    }
  }

  /// Encodes `text` and hands the symbol to `body` (libzint's structure, freed afterwards).
  private func withEncoded<T>(
    _ text: String, symbology: BarcodeSymbology, maximumWidth: Int?,
    _ body: (UnsafeMutablePointer<zint_symbol>) throws -> T
  ) throws -> T {
    guard !text.isEmpty else { throw Self.failure("there is no text to encode") }
    guard let symbol = ZBarcode_Create() else { throw Self.failure("libzint is out of memory") }
    defer { ZBarcode_Delete(symbol) }
    symbol.pointee.input_mode = Int32(DATA_MODE)
    symbol.pointee.show_hrt = 0
    symbol.pointee.output_options |= Int32(BARCODE_QUIET_ZONES)
    switch symbology {
    case .pdf417:
      symbol.pointee.symbology = Int32(BARCODE_PDF417)
      if let maximumWidth {
        // A PDF417 row is 17 modules per data column plus 69 (start, indicators, stop).
        let columns = (maximumWidth - 2 * symbology.quietZone - 69) / 17
        symbol.pointee.option_2 = Int32(min(30, max(1, columns)))
      }
    case .aztec:
      symbol.pointee.symbology = Int32(BARCODE_AZTEC)
      symbol.pointee.whitespace_width = Int32(symbology.quietZone)
      symbol.pointee.whitespace_height = Int32(symbology.quietZone)
    case .qr:
      symbol.pointee.symbology = Int32(BARCODE_QRCODE)
      symbol.pointee.option_1 = 2  // error correction level M
    case .dataMatrix:
      symbol.pointee.symbology = Int32(BARCODE_DATAMATRIX)
      // libzint's own quiet zone is one module; make it two.
      symbol.pointee.whitespace_width = 1
      symbol.pointee.whitespace_height = 1
    }
    let bytes = Array(text.utf8)
    let status = ZBarcode_Encode(symbol, bytes, Int32(bytes.count))
    guard status < ZINT_ERROR else {
      throw Self.failure(
        "the text (\(bytes.count) bytes) cannot be encoded as \(symbology): \(Self.message(symbol))")
    }
    return try body(symbol)
  }

  private static func message(_ symbol: UnsafeMutablePointer<zint_symbol>) -> String {
    String(cString: czint_error_text(symbol))
  }

  static func failure(_ message: String) -> ServiceError {
    ServiceError(.invalidInput, code: "barcode_failed", message: message)
  }
}
