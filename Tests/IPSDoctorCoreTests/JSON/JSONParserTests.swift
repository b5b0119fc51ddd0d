#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport
@testable import IPSDoctorJSON
@testable import IPSDoctorSupport

@Suite("JSON parser")
struct JSONParserTests {
  private func parseError(_ text: String, maxDepth: Int = JSONParser.defaultMaxDepth) -> JSONError? {
    do throws(JSONError) {
      _ = try JSONParser.parse(text, maxDepth: maxDepth)
      return nil
    } catch {
      return error
    }
  }

  /// The string scanner skips eight bytes at a time; a byte that needs attention must be found
  /// wherever it falls within or across those words.
  @Test("Quotes, escapes, control bytes and UTF-8 are found at every offset of a string")
  func specialBytesAtEveryOffset() throws {
    for length in 0..<20 {
      for position in 0..<max(length, 1) where position <= length {
        let before = String(repeating: "a", count: position)
        let after = String(repeating: "b", count: max(length - position - 1, 0))
        #expect(try JSONParser.parse("[\"\(before)\\n\(after)\"]") == .array([.string(before + "\n" + after)]))
        #expect(try JSONParser.parse("[\"\(before)é\(after)\"]") == .array([.string(before + "é" + after)]))
        #expect(try JSONParser.parse("[\"\(before)\",\"\(after)\"]") == .array([.string(before), .string(after)]))
        let control = parseError("[\"\(before)\u{01}\(after)\"]")
        #expect(control?.reason == .controlCharacterInString(0x01))
        #expect(control?.location.column == position + 3)
        var invalid = Array("[\"\(before)".utf8) + [0xFF] + Array("\(after)\"]".utf8)
        #expect(throws: JSONError.self) { try JSONParser.parse(invalid) }
        invalid[position + 2] = 0x7F  // DEL is allowed unescaped
        #expect((try? JSONParser.parse(invalid)) != nil)
      }
    }
  }

