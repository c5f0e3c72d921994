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

  var kind: Kind { Kind(rawValue: raw >> 28)! }
  var index: Int { Int(raw & 0x0FFF_FFFF) }
}

/// A prefix index over folded names and codes (see ``TextFolding``): every word start of every
/// entry is a key, and the keys are sorted byte-wise, so all names with a word starting with a
/// prefix form one contiguous range found by two binary searches. Built once by the compiler and
/// stored in the compiled file; nothing is sorted at load.
struct SearchIndex: Sendable {
  struct Entry: Hashable, Sendable {
    /// The airport, city or metro area it names.
    var ref: PlaceRef
    /// Where its folded text lies in ``SearchIndex/text``.
    var start: Int
    var length: Int
    /// Whether the text is an IATA code (as opposed to a name).
    var isCode: Bool
  }

  /// The folded texts of all entries, concatenated (UTF-8).
  let text: [UInt8]
  let entries: [Entry]
  /// Sorted keys: entry index << 16 | byte offset of a word start inside the entry's text.
  let keys: [UInt64]

  init(text: [UInt8], entries: [Entry], keys: [UInt64]) {
    self.text = text
    self.entries = entries
    self.keys = keys
  }

  /// Builds the index of `items` (texts already folded; empty texts are skipped).
  init(items: [(ref: PlaceRef, folded: String, isCode: Bool)]) {
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
    self.text = text
    self.entries = entries
    let builtEntries = entries
    let builtText = text
    self.keys = keys.sorted { lhs, rhs in
      let order = Self.compare(builtText, builtEntries, lhs, rhs)
      return order != 0 ? order < 0 : lhs < rhs
    }
  }

  func entry(ofKey key: UInt64) -> Entry { entries[Int(key >> 16)] }
  func offset(ofKey key: UInt64) -> Int { Int(key & 0xFFFF) }

  /// The keys whose text starts with `prefix` (bytes of a folded string).
  func range(prefix: [UInt8]) -> Range<Int> {
    let lower = partition { comparePrefix($0, prefix) >= 0 }
    let upper = partition { comparePrefix($0, prefix) > 0 }
    return lower..<max(lower, upper)
  }

  /// The entries whose whole text equals `folded`.
  func exactMatches(_ folded: String) -> [Entry] {
    let bytes = Array(folded.utf8)
    guard !bytes.isEmpty else { return [] }
    var result: [Entry] = []
    for position in range(prefix: bytes) {
      let key = keys[position]
      let entry = entry(ofKey: key)
      if offset(ofKey: key) == 0 && entry.length == bytes.count { result.append(entry) }
    }
    return result
  }

  /// The first position whose key satisfies `isAbove` (keys are ordered for it).
  private func partition(_ isAbove: (UInt64) -> Bool) -> Int {
    var low = 0
    var high = keys.count
    while low < high {
      let middle = (low + high) / 2
      if isAbove(keys[middle]) { high = middle } else { low = middle + 1 }
    }
    return low
  }

  /// Compares the first `prefix.count` bytes of the key's text with `prefix` (a shorter text
  /// that matches so far is smaller).
  private func comparePrefix(_ key: UInt64, _ prefix: [UInt8]) -> Int {
    let entry = entries[Int(key >> 16)]
    let start = entry.start + Int(key & 0xFFFF)
    let end = entry.start + entry.length
    var index = 0
    while index < prefix.count {
      guard start + index < end else { return -1 }
      let byte = text[start + index]
      if byte != prefix[index] { return byte < prefix[index] ? -1 : 1 }
      index += 1
    }
    return 0
  }

  private static func compare(_ text: [UInt8], _ entries: [Entry], _ lhs: UInt64, _ rhs: UInt64) -> Int {
    let left = entries[Int(lhs >> 16)]
    let right = entries[Int(rhs >> 16)]
    var leftIndex = left.start + Int(lhs & 0xFFFF)
    var rightIndex = right.start + Int(rhs & 0xFFFF)
    let leftEnd = left.start + left.length
    let rightEnd = right.start + right.length
    while leftIndex < leftEnd && rightIndex < rightEnd {
      if text[leftIndex] != text[rightIndex] { return text[leftIndex] < text[rightIndex] ? -1 : 1 }
      leftIndex += 1
      rightIndex += 1
    }
    return (leftEnd - leftIndex) == (rightEnd - rightIndex) ? 0 : (leftIndex == leftEnd ? -1 : 1)
  }
}
