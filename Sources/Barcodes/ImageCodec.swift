import CImageIO
import Common
import Foundation

/// PNG and JPEG files as grey images, over libpng 1.6 and libjpeg-turbo (Debian `libpng-dev`,
/// `libjpeg-dev`), through the `CImageIO` C target.
public enum ImageCodec {
  /// The largest image read: 64 million pixels (a 12-megapixel phone photo is well within it).
  public static let maximumPixels = 64_000_000

  /// The image in a PNG or JPEG file's bytes, as 8-bit grey (colour converted to luminance,
  /// transparency laid over white).
  /// - Throws: ``ServiceError`` `unreadable_image` (`.invalidInput`) saying why: not a PNG or JPEG
  ///   image, damaged data, or more than ``maximumPixels``.
  public static func decode(_ data: Data) throws -> GreyImage {
    var width: Int32 = 0
    var height: Int32 = 0
    var error = [CChar](repeating: 0, count: 256)
    // The size from the header, then the pixels straight into the image's array (no buffer of
    // the C library to copy and free: a megabyte for a 1000 × 1000 scan).
    let pixels = data.withUnsafeBytes { raw -> [UInt8]? in
      let bytes = raw.bindMemory(to: UInt8.self)
      guard
        cimageio_grey_size(bytes.baseAddress, bytes.count, maximumPixels, &width, &height, &error, error.count) == 1
      else { return nil }
      let count = Int(width) * Int(height)
      var decoded = false
      let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
        decoded =
          cimageio_decode_grey_into(
            bytes.baseAddress, bytes.count, buffer.baseAddress, width, height, &error, error.count) == 1
        initialized = decoded ? count : 0
      }
      return decoded ? pixels : nil
    }
    guard let pixels else {
      let why = reason(error)
      throw ServiceError.invalid(
        "unreadable_image",
        why.hasPrefix("not a PNG or JPEG") || why.hasPrefix("the ") ? why : "the image is damaged (\(why))")
    }
    return GreyImage(width: Int(width), height: Int(height), pixels: pixels)
  }

  /// `image` as a PNG file's bytes.
  /// - Throws: ``ServiceError`` `image_encoding_failed` (`.unavailable`).
  public static func png(_ image: GreyImage) throws -> Data { try encode(image, quality: 0) }

  /// `image` as a JPEG file's bytes at `quality` 1–100.
  /// - Throws: ``ServiceError`` `image_encoding_failed` (`.unavailable`).
  public static func jpeg(_ image: GreyImage, quality: Int = 85) throws -> Data {
    try encode(image, quality: min(100, max(1, quality)))
  }

  private static func encode(_ image: GreyImage, quality: Int) throws -> Data {
    var out: UnsafeMutablePointer<UInt8>?
    var size = 0
    var error = [CChar](repeating: 0, count: 256)
    let ok = image.pixels.withUnsafeBufferPointer { pixels in
      cimageio_encode_grey(
        pixels.baseAddress, Int32(image.width), Int32(image.height), Int32(quality), &out, &size, &error, error.count)
    }
    guard ok == 1, let out else {
      throw ServiceError(.unavailable, code: "image_encoding_failed", message: reason(error))
    }
    defer { cimageio_free(out) }
    return Data(bytes: out, count: size)
  }

  private static func reason(_ error: [CChar]) -> String {
    error.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
  }
}
