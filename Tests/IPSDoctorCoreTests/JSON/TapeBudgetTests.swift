import Testing

@testable import IPSDoctorJSON

/// A tape read with a ``JSONTapeBudget`` keeps the first values of each container, in order, and
/// records what each lost; what it keeps is a valid document of its own.
@Suite("JSON tape budget")
struct TapeBudgetTests {
  static func read(_ text: String, _ budget: JSONTapeBudget) -> (document: JSONDocument?, error: JSONError?) {
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBufferPointer { buffer in
      let (document, _, error) = JSONParser.documentPrefix(buffer, from: 0, budget: budget)
      return (document, error)
    }
  }

  static func budget(elements: Int = .max, outline: Int = .max, depth: Int = 1, total: Int = .max) -> JSONTapeBudget {
    JSONTapeBudget(maxArrayElements: elements, outlineEntries: outline, outlineDepth: depth, maxEntries: total)
  }

  /// `document`'s omissions as (path, count).
  static func omissions(_ document: JSONDocument) -> [String: Int] {
    Dictionary(uniqueKeysWithValues: document.omissions.map { (document.path(to: $0.index).description, $0.count) })
  }

  @Test("Each array keeps its first elements and counts the rest")
  func arrayCap() throws {
    let (document, error) = Self.read(#"{"a":[1,2,3,4,5],"b":[[1,2],[3,4,5]],"c":"x"}"#, Self.budget(elements: 2))
    #expect(error == nil)
    let kept = try #require(document)
    #expect(kept.value == (try JSONParser.parse(#"{"a":[1,2],"b":[[1,2],[3,4]],"c":"x"}"#)))
    #expect(Self.omissions(kept) == ["a": 3, "b[1]": 1])
    #expect(!kept.isAbridged)
    #expect(kept.omissions.first?.count == 3)
    #expect(!kept.omissions.contains { $0.index == 0 })
  }

  @Test("What a dropped element lost is not counted again")
  func droppedElementsTakeTheirOmissions() throws {
    let (document, _) = Self.read("[[1,2,3],[4,5,6],[7,8,9],[10]]", Self.budget(elements: 2))
    let kept = try #require(document)
    #expect(kept.value == (try JSONParser.parse("[[1,2],[4,5]]")))
    #expect(Self.omissions(kept) == ["$": 2, "[0]": 1, "[1]": 1])
    // The tape holds the kept values only.
    #expect(kept.copiedEntries().count == 7)
  }

  @Test("Past the outline, nested lists are cut and members are kept")
  func outline() throws {
    let text = #"{"threads":[{"id":1,"frames":[1,2,3]},{"id":2,"frames":[4,5,6]}],"images":[{"n":"a"},{"n":"b"}]}"#
    // 9 entries: the root, "threads", the array, the first thread, "id", 1, "frames", its array, 1.
    let (document, _) = Self.read(text, Self.budget(outline: 9, depth: 4))
    let kept = try #require(document)
    #expect(kept.isAbridged)
    // The first thread's frames were read before the tape reached 8 entries.
    #expect(
      kept.value
        == (try JSONParser.parse(
          #"{"threads":[{"id":1,"frames":[1]},{"id":2,"frames":[]}],"images":[{"n":"a"},{"n":"b"}]}"#)))
    #expect(Self.omissions(kept) == ["threads[0].frames": 2, "threads[1].frames": 3])
  }

  @Test("Past the total, nothing more is kept, and the tape stays within it")
  func total() throws {
    let members = (0..<1_000).map { #""k\#($0)":[\#($0),{"x":\#($0)}]"# }.joined(separator: ",")
    let (document, error) = Self.read("{" + members + "}", Self.budget(total: 50))
    #expect(error == nil)
    let kept = try #require(document)
    #expect(kept.isAbridged)
    #expect(kept.copiedEntries().count <= 50)
    let root = try #require(kept.value.objectValue)
    #expect(root.count > 5 && root.count < 20)
    #expect(root.count + (Self.omissions(kept)["$"] ?? 0) == 1_000)
    #expect(root["k0"] == (try JSONParser.parse(#"[0,{"x":0}]"#)))
  }

  @Test("Values that are not kept are still checked")
  func droppedValuesAreValidated() throws {
    // What was read before the break is there, closed; the value that broke is not.
    for (text, partial) in [
      ("[1,2,3,tru]", "[1]"), (#"[1,2,{"a":}]"#, "[1,{}]"), ("[1,2,[3,[4,]]]", "[1,[3,[4]]]"), ("[1,2,3", "[1]"),
    ] {
      let (document, error) = Self.read(text, Self.budget(elements: 1))
      #expect(error != nil, "\(text)")
      #expect(document?.value == (try JSONParser.parse(partial)), "\(text)")
    }
  }

  @Test("A container that breaks still says what it lost")
  func omissionsOfContainersOpenAtTheBreak() throws {
    let (document, error) = Self.read(#"{"frames":[1,2,3,4,"#, Self.budget(elements: 2))
    #expect(error != nil)
    let kept = try #require(document)
    #expect(kept.value == (try JSONParser.parse(#"{"frames":[1,2]}"#)))
    #expect(Self.omissions(kept) == ["frames": 2])
  }

  @Test("A document within its budget is read as without one")
  func withinBudget() throws {
    let text = #"{"a":[1,2,{"b":[true,false,null]}],"c":"\u00e9","d":-1.5e3}"#
    let (capped, _) = Self.read(text, Self.budget(elements: 3, outline: 100, depth: 2, total: 100))
    let document = try #require(capped)
    #expect(document.omissions.isEmpty && !document.isAbridged)
    #expect(document.value == (try JSONParser.parse(text)))
    let whole = Array(text.utf8).withUnsafeBufferPointer { JSONParser.documentPrefix($0, from: 0).document }
    #expect(document.copiedEntries() == whole?.copiedEntries())
  }

  @Test("A marked element past an array's limit is kept, up to the budget's number of them")
  func markedElements() throws {
    let text = #"[{"a":1},{"a":2},{"t":true,"a":3},{"t":false},{"a":4,"t":true},{"t":true}]"#
    var budget = Self.budget(elements: 2)
    budget.marker = Array("t".utf8)
    budget.maxMarked = 2
    let (document, _) = Self.read(text, budget)
    let kept = try #require(document)
    #expect(kept.value == (try JSONParser.parse(#"[{"a":1},{"a":2},{"t":true,"a":3},{"a":4,"t":true}]"#)))
    #expect(Self.omissions(kept) == ["$": 2])
  }

  @Test("Cut and mutated reports: the capped pass breaks where the whole pass does, within its total")
  func mutatedDocuments() throws {
    let fixture = try Fixtures.bytes("reports/async-bridge-didreceive-simplified-symbols.ips")
    let body = Array(fixture[(fixture.firstIndex(of: 0x0A)! + 1)...])
    let budget = JSONTapeBudget(
      maxArrayElements: 3, outlineEntries: 40, outlineDepth: 3, maxEntries: 80, marker: "triggered", maxMarked: 1)
    var generator = SeededGenerator(seed: 0x7A9E)
    for round in 0..<400 {
      var bytes = body
      if round % 2 == 0 {
        bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator)))
      } else {
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
          let at = Int.random(in: 0..<bytes.count, using: &generator)
          bytes[at] = Array(#"{}[],:"0 "#.utf8).randomElement(using: &generator)!
        }
      }
      let (capped, cappedEnd, cappedError, whole, wholeError) = bytes.withUnsafeBufferPointer { buffer in
        let capped = JSONParser.documentPrefix(buffer, from: 0, budget: budget)
        let whole = JSONParser.documentPrefix(buffer, from: 0)
        return (capped.document, capped.end, capped.error, whole.end, whole.error)
      }
      #expect(cappedEnd == whole && cappedError?.location.offset == wholeError?.location.offset, "round \(round)")
      guard let capped else { continue }
      let entries = capped.copiedEntries()
      #expect(entries.count <= budget.maxEntries + 2 * JSONParser.defaultMaxDepth + 2, "round \(round)")
      for omission in capped.omissions {
        #expect(entries[omission.index].kind == .array || entries[omission.index].kind == .object, "round \(round)")
      }
      // A tree can be built from what was kept (a tape whose counts and ends disagreed would trap).
      _ = capped.value
    }
  }

  @Test("Paths name keys, indexes and the root")
  func paths() throws {
    let document = try #require(Self.read(#"{"a":[0,{"b c":[7]}]}"#, Self.budget()).document)
    let entries = document.copiedEntries()
    // 0 root, 1 "a", 2 [..], 3 0, 4 {..}, 5 "b c", 6 [7], 7 7
    #expect(entries.count == 8)
    #expect(document.path(to: 0).isRoot)
    #expect(document.path(to: 2) == JSONPath([.key("a")]))
    #expect(document.path(to: 6) == JSONPath([.key("a"), .index(1), .key("b c")]))
    #expect(document.path(to: 7) == JSONPath([.key("a"), .index(1), .key("b c"), .index(0)]))
  }
}
