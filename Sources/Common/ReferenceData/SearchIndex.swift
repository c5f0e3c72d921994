/// What a search entry names: an airport, a city or a metropolitan area (index into the
/// corresponding table of ``ReferenceData``), packed into 32 bits.
struct PlaceRef: Hashable, Sendable {
  enum Kind: UInt32 {
    case airport = 0
    case city = 1
    case metroArea = 2
  }

  let raw: UInt32

  init(_ kind: Kind, _ index: Int) { raw = kind.rawValue << 28 | UInt32(index) }
  init?(raw: UInt32) {
    guard Kind(rawValue: raw >> 28) != nil else { return nil }
    self.raw = raw
  }

  var kind: Kind { Kind(rawValue: raw >> 28) ?? .airport }
  var index: Int { Int(raw & 0x0FFF_FFFF) }
}

/// A prefix index over folded names and codes (see ``TextFolding``): every word start of every
/// entry is a key, and the keys are sorted byte-wise, so all names with a word starting with a
/// prefix form one contiguous range found by two binary searches.
///
/// Built once by the compiler; at run time it is read in place from the compiled file's bytes
/// (nothing is decoded, sorted or copied at load). Layout of its section: the folded texts
/// (UTF-8, concatenated), then the entries (11 bytes each: UInt32 ``PlaceRef``, UInt32 start and
/// UInt16 length in the texts, UInt8 1 for a code), then the sorted keys (UInt64 each:
/// entry index << 16 | byte offset of a word start in the entry's text). Reads are bounds-checked:
/// a damaged file gives wrong answers, never a crash.
struct SearchIndex: Sendable {
  struct Entry: Hashable, Sendable {
    /// The airport, city or metro area it names.
    var ref: PlaceRef
    /// Where its folded text lies in the texts.
    var start: Int
    var length: Int
    /// Whether the text is an IATA code (as opposed to a name).
    var isCode: Bool
  }

  static let entrySize = 11

  private let bytes: [UInt8]
  private let textOffset: Int
  private let textCount: Int
  private let entriesOffset: Int
  private let entryCount: Int
  private let keysOffset: Int
  /// The number of keys.
  let keyCount: Int

  /// Reads the section at the reader's position (advancing past it).
  init(reading reader: inout BinaryReader) throws {
    bytes = reader.bytes
    textCount = try reader.count()
    textOffset = try reader.skip(textCount).lowerBound
    entryCount = try reader.count()
    guard entryCount <= bytes.count / Self.entrySize else { throw BinaryReader.Truncated() }
    entriesOffset = try reader.skip(entryCount * Self.entrySize).lowerBound
    keyCount = try reader.count()
    guard keyCount <= bytes.count / 8 else { throw BinaryReader.Truncated() }
    keysOffset = try reader.skip(keyCount * 8).lowerBound
  }

  /// Builds the index of `items` (texts already folded; empty texts and repeats are skipped).
  init(items: [(ref: PlaceRef, folded: String, isCode: Bool)]) {
    var writer = BinaryWriter()
    Self.write(items: items, to: &writer)
    var reader = BinaryReader(writer.bytes)
    // What `write` produced is well-formed by construction.
    try! self.init(reading: &reader)
  }

  /// Writes the section for `items`.
  static func write(items: [(ref: PlaceRef, folded: String, isCode: Bool)], to writer: inout BinaryWriter) {
    var text: [UInt8] = []
    var entries: [Entry] = []
    var keys: [UInt64] = []
    var seen = Set<[UInt8]>()
    for item in items where !item.folded.isEmpty {
      let bytes = Array(item.folded.utf8.prefix(Int(UInt16.max)))
      var identity = bytes
      identity.append(contentsOf: withUnsafeBytes(of: item.ref.raw.littleEndian, Array.init))
      guard seen.insert(identity).inserted else { continue }
      let entryIndex = UInt64(entries.count)
      entries.append(Entry(ref: item.ref, start: text.count, length: bytes.count, isCode: item.isCode))
      text += bytes
      for (offset, byte) in bytes.enumerated() where offset == 0 || bytes[offset - 1] == 0x20 && byte != 0x20 {
        keys.append(entryIndex << 16 | UInt64(offset))
      }
    }
    func suffix(_ key: UInt64) -> ArraySlice<UInt8> {
      let entry = entries[Int(key >> 16)]
      return text[(entry.start + Int(key & 0xFFFF))..<(entry.start + entry.length)]
    }
    keys.sort { lhs, rhs in
      let left = suffix(lhs)
      let right = suffix(rhs)
      return left == right ? lhs < rhs : left.lexicographicallyPrecedes(right)
    }
    writer.count(text.count)
    writer.raw(text)
    writer.count(entries.count)
    for entry in entries {
      writer.u32(entry.ref.raw)
      writer.u32(UInt32(entry.start))
      writer.u16(UInt16(entry.length))
      writer.u8(entry.isCode ? 1 : 0)
    }
    writer.count(keys.count)
    for key in keys { writer.u64(key) }
  }

