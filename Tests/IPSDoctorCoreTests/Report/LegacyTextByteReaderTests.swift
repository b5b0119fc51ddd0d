import Foundation
import Testing

@testable import IPSDoctorCLI
@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorOutput
@testable import IPSDoctorReport
@testable import IPSDoctorSupport

/// The byte readers of the text reader: the line splitting, header values, thread headers and
/// register lines, the word-at-a-time searches and the number reader, against expected values.
struct LegacyTextByteReaderTests {
  /// The lines `LegacyTextReader.line(_:from:)` finds one after the other, as the reader reads them.
  static func lines(_ text: String) -> [String] {
    Array(text.utf8).withUnsafeBufferPointer { bytes in
      var lines: [String] = []
      var start = 0
      while true {
        let (line, next) = LegacyTextReader.line(bytes, from: start)
        lines.append(String(decoding: bytes[line], as: UTF8.self))
        if next > bytes.count { return lines }
        start = next
      }
    }
  }

  static var samples: [String] {
    var texts = [
      "", "\n", "\n\n", "a", "a\n", "a\r\n", "a \t\r\nb", "  x  \n\t\n\r\n", "\r", "\r\r\n", " \r",
      "Thread 0:\n0   App  0x1 0x0 + 1\n\nBinary Images:\n   0x1 - 0x2 App arm64 <ab> /App\n",
      "é \n\u{301}x \r\nnaïve\t\n", "a\r \n", "\t\t", "last line without break  ",
    ]
    for name in Fixtures.files(in: "reports", extensions: ["crash"]) {
      if let data = FileManager.default.contents(atPath: Fixtures.url(name).path) {
        texts.append(String(decoding: data, as: UTF8.self))
      }
    }
    return texts
  }

  @Test("Lines end at LF, without a final CR and trailing spaces and tabs")
  func lineSplitting() {
    let cases: [(String, [String])] = [
      ("", [""]), ("\n", ["", ""]), ("\n\n", ["", "", ""]), ("a", ["a"]), ("a\n", ["a", ""]), ("a\r\n", ["a", ""]),
      ("a \t\r\nb", ["a", "b"]), ("  x  \n\t\n\r\n", ["  x", "", "", ""]), ("\r", [""]), ("\r\r\n", ["\r", ""]),
      (" \r", [""]), ("\u{e9} \n\u{301}x \r\nna\u{ef}ve\t\n", ["\u{e9}", "\u{301}x", "na\u{ef}ve", ""]),
      ("a\r \n", ["a\r", ""]), ("\t\t", [""]), ("last line without break  ", ["last line without break"]),
      (
        "Thread 0:\n0   App  0x1 0x0 + 1\n\nBinary Images:\n   0x1 - 0x2 App arm64 <ab> /App\n",
        ["Thread 0:", "0   App  0x1 0x0 + 1", "", "Binary Images:", "   0x1 - 0x2 App arm64 <ab> /App", ""]
      ),
    ]
    for (text, expected) in cases {
      #expect(Self.lines(text) == expected, "\(text.debugDescription)")
    }
  }

  @Test(
    "ByteScanner.number reads a decimal or 0x number of at most 16 digits up to a space, tab or dash",
    arguments: [
      ("", nil), ("0x", nil), ("0x1", (1, 3)), ("0X1f", (31, 4)), ("0x0000000100000000", (4_294_967_296, 18)),
      ("0xffffffffffffffff", (.max, 18)), ("0x1ffffffffffffffff", nil),
      ("9999999999999999", (9_999_999_999_999_999, 16)),
      ("99999999999999999", nil), ("0x1045a0000 - 0x1046bffff", (4_367_974_400, 11)), ("12 ", (12, 2)),
      ("0xg", nil), ("00x1", nil), ("-1", nil), ("0x1f-", (31, 4)), ("12\t3", (12, 2)), ("1a", nil),
      ("0xAbC", (2748, 5)), ("18446744073709551615", nil), ("x12", nil), ("0x+1", nil), ("7", (7, 1)),
    ] as [(String, (UInt64, Int)?)])
  func number(text: String, expected: (value: UInt64, end: Int)?) {
    let found = Array(text.utf8).withUnsafeBufferPointer { bytes -> (UInt64, Int)? in
      var scanner = ByteScanner(bytes: bytes)
      guard let value = scanner.number() else {
        #expect(scanner.index == 0)
        return nil
      }
      return (value, scanner.index)
    }
    #expect(found?.0 == expected?.value)
    #expect(found?.1 == expected?.end)
  }

  @Test("isHexOrDash is a hexadecimal digit or a dash, for every byte")
  func hexOrDash() {
    for byte in 0...255 {
      let bytes = [UInt8(byte)]
      let found = bytes.withUnsafeBufferPointer { LegacyTextLine.isHexOrDash($0, 0..<1) }
      #expect(found == (UInt8(byte).isASCIIHexDigit || byte == 0x2D))
    }
  }

