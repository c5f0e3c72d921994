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
  /// An unsigned LEB128 varint (7 bits a byte, low bits first).
  mutating func varint(_ value: UInt64) {
    var rest = value
    while rest >= 0x80 {
      bytes.append(UInt8(rest & 0x7F) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(rest))
  }
  /// A signed integer as a zigzag varint (0, -1, 1, -2, … → 0, 1, 2, 3, …).
  mutating func signedVarint(_ value: Int64) { varint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

  /// A string as a 32-bit byte count and its UTF-8 bytes.

  private mutating func integer<T: FixedWidthInteger>(_ value: T) {
    var little = value.littleEndian
    withUnsafeBytes(of: &little) { bytes += $0 }
  }
}

/// Reads what ``BinaryWriter`` wrote; every read is bounds-checked and throws instead of trapping.
struct BinaryReader {
  struct Truncated: Error {}

  let bytes: [UInt8]
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
  mutating func u16() throws -> UInt16 { UInt16(littleEndian: try load()) }
  mutating func u32() throws -> UInt32 { UInt32(littleEndian: try load()) }
  mutating func u64() throws -> UInt64 { UInt64(littleEndian: try load()) }
  mutating func f64() throws -> Double { Double(bitPattern: try u64()) }
  mutating func count() throws -> Int { Int(try u32()) }

  /// What ``BinaryWriter/varint(_:)`` wrote (at most ten bytes).
  mutating func varint() throws -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      guard offset < bytes.count, shift < 64 else { throw Truncated() }
      let byte = bytes[offset]
      offset += 1
      value |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return value }
      shift += 7
    }
  }

  /// What ``BinaryWriter/signedVarint(_:)`` wrote.
  mutating func signedVarint() throws -> Int64 {
    let raw = try varint()
    return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
  }

  /// `count` raw bytes.
  mutating func raw(_ count: Int) throws -> [UInt8] {
    let range = try skip(count)
    return Array(bytes[range])
  }

  /// Moves past `count` bytes and returns their range.
  mutating func skip(_ count: Int) throws -> Range<Int> {
    guard count >= 0, count <= bytes.count - offset else { throw Truncated() }
    defer { offset += count }
    return offset..<offset + count
  }

  /// A string of `length` UTF-8 bytes (invalid sequences become U+FFFD).
  mutating func string(length: Int) throws -> String {
    let range = try skip(length)
    return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
  }

  private mutating func load<T: FixedWidthInteger>() throws -> T {
    let size = MemoryLayout<T>.size
    guard size <= bytes.count - offset else { throw Truncated() }
    let value = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
    offset += size
    return value
  }
}

extension Array where Element == UInt8 {
  /// The little-endian integer at `offset`, or 0 when it would read past the end.
  func littleEndian<T: FixedWidthInteger>(at offset: Int, as type: T.Type = T.self) -> T {
    guard offset >= 0, offset <= count - MemoryLayout<T>.size else { return 0 }
    return T(littleEndian: withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) })
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
