import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// `MarkerSet` answers what asking `utf8Contains` marker by marker answers.
@Suite struct MarkerSetTests {
  static func firstOffset(_ markers: [String], _ text: String) -> Int? {
    let set = MarkerSet(markers)
    return Array(text.utf8).withUnsafeBytes { set.firstOffset(in: $0) }
  }

  @Test func findsTheEarliestMatchOfAnyMarker() {
    // The later marker in the list matches earlier in the text.
    #expect(Self.firstOffset(["double free", "pointer being freed"], "x: pointer being freed; double free") == 3)
    #expect(Self.firstOffset(["double free", "pointer being freed"], "double free, pointer being freed") == 0)
    // A match that ends on the text's last byte.
    #expect(Self.firstOffset(["abc", "zz"], "xxzz") == 2)
    #expect(Self.firstOffset(["abc"], "ab") == nil)
    #expect(Self.firstOffset(["é"], "café") == 3)
    // Empty markers match nothing, as `utf8Contains` answers.
    #expect(Self.firstOffset([""], "text") == nil)
    #expect(Self.firstOffset([], "text") == nil)
  }

  /// Random texts and markers over a small alphabet, against `utf8Contains`.
  @Test func agreesWithSearchingMarkerByMarker() {
    var generator = SystemRandomNumberGenerator()
    let alphabet = Array("ab_é ")
    func word(_ length: Int) -> String { String((0..<length).map { _ in alphabet.randomElement(using: &generator)! }) }
    for _ in 0..<2_000 {
      let markers = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
        word(Int.random(in: 1...3, using: &generator))
      }
      let text = word(Int.random(in: 0...24, using: &generator))
      let set = MarkerSet(markers)
      let found = Array(text.utf8).withUnsafeBytes { set.firstOffset(in: $0) }
      #expect((found != nil) == markers.contains { text.utf8Contains($0) }, "\(markers) in \(text)")
    }
  }

  /// Over a backtrace's symbols, the first frame before the limit whose symbol holds a marker.
  @Test func findsTheFirstFrameBeforeALimit() {
    let frames = ["__pthread_kill", "abort", "free_list_checksum_botch", "szone_error", "main"].map {
      Frame(imageIndex: 0, imageOffset: 0, symbol: $0, symbolLocation: 0)
    }
    let text = FrameSymbolText(frames)!
    let markers = MarkerSet(["szone_error", "free_list_checksum_botch"])
    #expect(text.firstFrame(containingAny: markers) == 2)
    #expect(text.firstFrame(containingAny: markers, before: 3) == 2)
    #expect(text.firstFrame(containingAny: markers, before: 2) == nil)
    // A marker never matches across two symbols.
    #expect(text.firstFrame(containingAny: MarkerSet(["killabort"])) == nil)
  }
}