  /// Image lines of the fixtures and some made to be awkward: non-ASCII names, invalid UTF-8 of
  /// the same length as its repair, bundle identifiers, "???".
  static var imageLines: [[UInt8]] {
    var lines: [[UInt8]] = [
      Array("0x1 - 0x2 Caf\u{e9} arm64 <6f1c3b2a9d8e4f00a1b2c3d4e5f60718> /a/Caf\u{e9}".utf8),
      Array("0x1 - 0x2 com.example.App (1.0 - 1) <6f1c3b2a9d8e4f00a1b2c3d4e5f60718> /a/b/App".utf8),
      Array("0x1 - 0x2 +com.example.\u{e9}x (1) <6F1C3B2A-9D8E-4F00-A1B2-C3D4E5F60718> /a/b/\u{e9}x".utf8),
      Array("0x1 - 0x2 ??? /a/b".utf8), Array("0x1 - ??? ???".utf8), Array("0x1 - 0x2 App <> /".utf8),
      Array("0x1 - 0x2 App /usr/lib/".utf8),
    ]
    // Invalid UTF-8 whose repair ("\u{FFFD}", three bytes) is as long as it: F0 9F 98.
    let invalid: [UInt8] = [0xF0, 0x9F, 0x98]
    lines.append(Array("0x1 - 0x2 ".utf8) + invalid + Array("A arm64 <ab> /x/".utf8) + invalid + [0x41])
    lines.append(Array("0x1 - 0x2 A".utf8) + invalid + Array(" arm64 <ab> /x/A".utf8) + invalid)
    lines.append(Array("0x1 - 0x2 com.a".utf8) + invalid + Array(" <ab> /".utf8) + invalid + Array("/B".utf8))
    for text in samples {
      for line in text.split(separator: "\n") {
        let content = line.drop(while: { $0 == " " || $0 == "\t" })
        if content.hasPrefix("0x") && content.contains(" - ") { lines.append(Array(content.utf8)) }
      }
    }
    return lines
  }

  static func fileName(_ path: String) -> String {
    let bytes = Array(path.utf8)
    let start = bytes.lastIndex(of: 0x2F).map { $0 + 1 } ?? 0
    return String(decoding: bytes[start...], as: UTF8.self)
  }

  @Test("Image key slots from the bytes are the slots of the image's strings")
  func keySlotsAgree() {
    var checked = 0
    for line in Self.imageLines {
      line.withUnsafeBufferPointer { bytes in
        var slots = ImageKeySlots.unknown
        let image = LegacyTextLine.binaryImage(bytes: bytes, slots: &slots)
        #expect(image == LegacyTextLine.binaryImage(bytes: bytes))
        guard let image else { return }
        func check(_ slot: Int16, _ key: String?) {
          if key == nil { #expect(slot == ImageKeySlots.absentSlot) }
          if let key, slot != ImageKeySlots.unknownSlot {
            #expect(Int(slot) == ImageResolver.NameFilter.slot(of: key), "\(key)")
            checked += 1
          }
        }
        check(slots.name, image.name)
        check(slots.bundleID, image.bundleID)
        check(slots.fileName, image.path.map(Self.fileName))
      }
    }
    #expect(checked > 100)
  }

  @Test("The resolver finds the same images with and without the key slots")
  func resolverAgrees() {
    for text in Self.samples {
      var report = CrashReport(format: .legacyText)
      LegacyTextParser.parse(text, firstLine: 1, into: &report)
      guard !report.images.isEmpty else { continue }
      var slots: [ImageKeySlots] = []
      // The slots the reader would have kept, from the image lines of this text.
      for line in text.split(separator: "\n") {
        let content = line.drop(while: { $0 == " " || $0 == "\t" })
        guard content.hasPrefix("0x") else { continue }
        Array(content.utf8).withUnsafeBufferPointer { bytes in
          var found = ImageKeySlots.unknown
          if LegacyTextLine.binaryImage(bytes: bytes, slots: &found) != nil { slots.append(found) }
        }
      }
      guard slots.count == report.images.count else { continue }
      var names = Set(report.images.compactMap(\.name))
      names.formUnion(report.images.compactMap(\.bundleID))
      names.formUnion(report.images.compactMap { $0.path.map(Self.fileName) })
      names.insert("not an image")
      let plain = ImageResolver(images: report.images, frameImageNames: names)
      let fast = ImageResolver(images: report.images, frameImageNames: names, keySlots: slots)
      #expect(plain.byName == fast.byName)
      #expect(plain.ranges.map(\.base) == fast.ranges.map(\.base))
      #expect(plain.ranges.map(\.last) == fast.ranges.map(\.last))
      #expect(plain.ranges.map(\.index) == fast.ranges.map(\.index))
      // Frames named after every key, and unnamed ones, resolve alike.
      var frames = names.sorted().map { Frame(imageName: $0) }
      frames += report.images.compactMap(\.base).map { Frame(address: $0 &+ 4) }
      var plainFrames = frames
      plain.resolve(&plainFrames)
      fast.resolve(&frames)
      #expect(plainFrames == frames)
    }
  }

  static func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }

