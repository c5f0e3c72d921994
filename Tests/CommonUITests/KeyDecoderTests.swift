import Testing

@testable import CommonUI

@Suite struct KeyDecoderTests {
  func decode(_ bytes: [UInt8]) -> [Key] {
    var decoder = KeyDecoder()
    return decoder.decode(bytes)
  }

  func decode(_ text: String) -> [Key] { decode(Array(text.utf8)) }

  @Test func printableASCIIAndUTF8() {
    #expect(decode("aZ 1") == [.character("a"), .character("Z"), .character(" "), .character("1")])
    #expect(decode("é東😀") == [.character("é"), .character("東"), .character("😀")])
  }

  @Test func clustersTypedTogetherStayOneCharacter() {
    #expect(decode("e\u{301}") == [.character("e\u{301}")])
    #expect(decode("👩‍👩‍👧") == [.character("👩‍👩‍👧")])
  }

  @Test func utf8SplitAcrossReads() {
    var decoder = KeyDecoder()
    let bytes = Array("東".utf8)
    #expect(decoder.decode(bytes[0..<1]).isEmpty)
    #expect(decoder.decode(bytes[1..<3]) == [.character("東")])
  }

  @Test func invalidUTF8IsDropped() {
    #expect(decode([0xFF, 0x61, 0x80]) == [.character("a")])
  }

  @Test func controlKeys() {
    #expect(decode([3]) == [.control("c")])
    #expect(decode([1, 5, 26]) == [.control("a"), .control("e"), .control("z")])
    #expect(decode([13]) == [.enter])
    #expect(decode([10]) == [.enter])
    #expect(decode([9]) == [.tab])
    #expect(decode([127]) == [.backspace])
    #expect(decode([8]) == [.backspace])
  }

  @Test(arguments: [
    ("\u{1B}[A", Key.up), ("\u{1B}[B", .down), ("\u{1B}[C", .right), ("\u{1B}[D", .left),
    ("\u{1B}OA", .up), ("\u{1B}[1;5C", .right), ("\u{1B}[H", .home), ("\u{1B}[F", .end),
    ("\u{1B}OH", .home), ("\u{1B}OF", .end), ("\u{1B}[1~", .home), ("\u{1B}[4~", .end), ("\u{1B}[7~", .home),
    ("\u{1B}[8~", .end), ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown), ("\u{1B}[Z", .backTab),
    ("\u{1B}[3~", .delete), ("\u{1B}[2~", .insert), ("\u{1B}OP", .function(1)), ("\u{1B}[15~", .function(5)),
    ("\u{1B}[24~", .function(12)),
  ])
  func escapeSequences(sequence: String, key: Key) {
    #expect(decode(sequence) == [key])
  }

  @Test func unknownSequenceIsDroppedWhole() {
    #expect(decode("\u{1B}[99~x") == [.character("x")])
    #expect(decode("\u{1B}[?1;2cx") == [.character("x")])
  }

  @Test func loneEscapeWaitsForTheTimeout() {
    var decoder = KeyDecoder()
    #expect(decoder.decode([27]).isEmpty)
    #expect(decoder.hasPending)
    #expect(decoder.flush() == [.escape])
    #expect(!decoder.hasPending)
  }

  @Test func escapeSequenceSplitAcrossReads() {
    var decoder = KeyDecoder()
    #expect(decoder.decode([27]).isEmpty)
    #expect(decoder.decode(Array("[".utf8)).isEmpty)
    #expect(decoder.decode(Array("B".utf8)) == [.down])
  }

  @Test func escapeThenKey_isEscThenTheKey() {
    #expect(decode("\u{1B}q") == [.escape, .character("q")])
    #expect(decode("\u{1B}\u{1B}[A") == [.escape, .up])
  }

  @Test func unfinishedSequenceAtTimeout_isEscThenText() {
    var decoder = KeyDecoder()
    #expect(decoder.decode(Array("\u{1B}[".utf8)).isEmpty)
    #expect(decoder.flush() == [.escape, .character("[")])
  }

  @Test func bracketedPaste_isOneKeyWithNewlines() {
    let keys = decode("x\u{1B}[200~Hello\r\nworld\u{1B}[A\rend\u{1B}[201~y")
    #expect(keys == [.character("x"), .paste("Hello\nworld\u{1B}[A\nend"), .character("y")])
  }

  @Test func bracketedPaste_acrossReadsAndNotFlushedByTimeout() {
    var decoder = KeyDecoder()
    #expect(decoder.decode(Array("\u{1B}[200~abc\u{1B}[20".utf8)).isEmpty)
    #expect(!decoder.hasPending)
    #expect(decoder.flush().isEmpty)
    #expect(decoder.decode(Array("1~".utf8)) == [.paste("abc")])
  }

  @Test func keyDescriptions() {
    #expect(Key.control("c").description == "Ctrl-C")
    #expect(Key.backTab.description == "Shift-Tab")
    #expect(Key.character(" ").description == "Space")
  }
}
