import Foundation

/// Appends little-endian integers, doubles and length-prefixed UTF-8 to a byte buffer.
struct BinaryWriter {
  private(set) var bytes: [UInt8] = []

  mutating func u8(_ value: UInt8) { bytes.append(value) }
  mutating func u16(_ value: UInt16) { integer(value) }
  mutating func u32(_ value: UInt32) { integer(value) }
  mutating func u64(_ value: UInt64) { integer(value) }
  mutating func f64(_ value: Double) { integer(value.bitPattern) }
  mutating func count(_ value: Int) { u32(UInt32(value)) }
  mutating func raw(_ value: [UInt8]) { bytes += value }

  /// A string as a 32-bit byte count and its UTF-8 bytes.
  mutating func string(_ value: String) {
    count(value.utf8.count)
    bytes += value.utf8
  }

  private mutating func integer<T: FixedWidthInteger>(_ value: T) {
    var little = value.littleEndian
    withUnsafeBytes(of: &little) { bytes += $0 }
  }
}

/// Reads what ``BinaryWriter`` wrote; every read is bounds-checked and throws instead of trapping.
struct BinaryReader {
  struct Truncated: Error {}

  private let bytes: [UInt8]
  private(set) var offset: Int

  init(_ bytes: [UInt8], offset: Int = 0) {
    self.bytes = bytes
    self.offset = offset
  }

  var isAtEnd: Bool { offset == bytes.count }

  mutating func u8() throws -> UInt8 {
    guard offset < bytes.count else { throw Truncated() }
    defer { offset += 1 }
    return bytes[offset]
  }
  mutating func u16() throws -> UInt16 { try integer() }
  mutating func u32() throws -> UInt32 { try integer() }
  mutating func u64() throws -> UInt64 { try integer() }
  mutating func f64() throws -> Double { Double(bitPattern: try integer()) }
  mutating func count() throws -> Int { Int(try u32()) }

  /// `count` raw bytes.
  mutating func raw(_ count: Int) throws -> [UInt8] {
    guard count >= 0, count <= bytes.count - offset else { throw Truncated() }
    defer { offset += count }
    return Array(bytes[offset..<offset + count])
  }

  mutating func string() throws -> String {
    let length = try count()
    guard length <= bytes.count - offset else { throw Truncated() }
    defer { offset += length }
    return String(decoding: bytes[offset..<offset + length], as: UTF8.self)
  }

  private mutating func integer<T: FixedWidthInteger>() throws -> T {
    let size = MemoryLayout<T>.size
    guard size <= bytes.count - offset else { throw Truncated() }
    var value: T = 0
    for index in 0..<size {
      value |= T(truncatingIfNeeded: bytes[offset + index]) << (8 * index)
    }
    offset += size
    return value
  }
}

/// FNV-1a, 64 bits: the checksum of the source CSVs written in the compiled file's header.
struct FNV1a64 {
  private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

  mutating func combine<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
    for byte in bytes {
      value ^= UInt64(byte)
      value = value &* 0x0000_0100_0000_01b3
    }
  }
}