  @Test("Register lines: names and values, \"rfl\" as \"rflags\", and the ESR's description")
  func registerLines() {
    // Each line, and its registers ("name=value", then " | esr: " and the description), or "nil".
    let cases: [(String, String)] = [
      ("    x0: 0x0000000000000000   x1: 0x00000001f2c3a7d8", "x0=0x0 x1=0x1f2c3a7d8"),
      (
        "   far: 0x0000000000000028  esr: 0x92000006 (Data Abort) byte read Translation fault",
        "far=0x28 esr=0x92000006 | esr: (Data Abort) byte read Translation fault"
      ),
      ("esr: 0x56000080  Address size fault", "esr=0x56000080 | esr: Address size fault"),
      ("esr: 0x1", "esr=0x1"),
      ("esr: 0x1 x2: 0x3", "esr=0x1 x2=0x3"),
      ("rfl: 0x0000000000010206  rip: 0x1", "rflags=0x10206 rip=0x1"),
      ("rflx: 0x1", "rflx=0x1"),
      ("x0: +1f", "x0=0x1f"),
      ("x0: 1f", "x0=0x1f"),
      ("x0: zz x1: 0x2", "x1=0x2"),
      ("a: b: c", ""),
      ("x0:", ""),
      (": 0x1", "nil"),
      ("::", ""),
      ("x0:\t0x1\tx1:  0x2", "x0=0x1 x1=0x2"),
      ("cpsr: 0x60000000", "cpsr=0x60000000"),
      ("", "nil"),
      ("   ", "nil"),
      ("no labels here", "nil"),
      ("x0: 0x1ffffffffffffffff", ""),
      ("x0: 0x", ""),
      ("  x0: 0x1  esr: 0x2 Données — 読み", "x0=0x1 esr=0x2 | esr: Données — 読み"),
      ("é: 0x1 x1: 0x2", "é=0x1 x1=0x2"),
      ("x0: 0x1 ü", "x0=0x1"),
    ]
    for (line, expected) in cases {
      let found = LegacyTextLine.withBytes(of: line) { LegacyTextLine.registers($0, $1) }
      let text = found.map { found in
        found.registers.map { "\($0.name)=\(Self.hex($0.value))" }.joined(separator: " ")
          + (found.esr.map { " | esr: " + $0 } ?? "")
      }
      #expect(text ?? "nil" == expected, "\(line.debugDescription)")
    }
  }

  @Test("isHexOrDash eight bytes at a time agrees with the byte test")
  func hexOrDashWords() {
    let valid = Array("0123456789abcdefABCDEF-".utf8)
    for length in 0...20 {
      for position in 0..<max(length, 1) {
        for byte in 0...255 {
          var bytes = (0..<length).map { valid[($0 * 7) % valid.count] }
          if length > 0 { bytes[position] = UInt8(byte) }
          let expected = bytes.allSatisfy { $0.isASCIIHexDigit || $0 == 0x2D }
          // At an odd start too, so that the words are unaligned.
          let padded = [0x20] + bytes
          let found = padded.withUnsafeBufferPointer { LegacyTextLine.isHexOrDash($0, 1..<padded.count) }
          #expect(found == expected)
        }
      }
    }
  }

  @Test("keyValue splits a line at its first colon: the key without trailing spaces, the value trimmed")
  func keyValueSplits() {
    // Each line, and "key|value", or "nil".
    let cases: [(String, String)] = [
      ("Process:   App [12]", "Process|App [12]"),
      ("Key:value", "Key|value"),
      ("Key:", "Key|"),
      ("Key :  ", "Key|"),
      (":value", "nil"),
      (" Key: value", "nil"),
      ("\tKey: v", "nil"),
      ("Key", "nil"),
      // The value starts after the colon's byte: a combining mark after it is part of the value.
      ("Key:\u{301}value", "Key|\u{301}value"),
      ("Key:\u{301} value", "Key|\u{301} value"),
      ("Café: thé", "Café|thé"),
      ("K\u{212A}: x", "K\u{212A}|x"),
      ("Key: a: b", "Key|a: b"),
      ("Key:\r", "Key|\r"),
      ("Key:\t\tv\t", "Key|v"),
      ("Exception Type:  EXC_BAD_ACCESS (SIGSEGV)", "Exception Type|EXC_BAD_ACCESS (SIGSEGV)"),
      ("a:b", "a|b"),
      ("\u{0301}: x", "\u{0301}|x"),
      ("Key\u{301}:: x", "Key\u{301}|: x"),
    ]
    for (line, expected) in cases {
      let found = LegacyTextLine.withBytes(of: line) { bytes, line in
        LegacyTextLine.keyValue(bytes, line).map {
          String(decoding: bytes[$0.key], as: UTF8.self) + "|" + String(decoding: bytes[$0.value], as: UTF8.self)
        }
      }
      #expect(found ?? "nil" == expected, "\(line.debugDescription)")
    }
  }

  static func quoted(_ text: String?) -> String { text.map(\.debugDescription) ?? "nil" }