  @Test("64-bit integers keep their exact value")
  func exactIntegers() throws {
    let value = try JSONParser.parse(
      #"{"max":18446744073709551615,"min":-9223372036854775808,"odd":9007199254740993}"#)
    #expect(value["max"]?.numberValue == .unsigned(.max))
    #expect(value["min"]?.numberValue?.int64 == .min)
    #expect(value["odd"]?.numberValue?.uint64 == 9_007_199_254_740_993)
  }

  @Test("Fractions, exponents and oversized integers keep their text")
  func otherNumbers() throws {
    let value = try JSONParser.parse("[1.5, 2e3, -0.0, 18446744073709551616]")
    #expect(value[0]?.numberValue == .other("1.5"))
    #expect(value[1]?.numberValue?.uint64 == 2000)
    #expect(value[2]?.numberValue?.double == 0)
    #expect(value[3]?.numberValue == .other("18446744073709551616"))
    #expect(value[3]?.numberValue?.uint64 == nil)
  }

  @Test("Escapes and surrogate pairs decode")
  func escapes() throws {
    let value = try JSONParser.parse(#""a\"b\\c\/d\u00e9\ud83d\ude00\n""#)
    #expect(value.stringValue == "a\"b\\c/d\u{e9}\u{1F600}\n")
  }

  @Test("Errors carry line, column and JSON path")
  func errorLocation() throws {
    let text = "{\n  \"threads\": [{\"frames\": [{\"imageIndex\": 1}, {\"imageIndex\": 2 \"x\": 1}]}]\n}"
    let error = try #require(parseError(text))
    #expect(error.location.line == 2)
    #expect(error.location.column == 63)
    #expect(error.path.description == "threads[0].frames[1]")
    #expect(error.message == "expected ',' or '}' after object member, found '\"'")
    #expect(
      error.description == "2:63: error: expected ',' or '}' after object member, found '\"' (at threads[0].frames[1])")
  }

  @Test("An error inside a member value names the member")
  func errorInMemberValue() throws {
    let error = try #require(parseError(#"{"exception": {"codes": tru}}"#))
    #expect(error.path.description == "exception.codes")
    #expect(error.location.column == 25)
  }

  @Test("Nesting beyond the limit fails with the depth error")
  func depthLimit() throws {
    let deep = String(repeating: "[", count: 1_000_000)
    let error = try #require(parseError(deep))
    #expect(error.reason == .tooDeep(limit: 512))
    #expect(parseError(String(repeating: "[", count: 512) + String(repeating: "]", count: 512)) == nil)
    let objects = String(repeating: "{\"a\":", count: 100_000)
    #expect(parseError(objects)?.reason == .tooDeep(limit: 512))
  }

  @Test("Invalid UTF-8 is reported at the offending byte")
  func invalidUTF8() throws {
    let bytes: [UInt8] = Array("[\"ok\", \"bad ".utf8) + [0xC3, 0x28] + Array("\"]".utf8)
    do throws(JSONError) {
      _ = try JSONParser.parse(bytes)
      Issue.record("accepted invalid UTF-8")
    } catch {
      #expect(error.reason == .invalidUTF8)
      #expect(error.location.offset == 12)
      #expect(error.path.description == "[1]")
    }
  }

  @Test("parsePrefix stops after the first value")
  func prefix() throws {
    let bytes = Array("{\"a\":1}\n{\"b\":2}".utf8)
    let (value, end) = try bytes.withUnsafeBufferPointer { buffer throws(JSONError) in
      try JSONParser.parsePrefix(buffer, from: 0)
    }
    #expect(value["a"]?.numberValue == .unsigned(1))
    #expect(end == 7)
  }

  @Test("Writer round-trips and escapes terminal-unsafe characters")
  func writer() throws {
    let value = try JSONParser.parse(#"{"s":"a\u001b[31mb\u202e","n":[18446744073709551615,1.5]}"#)
    let text = JSONWriter.string(value, style: .compact)
    #expect(text == #"{"s":"a\u001b[31mb\u202e","n":[18446744073709551615,1.5]}"#)
    #expect(try JSONParser.parse(text) == value)
  }
}

@Suite("Stack use of the recursions input can drive")
struct JSONParserStackTests {
  /// Dispatch runs its workers on 512 KiB stacks on macOS; ips-doctor runs its work on the main
  /// thread and on its own workers (``WorkerThreads``), 8 MiB each. The parser at its depth limit
  /// fits in 512 KiB, even in a debug build.
  @Test func theParserFitsInA512KiBStack() throws {
    final class Box: @unchecked Sendable { var outcome: String = "not run" }
    let box = Box()
    let text = String(repeating: "[{\"a\":", count: 256) + "1" + String(repeating: "}]", count: 256)
    WorkerThreads.run(count: 1, stackSize: 512 * 1024) { _ in
      do {
        _ = try JSONParser.parse(text)
        box.outcome = "ok"
      } catch {
        box.outcome = "error: \(error)"
      }
    }
    #expect(box.outcome == "ok")
  }

  /// What takes more than 512 KiB at the inputs' limits fits in a worker's stack: writing and
  /// comparing the deepest value the parser accepts (a frame per level), and demangling about the
  /// most deeply nested symbol the demangler shows (its demangled form at most 16 KiB:
  /// `Array<Array<…<Int>…>>` 1,200 deep; the runtime's demangler overflows 512 KiB from about 350
  /// deep, and a symbol of 8 KiB, 2,700 deep, still fits in 8 MiB).
  @Test func writingComparingAndDemanglingTheDeepestInputsFitInAWorkerStack() throws {
    final class Box: @unchecked Sendable { var outcome: String = "not run" }
    let box = Box()
    let text = String(repeating: "[{\"a\":", count: 256) + "1" + String(repeating: "}]", count: 256)
    let symbol = "$s" + String(repeating: "Say", count: 1_200) + "Si" + String(repeating: "G", count: 1_200) + "D"
    let longest = "$s" + String(repeating: "Say", count: 2_700) + "Si" + String(repeating: "G", count: 2_700) + "D"
    WorkerThreads.run(count: 1) { _ in
      do {
        let value = try JSONParser.parse(text)
        let written = JSONWriter.string(value, style: .compact)
        guard try JSONParser.parse(written) == value, written == text else {
          box.outcome = "differs: \(written.prefix(40))"
          return
        }
        let demangled = SwiftDemangler.demangle(symbol)
        guard SwiftDemangler.refusal(symbol) == nil, demangled?.hasPrefix("Swift.Array<Swift.Array<") == true else {
          box.outcome = "demangled as \(demangled?.prefix(30) ?? "nil")"
          return
        }
        box.outcome = SwiftDemangler.demangle(longest) == nil ? "ok" : "the 8 KiB symbol was shown"
      } catch {
        box.outcome = "error: \(error)"
      }
    }
    #expect(box.outcome == "ok")
  }

  /// The workers of a batch run with the stack ``WorkerThreads`` asks for, on every platform.
  @Test func workerThreadsHaveTheStackTheyAskFor() {
    final class Box: @unchecked Sendable { var depth = 0 }
    let box = Box()
    // 20,000 frames of at least 48 bytes: more than Dispatch's 512 KiB on macOS, far within 8 MiB.
    @Sendable func recurse(_ level: Int) -> Int {
      var pad = (level, level &+ 1, level &+ 2, level &+ 3, level &+ 4, level &+ 5)
      guard level < 20_000 else { return level }
      let below = withUnsafeMutablePointer(to: &pad) { recurse($0.pointee.0 + 1) }
      return below &+ pad.5 &- pad.5
    }
    WorkerThreads.run(count: 2) { _ in box.depth = recurse(0) }
    #expect(box.depth == 20_000)
    #expect(WorkerThreads.stackSize == 8 << 20)
  }
}

@Suite("JSON parser error paths")
struct JSONParserErrorPathTests {
  private func path(_ text: String) -> String? {
    do throws(JSONError) {
      _ = try JSONParser.parse(text)
      return nil
    } catch {
      return error.path.description
    }
  }

  @Test(
    "Paths name the value being parsed",
    arguments: [
      ("[1 2]", "$"),
      ("[1, x]", "[1]"),
      ("{\"a\": [1, {\"b\": ]}]}", "a[1].b"),
      ("{\"a\": 1 \"b\": 2}", "$"),
      ("{\"a\": {\"b\" 1}}", "a.b"),
      ("{\"a\": [[], [1,]]}", "a[1][1]"),
      ("{\"k\": \"v\", }", "$"),
      ("[[[", "[0][0][0]"),
    ])
  func paths(_ text: String, _ expected: String) {
    #expect(path(text) == expected)
  }
}

@Suite("JSON parser recovery")
struct JSONParserRecoveryTests {
  private func recover(_ text: String) -> (JSONValue?, JSONError?) {
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBufferPointer { buffer in
      let result = JSONParser.parsePrefixRecovering(buffer, from: 0)
      return (result.value, result.error)
    }
  }

  @Test("A truncated document yields what came before the break, and the error")
  func truncated() throws {
    let (value, error) = recover(#"{"a": 1, "b": [1, 2, {"c": "x"}, {"d": tr"#)
    #expect(error != nil)
    let object = try #require(value?.objectValue)
    #expect(object["a"]?.numberValue == .unsigned(1))
    #expect(object["b"]?.arrayValue?.count == 4)
    #expect(object["b"]?[2]?["c"]?.stringValue == "x")
    #expect(object["b"]?[3]?.objectValue?.count == 0)
  }

  @Test("A complete document recovers nothing and reports no error")
  func complete() {
    let (value, error) = recover(#"{"a": [1]}"#)
    #expect(error == nil)
    #expect(value?["a"]?[0]?.numberValue == .unsigned(1))
  }

  @Test("A broken scalar at the top level recovers nothing")
  func scalar() {
    let (value, error) = recover("tru")
    #expect(value == nil)
    #expect(error != nil)
  }
}