  /// The key at `position` (0..<keyCount).
  func key(at position: Int) -> UInt64 {
    bytes.littleEndian(at: keysOffset + 8 * position)
  }

  /// The entry of `key`; nil when the bytes are damaged (a reference outside `limits`, the
  /// table sizes indexed by ``PlaceRef/Kind`` raw value, or text outside the texts).
  func entry(ofKey key: UInt64, limits: [Int]) -> Entry? {
    let index = Int(key >> 16)
    guard index < entryCount else { return nil }
    let base = entriesOffset + index * Self.entrySize
    let start = Int(bytes.littleEndian(at: base + 4, as: UInt32.self))
    let length = Int(bytes.littleEndian(at: base + 8, as: UInt16.self))
    guard start <= textCount, length <= textCount - start,
      let ref = PlaceRef(raw: bytes.littleEndian(at: base)), Int(ref.kind.rawValue) < limits.count,
      ref.index < limits[Int(ref.kind.rawValue)]
    else { return nil }
    return Entry(ref: ref, start: start, length: length, isCode: bytes[base + 10] == 1)
  }

  /// The entry of `key` without checking its reference (for comparing texts only).
  private func textOf(_ key: UInt64) -> Range<Int> {
    let index = Int(key >> 16)
    guard index < entryCount else { return 0..<0 }
    let base = entriesOffset + index * Self.entrySize
    let start = Int(bytes.littleEndian(at: base + 4, as: UInt32.self))
    let length = Int(bytes.littleEndian(at: base + 8, as: UInt16.self))
    let offset = offset(ofKey: key)
    guard start <= textCount, length <= textCount - start, offset <= length else { return 0..<0 }
    return (textOffset + start + offset)..<(textOffset + start + length)
  }

  func offset(ofKey key: UInt64) -> Int { Int(key & 0xFFFF) }

  /// The positions of the keys whose text starts with `prefix` (bytes of a folded string).
  func range(prefix: [UInt8]) -> Range<Int> {
    let lower = partition { comparePrefix($0, prefix) >= 0 }
    let upper = partition { comparePrefix($0, prefix) > 0 }
    return lower..<max(lower, upper)
  }

  /// The entries whose whole text equals `folded` (see ``entry(ofKey:limits:)`` for `limits`).
  func exactMatches(_ folded: String, limits: [Int]) -> [Entry] {
    let query = Array(folded.utf8)
    guard !query.isEmpty else { return [] }
    var result: [Entry] = []
    for position in range(prefix: query) {
      let key = key(at: position)
      if offset(ofKey: key) == 0, let entry = entry(ofKey: key, limits: limits), entry.length == query.count {
        result.append(entry)
      }
    }
    return result
  }

  /// The first position whose key satisfies `isAbove` (keys are ordered for it).
  private func partition(_ isAbove: (UInt64) -> Bool) -> Int {
    var low = 0
    var high = keyCount
    while low < high {
      let middle = (low + high) / 2
      if isAbove(key(at: middle)) { high = middle } else { low = middle + 1 }
    }
    return low
  }

  /// Compares the first `prefix.count` bytes of the key's text with `prefix` (a shorter text
  /// that matches so far is smaller).
  private func comparePrefix(_ key: UInt64, _ prefix: [UInt8]) -> Int {
    let text = textOf(key)
    let start = text.lowerBound
    let end = text.upperBound
    var index = 0
    while index < prefix.count {
      guard start + index < end else { return -1 }
      let byte = bytes[start + index]
      if byte != prefix[index] { return byte < prefix[index] ? -1 : 1 }
      index += 1
    }
    return 0
  }
}