  @Test("Header values: exception type, codes, termination reason, process and pid, thread number")
  func headerValues() {
    // Each value, and what each reader makes of it.
    let cases: [(String, String)] = [
      ("", "type: nil nil; codes: nil; termination: nil; process: nil nil; thread: nil"),
      (" ", "type: nil nil; codes: nil; termination: nil; process: nil nil; thread: nil"),
      (
        "EXC_BAD_ACCESS (SIGSEGV)",
        "type: \"EXC_BAD_ACCESS\" \"SIGSEGV\"; codes: nil; termination: nil; process: \"EXC_BAD_ACCESS (SIGSEGV)\" nil; thread: nil"
      ),
      (
        "EXC_CRASH (SIGKILL - CODESIGNING)",
        "type: \"EXC_CRASH\" \"SIGKILL - CODESIGNING\"; codes: nil; termination: nil; process: \"EXC_CRASH (SIGKILL - CODESIGNING)\" nil; thread: nil"
      ),
      ("SIGSEGV", "type: nil \"SIGSEGV\"; codes: nil; termination: nil; process: \"SIGSEGV\" nil; thread: nil"),
      ("EXC_GUARD", "type: \"EXC_GUARD\" nil; codes: nil; termination: nil; process: \"EXC_GUARD\" nil; thread: nil"),
      ("()", "type: nil nil; codes: nil; termination: nil; process: \"()\" nil; thread: nil"),
      ("(SIGABRT)", "type: nil \"SIGABRT\"; codes: nil; termination: nil; process: \"(SIGABRT)\" nil; thread: nil"),
      ("EXC ( )", "type: \"EXC\" nil; codes: nil; termination: nil; process: \"EXC ( )\" nil; thread: nil"),
      ("X)", "type: \"X)\" nil; codes: nil; termination: nil; process: \"X)\" nil; thread: nil"),
      ("a(b(c)", "type: \"a\" \"b(c\"; codes: nil; termination: nil; process: \"a(b(c)\" nil; thread: nil"),
      (
        "0x0000000000000001, 0x00000001aa3f4788",
        "type: \"0x0000000000000001, 0x00000001aa3f4788\" nil; codes: 0x1,0x1aa3f4788; termination: nil; process: \"0x0000000000000001, 0x00000001aa3f4788\" nil; thread: 0 nil"
      ),
      (
        "0x1,,0x2", "type: \"0x1,,0x2\" nil; codes: 0x1,0x2; termination: nil; process: \"0x1,,0x2\" nil; thread: 0 nil"
      ),
      (",", "type: \",\" nil; codes: nil; termination: nil; process: \",\" nil; thread: nil"),
      ("0x1, ", "type: \"0x1,\" nil; codes: nil; termination: nil; process: \"0x1,\" nil; thread: 0 nil"),
      ("0x1, zz", "type: \"0x1, zz\" nil; codes: nil; termination: nil; process: \"0x1, zz\" nil; thread: 0 nil"),
      (
        "KERN_INVALID_ADDRESS at 0x18",
        "type: \"KERN_INVALID_ADDRESS at 0x18\" nil; codes: nil; termination: nil; process: \"KERN_INVALID_ADDRESS at 0x18\" nil; thread: nil"
      ),
      (
        "Namespace SPRINGBOARD, Code 0x8badf00d",
        "type: \"Namespace SPRINGBOARD, Code 0x8badf00d\" nil; codes: nil; termination: \"SPRINGBOARD\" 0x8badf00d nil; process: \"Namespace SPRINGBOARD, Code 0x8badf00d\" nil; thread: nil"
      ),
      (
        "Namespace SIGNAL, Code 11 Segmentation fault: 11",
        "type: \"Namespace SIGNAL, Code 11 Segmentation fault: 11\" nil; codes: nil; termination: \"SIGNAL\" 0xb \"Segmentation fault: 11\"; process: \"Namespace SIGNAL, Code 11 Segmentation fault: 11\" nil; thread: nil"
      ),
      (
        "Namespace ,,,",
        "type: \"Namespace ,,,\" nil; codes: nil; termination: \",,,\" nil nil; process: \"Namespace ,,,\" nil; thread: nil"
      ),
      ("Namespace ", "type: \"Namespace\" nil; codes: nil; termination: nil; process: \"Namespace\" nil; thread: nil"),
      (
        "Namespace a,b",
        "type: \"Namespace a,b\" nil; codes: nil; termination: \"a\" nil nil; process: \"Namespace a,b\" nil; thread: nil"
      ),
      (
        "Namespace , x",
        "type: \"Namespace , x\" nil; codes: nil; termination: \"x\" nil nil; process: \"Namespace , x\" nil; thread: nil"
      ),
      (
        "Namespace X, Code zz",
        "type: \"Namespace X, Code zz\" nil; codes: nil; termination: nil; process: \"Namespace X, Code zz\" nil; thread: nil"
      ),
      (
        "Namespace X, Code  7  trailing  words",
        "type: \"Namespace X, Code  7  trailing  words\" nil; codes: nil; termination: \"X\" 0x7 \"trailing  words\"; process: \"Namespace X, Code  7  trailing  words\" nil; thread: nil"
      ),
      (
        "SIGNAL 6 Abort trap: 6",
        "type: nil \"SIGNAL 6 Abort trap: 6\"; codes: nil; termination: \"SIGNAL\" 0x6 \"Abort trap: 6\"; process: \"SIGNAL 6 Abort trap: 6\" nil; thread: nil"
      ),
      (
        "DYLD 1 Library missing",
        "type: \"DYLD 1 Library missing\" nil; codes: nil; termination: \"DYLD\" 0x1 \"Library missing\"; process: \"DYLD 1 Library missing\" nil; thread: nil"
      ),
      (
        "FRONTBOARD 2343432205",
        "type: \"FRONTBOARD 2343432205\" nil; codes: nil; termination: \"FRONTBOARD\" 0x8badf00d nil; process: \"FRONTBOARD 2343432205\" nil; thread: nil"
      ),
      ("A, 1 x", "type: \"A, 1 x\" nil; codes: nil; termination: nil; process: \"A, 1 x\" nil; thread: nil"),
      ("A  1", "type: \"A  1\" nil; codes: nil; termination: \"A\" 0x1 nil; process: \"A  1\" nil; thread: nil"),
      ("A 1  ", "type: \"A 1\" nil; codes: nil; termination: \"A\" 0x1 nil; process: \"A 1\" nil; thread: nil"),
      (
        "A\t1\tb c",
        "type: \"A\\t1\\tb c\" nil; codes: nil; termination: \"A\" 0x1 \"b c\"; process: \"A\\t1\\tb c\" nil; thread: nil"
      ),
      ("one", "type: \"one\" nil; codes: nil; termination: nil; process: \"one\" nil; thread: nil"),
      ("App [123]", "type: \"App [123]\" nil; codes: nil; termination: nil; process: \"App\" 123; thread: nil"),
      ("App [ 12 ]", "type: \"App [ 12 ]\" nil; codes: nil; termination: nil; process: \"App\" nil; thread: nil"),
      ("App []", "type: \"App []\" nil; codes: nil; termination: nil; process: \"App\" nil; thread: nil"),
      ("??? [1]", "type: \"??? [1]\" nil; codes: nil; termination: nil; process: nil 1; thread: nil"),
      ("??? ", "type: \"???\" nil; codes: nil; termination: nil; process: nil nil; thread: nil"),
      ("[5]", "type: \"[5]\" nil; codes: nil; termination: nil; process: nil 5; thread: nil"),
      ("App [+5]", "type: \"App [+5]\" nil; codes: nil; termination: nil; process: \"App\" 5; thread: nil"),
      ("App [-0]", "type: \"App [-0]\" nil; codes: nil; termination: nil; process: \"App\" 0; thread: nil"),
      (
        "App [99999999999999999999]",
        "type: \"App [99999999999999999999]\" nil; codes: nil; termination: nil; process: \"App\" nil; thread: nil"
      ),
      ("7", "type: \"7\" nil; codes: 0x7; termination: nil; process: \"7\" nil; thread: 7 nil"),
      (
        "3, Dispatch queue: q",
        "type: \"3, Dispatch queue: q\" nil; codes: nil; termination: nil; process: \"3, Dispatch queue: q\" nil; thread: 3 \"q\""
      ),
      (
        "5  Dispatch queue: com.apple.main-thread",
        "type: \"5  Dispatch queue: com.apple.main-thread\" nil; codes: nil; termination: nil; process: \"5  Dispatch queue: com.apple.main-thread\" nil; thread: 5 \"com.apple.main-thread\""
      ),
      (
        "5,, Dispatch queue:",
        "type: \"5,, Dispatch queue:\" nil; codes: nil; termination: nil; process: \"5,, Dispatch queue:\" nil; thread: 5 nil"
      ),
      ("x", "type: \"x\" nil; codes: nil; termination: nil; process: \"x\" nil; thread: nil"),
      ("12abc", "type: \"12abc\" nil; codes: nil; termination: nil; process: \"12abc\" nil; thread: 12 nil"),
      (
        "99999999999999999999999",
        "type: \"99999999999999999999999\" nil; codes: nil; termination: nil; process: \"99999999999999999999999\" nil; thread: nil"
      ),
      ("Café [7]", "type: \"Café [7]\" nil; codes: nil; termination: nil; process: \"Café\" 7; thread: nil"),
      (
        "EXC_CRASH (SIGABRT — ☠️)",
        "type: \"EXC_CRASH\" \"SIGABRT — ☠️\"; codes: nil; termination: nil; process: \"EXC_CRASH (SIGABRT — ☠️)\" nil; thread: nil"
      ),
      (
        "Namespace ΣΗΜΑ, Code 0x1 ✓",
        "type: \"Namespace ΣΗΜΑ, Code 0x1 ✓\" nil; codes: nil; termination: \"ΣΗΜΑ\" 0x1 \"✓\"; process: \"Namespace ΣΗΜΑ, Code 0x1 ✓\" nil; thread: nil"
      ),
      (
        "2, Dispatch queue: キュー",
        "type: \"2, Dispatch queue: キュー\" nil; codes: nil; termination: nil; process: \"2, Dispatch queue: キュー\" nil; thread: 2 \"キュー\""
      ),
    ]
    for (value, expected) in cases {
      let found = LegacyTextLine.withBytes(of: value) { bytes, value in
        let type = LegacyTextLine.exceptionType(bytes, value)
        let codes = LegacyTextLine.codes(bytes, value).map { $0.map(Self.hex).joined(separator: ",") }
        let termination = LegacyTextLine.terminationReason(bytes, value).map {
          "\(Self.quoted($0.namespace)) \($0.code.map(Self.hex) ?? "nil") \(Self.quoted($0.indicator))"
        }
        let process = LegacyTextLine.nameAndPid(bytes, value)
        let thread = LegacyTextLine.threadNumber(bytes, value).map { "\($0.number) \(Self.quoted($0.queue))" }
        return "type: \(Self.quoted(type.type)) \(Self.quoted(type.signal)); codes: \(codes ?? "nil"); "
          + "termination: \(termination ?? "nil"); process: \(Self.quoted(process.name)) "
          + "\(process.pid.map(String.init) ?? "nil"); thread: \(thread ?? "nil")"
      }
      #expect(found == expected, "\(value.debugDescription)")
    }
  }

  @Test("Thread headers: names, queues, crashed and state lines, and lines of unknown shape")
  func threadHeaders() {
    // Each line, and its header, or "nil".
    let cases: [(String, String)] = [
      ("Thread 0:", "start(number: 0, crashed: false, name: nil, queue: nil)"),
      ("Thread 0 Crashed:", "start(number: 0, crashed: true, name: nil, queue: nil)"),
      (
        "Thread 0 Crashed:: Dispatch queue: com.apple.main-thread",
        "start(number: 0, crashed: true, name: nil, queue: Optional(\"com.apple.main-thread\"))"
      ),
      ("Thread 3:: name", "start(number: 3, crashed: false, name: Optional(\"name\"), queue: nil)"),
      ("Thread 5 name:  Dispatch queue: q", "name(number: 5, name: nil, queue: Optional(\"q\"))"),
      (
        "Thread 5 name: tid_303  Dispatch queue: q",
        "name(number: 5, name: Optional(\"tid_303\"), queue: Optional(\"q\"))"
      ),
      ("Thread 5 name:", "name(number: 5, name: nil, queue: nil)"),
      ("Thread 7 crashed with ARM Thread State (64-bit):", "state(number: 7, flavor: \"ARM_THREAD_STATE64\")"),
      ("Thread 7 crashed with :", "state(number: 7, flavor: \"\")"),
      ("Thread 0 instruction stream:", "other(number: 0)"),
      ("Thread 0 Highlighted:", "start(number: 0, crashed: false, name: nil, queue: nil)"),
      ("Thread 99999999999999999999:", "nil"),
      ("Thread 1 x", "nil"),
      ("Thread 1:  ", "start(number: 1, crashed: false, name: nil, queue: nil)"),
      ("Thread 1: x", "nil"),
      ("Thread 12 crashed with X86 Thread State (32-bit):", "state(number: 12, flavor: \"x86_THREAD_STATE32\")"),
      ("Thread 2 Crashed", "nil"),
      ("Thread 2 :", "other(number: 2)"),
      ("Thread 4 name:  工作线程 ⚙️", "name(number: 4, name: Optional(\"工作线程 ⚙️\"), queue: nil)"),
      ("Thread 4:: Dispatch queue: キュー", "start(number: 4, crashed: false, name: nil, queue: Optional(\"キュー\"))"),
      ("Thread 4 Crashed:: Café", "start(number: 4, crashed: true, name: Optional(\"Café\"), queue: nil)"),
    ]
    for (line, expected) in cases {
      let header = LegacyTextLine.withBytes(of: line) { LegacyTextLine.threadHeader($0, $1) }
      #expect(header.map { "\($0)" } ?? "nil" == expected, "\(line.debugDescription)")
    }
  }

  @Test("Numbers read in place agree with UInt64(_:radix:)")
  func unsignedAgrees() {
    let alphabet = Array("0123456789abcdefABCDEF+-xg _".utf8)
    var state: UInt64 = 0x1234_5678_9ABC_DEF0
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    var inputs: [[UInt8]] = [
      [], Array("+".utf8), Array("-0".utf8), Array("+12".utf8), Array("-1".utf8),
      Array("18446744073709551615".utf8), Array("18446744073709551616".utf8), Array("ffffffffffffffff".utf8),
      Array("1ffffffffffffffff".utf8), Array("__pthread_kill".utf8),
    ]
    for _ in 0..<20_000 { inputs.append((0..<next(22)).map { _ in alphabet[next(alphabet.count)] }) }
    for input in inputs {
      for radix in [10, 16] {
        let found = input.withUnsafeBufferPointer { LegacyTextLine.unsigned($0, 0..<$0.count, radix: UInt64(radix)) }
        #expect(found == UInt64(String(decoding: input, as: UTF8.self), radix: radix), "\(input) \(radix)")
      }
    }
  }

  @Test("Image UUIDs packed from the bytes are the UUIDs of the text form")
  func imageUUIDsAgree() {
    let alphabet = Array("0123456789abcdefABCDEF-".utf8)
    var state: UInt64 = 0x0F0F_1234_5678_9ABC
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    var texts: [[UInt8]] = [
      Array("00000000000000000000000000000000".utf8),
      Array("00000000-0000-0000-0000-000000000000".utf8), Array("6f1c3b2a9d8e4f00a1b2c3d4e5f60718".utf8),
      Array("6F1C3B2A-9D8E-4F00-A1B2-C3D4E5F60718".utf8), Array("6f1c3b2a-9d8e-4f00-a1b2-c3d4e5f6071-".utf8),
    ]
    for _ in 0..<5000 {
      let count = [32, 36, next(40) + 1][next(3)]
      let dashOdds = [3, 12, Int.max][next(3)]
      var text = (0..<count).map { _ in dashOdds != Int.max && next(dashOdds) == 0 ? 0x2D : alphabet[next(22)] }
      if count == 36 && next(2) == 0 { for position in [8, 13, 18, 23] { text[position] = 0x2D } }
      texts.append(text)
    }
    for text in texts {
      let padded = [0x3C] + text + [0x3E]
      padded.withUnsafeBufferPointer { bytes in
        let found = LegacyTextLine.imageUUID(bytes, 1..<(bytes.count - 1))
        let expected = LegacyTextLine.normalizedImageUUID(UnsafeBufferPointer(rebasing: bytes[1..<(bytes.count - 1)]))
        #expect(found == expected, "\(String(decoding: text, as: UTF8.self))")
      }
    }
  }

  @Test("The byte-keyed resolver finds the images the String one finds")
  func byteResolverAgrees() {
    for text in Self.samples {
      var report = CrashReport(format: .legacyText)
      LegacyTextParser.parse(text, firstLine: 1, into: &report)
      guard !report.images.isEmpty else { continue }
      var slots: [ImageKeySlots] = []
      for line in text.split(separator: "\n") {
        let content = line.drop(while: { $0 == " " || $0 == "\t" })
        guard content.hasPrefix("0x") else { continue }
        Array(content.utf8).withUnsafeBufferPointer { bytes in
          var found = ImageKeySlots.unknown
          if LegacyTextLine.binaryImage(bytes: bytes, slots: &found) != nil { slots.append(found) }
        }
      }
      // Frames named after every key of every image, and some other names.
      var names = Set(report.images.compactMap(\.name))
      names.formUnion(report.images.compactMap(\.bundleID))
      names.formUnion(report.images.compactMap { $0.path.map(Self.fileName) })
      names.formUnion(["not an image", "x", "libsystem_kernel.dylib.x"])
      report.threads = [CrashThread(index: 0, frames: names.sorted().map { Frame(imageName: $0) })]
      report.threads[0].frames += report.images.compactMap(\.base).map { Frame(address: $0 &+ 4) }
      for keySlots in [slots, []] {
        guard
          let fast = ImageResolver(
            images: report.images, threads: report.threads, lastExceptionBacktrace: report.lastExceptionBacktrace,
            keySlots: keySlots)
        else {
          #expect(names.contains { !$0.utf8.allSatisfy { $0 < 0x80 } })
          continue
        }
        let plain = ImageResolver(images: report.images, frameImageNames: names, keySlots: keySlots)
        var fastFrames = report.threads[0].frames
        var plainFrames = fastFrames
        fast.resolve(&fastFrames)
        plain.resolve(&plainFrames)
        #expect(fastFrames == plainFrames)
        #expect(fast.ranges.map(\.index) == plain.ranges.map(\.index))
      }
    }
  }

  @Test("Byte searches eight bytes at a time agree with a byte at a time")
  func wordSearchesAgree() {
    let alphabet = Array("/ \t.+(x\u{7F}".utf8) + [0x80, 0xFF, 0x00, 0x01, 0x2E, 0x30, 0xAF]
    var state: UInt64 = 0x5555_1234_ABCD_0001
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    for _ in 0..<20_000 {
      let bytes = (0..<next(40)).map { _ in alphabet[next(alphabet.count)] }
      let lower = next(bytes.count + 1)
      let range = lower..<(lower + next(bytes.count - lower + 1))
      bytes.withUnsafeBufferPointer { buffer in
        for byte: UInt8 in [0x2F, 0x2E, 0x2B, 0x28, 0x00, 0x80] {
          #expect(LegacyTextLine.lastIndex(of: byte, in: buffer, range) == bytes[range].lastIndex(of: byte))
          #expect(LegacyTextLine.contains(byte, in: buffer, range) == bytes[range].contains(byte))
        }
        #expect(LegacyTextLine.lastSpace(buffer, range) == bytes[range].lastIndex { $0 == 0x20 || $0 == 0x09 })
      }
    }
  }

  /// Text bodies that take the paths reading a field's text (`PID`, `Version`, the header fields of
  /// a resource report, a stackshot's process lines, an address list, x86 registers, an unreadable
  /// thread header), read from their bytes.
  @Test("A resource body keeps its header fields, version order, event and action")
  func resourceBody() {
    let report = LegacyTextSamples.parse(
      """
      Command:         MapMyRun
      Version:         18.8.5 (1809212128)
      PID:             2489

      Event:           cpu usage
      Action taken:    Process killed
      CPU:             48 seconds cpu time over 54 seconds
      """, firstLine: 3)
    #expect(report.kind == .resource)
    #expect(report.processName == "MapMyRun")
    #expect(report.pid == 2489)
    #expect(report.appVersion == "18.8.5")
    #expect(report.buildVersion == "1809212128")
    #expect(report.resource?.event == "cpu usage")
    #expect(report.resource?.actionTaken == "Process killed")
    #expect(report.resource?.fields.map(\.key) == ["Command", "Version", "PID", "Event", "Action taken", "CPU"])
    #expect(report.resource?.fields.last?.value == "48 seconds cpu time over 54 seconds")
  }

  @Test("A stackshot body counts its processes and names the frontmost one")
  func stackshotBody() {
    let report = LegacyTextSamples.parse(
      """
      Incident Identifier: D2604550-FFA3-45D5-8247-A3F1E72E6A40
      Frontmost process PID:    34
      Reason:          user-initiated
      Exception Code:  0xdeadfa11

      Process 0 info:
      \tresident memory bytes:  54738944

      Process 34 SpringBoard threads:
      thread 0x1 TH_WAIT|TH_UNINT 0x8037ba3c
      """, firstLine: 3)
    #expect(report.kind == .stackshot)
    #expect(report.stackshot?.processCount == 1)
    #expect(report.stackshot?.frontmostProcesses == ["SpringBoard"])
    #expect(report.stackshot?.reason == "user-initiated")
    #expect(report.stackshot?.exceptionCode == "0xdeadfa11")
  }

  @Test("An address list, a PID that is no number, a skipped thread block and x86 registers")
  func oddFieldsBody() {
    let registerBlock = """
      Process:  App [12]
      PID:      not a number
      Exception Type:  EXC_CRASH (SIGABRT)
      Last Exception Backtrace:
      (0x1a2b 0x3c4d
      0xzz 0x5e6f)

      Thread 0 Crashed whatever:
      Thread 0 crashed with X86 Thread State (64-bit):
        rax: 0x0000000000000000  rbx: 0x0000000000000001
      """
    let x86Fields = """
      Logical CPU:     2
      Error Code:      0x00000000
      Trap Number:     6
      """
    // After a blank line, as reports write them, the x86 lines are fields; without one they are
    // more lines of the register block, each word before a colon a register name.
    let cases = [
      (registerBlock + "\n\n" + x86Fields, ["rax", "rbx", "cpu", "err", "trap"]),
      (registerBlock + "\n" + x86Fields, ["rax", "rbx", "CPU", "Code", "Number"]),
    ]
    for (text, names) in cases {
      let report = LegacyTextSamples.parse(text, firstLine: 3)
      #expect(report.pid == 12)
      #expect(report.lastExceptionBacktrace?.map(\.address) == [0x1a2b, 0x3c4d, 0x5e6f])
      #expect(report.warnings.map(\.location) == ["line 8"])
      #expect(report.warnings.map(\.message) == ["could not read the address \"0xzz\" of the last exception backtrace"])
      #expect(report.threads.count == 1)
      #expect(report.threads.first?.state?.flavor == "x86_THREAD_STATE")
      let registers = report.threads.first?.state?.registers ?? []
      #expect(registers.map(\.name) == names)
      #expect(registers.map(\.value) == [0, 1, 2, 0, 6])
    }
  }

  @Test(
    "Two ranges of a line hold the same text when their Strings are equal",
    arguments: [
      ("A.framework", "A.framework", true), ("com.example.A", "A", false), ("ab", "abc", false), ("", "", true),
      ("a", "", false),
      // Canonically equivalent spellings are the same text; different bytes of ASCII are not.
      ("K", "\u{212A}", true), ("com.caf\u{E9}", "com.cafe\u{301}", true), ("caf\u{E9}", "cafe", false),
      ("\u{212A}", "k", false),
    ])
  func sameText(first: String, second: String, expected: Bool) {
    let bytes = Array(first.utf8) + Array(second.utf8)
    let split = first.utf8.count
    bytes.withUnsafeBufferPointer { bytes in
      #expect(LegacyTextLine.sameText(bytes, 0..<split, split..<bytes.count) == expected)
      #expect(LegacyTextLine.sameText(bytes, split..<bytes.count, 0..<split) == expected)
    }
  }
}
