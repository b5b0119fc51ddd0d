import Foundation
import Testing

@testable import IPSDoctorCore

/// The byte-level paths of the text reader against the plain code they replaced: the line
/// splitting (ranges instead of `Substring`s) and the image-line number reader.
struct LegacyTextFastPathTests {
  /// The splitting the reader did before it kept lines as ranges: `Substring`s of the text split at
  /// "\n", each without a final "\r" and then without trailing spaces and tabs.
  static func referenceLines(_ text: String) -> [Substring] {
    text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map {
      var line = Substring($0)
      if line.utf8.last == 0x0D { line = line[..<line.utf8.index(before: line.endIndex)] }
      return LegacyTextLine.droppingTrailingSpace(line)
    }
  }

  /// The lines `LegacyTextReader.line(_:from:)` finds one after the other, as the reader reads them.
  static func rangeLines(_ text: String) -> [Substring] {
    var text = text
    text.makeContiguousUTF8()
    let contiguous = text
    return contiguous.utf8.withContiguousStorageIfAvailable { bytes in
      var lines: [Substring] = []
      var start = 0
      while true {
        let (line, next) = LegacyTextReader.line(bytes, from: start)
        lines.append(LegacyTextReader.substring(contiguous, line))
        if next > bytes.count { return lines }
        start = next
      }
    } ?? []
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

  @Test("Line ranges give the lines the Substring splitting gave")
  func linesAgree() {
    for text in Self.samples {
      let expected = Self.referenceLines(text)
      let found = Self.rangeLines(text)
      #expect(found.count == expected.count)
      for (a, b) in zip(found, expected) {
        #expect(a == b)
        #expect(a.startIndex == b.startIndex && a.endIndex == b.endIndex)
      }
    }
  }

  /// The number reader the image lines used before: any radix, overflow checked.
  static func referenceNumber(_ bytes: [UInt8]) -> (UInt64, Int)? {
    var end = 0
    while end < bytes.count && !LegacyTextLine.isSpaceByte(bytes[end]) && bytes[end] != 0x2D { end += 1 }
    var position = 0
    var radix: UInt64 = 10
    if end > 2 && bytes[0] == 0x30 && (bytes[1] == 0x78 || bytes[1] == 0x58) {
      radix = 16
      position += 2
    }
    guard position < end, end - position <= 16 else { return nil }
    var value: UInt64 = 0
    while position < end {
      let byte = bytes[position]
      let digit: UInt64
      if radix == 16 && LegacyTextLine.isHexByte(byte) {
        digit = LegacyTextLine.hexValue(byte)
      } else if byte >= 0x30 && byte <= 0x39 {
        digit = UInt64(byte - 0x30)
      } else {
        return nil
      }
      let (shifted, overflow) = value.multipliedReportingOverflow(by: radix)
      guard !overflow else { return nil }
      value = shifted + digit
      position += 1
    }
    return (value, end)
  }

  @Test("ByteScanner.number agrees with the plain reader")
  func numbersAgree() {
    let alphabet = Array("0123456789abcdefABCDEFxXgG- \t+?".utf8)
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    var inputs: [[UInt8]] = [
      [], Array("0x".utf8), Array("0x1".utf8), Array("0X1f".utf8), Array("0x0000000100000000".utf8),
      Array("0xffffffffffffffff".utf8), Array("0x1ffffffffffffffff".utf8), Array("9999999999999999".utf8),
      Array("99999999999999999".utf8), Array("0x1045a0000 - 0x1046bffff".utf8), Array("12 ".utf8),
      Array("0xg".utf8), Array("00x1".utf8), Array("-1".utf8),
    ]
    for _ in 0..<20_000 {
      let prefix = next(3) == 0 ? Array("0x".utf8) : []
      inputs.append(prefix + (0..<next(20)).map { _ in alphabet[next(alphabet.count)] })
    }
    for input in inputs {
      let found = input.withUnsafeBufferPointer { bytes -> (UInt64, Int)? in
        var scanner = ByteScanner(bytes: bytes)
        guard let value = scanner.number() else {
          #expect(scanner.index == 0)
          return nil
        }
        return (value, scanner.index)
      }
      let expected = Self.referenceNumber(input)
      #expect(found?.0 == expected?.0 && found?.1 == expected?.1, "\(String(decoding: input, as: UTF8.self))")
    }
  }

  @Test("isHexOrDash is isHexByte or a dash, for every byte")
  func hexOrDash() {
    for byte in 0...255 {
      let bytes = [UInt8(byte)]
      let found = bytes.withUnsafeBufferPointer { LegacyTextLine.isHexOrDash($0, 0..<1) }
      #expect(found == (LegacyTextLine.isHexByte(UInt8(byte)) || byte == 0x2D))
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

  @Test("Register lines read from bytes give what the token path gives")
  func registersAgree() {
    var lines = [
      "    x0: 0x0000000000000000   x1: 0x00000001f2c3a7d8", "   far: 0x0000000000000028  esr: 0x92000006 (Data Abort) byte read Translation fault",
      "esr: 0x56000080  Address size fault", "esr: 0x1", "esr: 0x1 x2: 0x3", "rfl: 0x0000000000010206  rip: 0x1",
      "rflx: 0x1", "x0: +1f", "x0: 1f", "x0: zz x1: 0x2", "a: b: c", "x0:", ": 0x1", "::", "x0:\t0x1\tx1:  0x2",
      "cpsr: 0x60000000", "", "   ", "no labels here", "x0: 0x1ffffffffffffffff", "x0: 0x",
    ]
    for text in Self.samples {
      for line in text.split(separator: "\n") where line.contains(": 0x") { lines.append(String(line)) }
    }
    for line in lines {
      let expected = LegacyTextLine.registers(Substring(line))
      let found = Array(line.utf8).withUnsafeBufferPointer { LegacyTextLine.registers(ascii: $0, 0..<$0.count) }
      #expect(found?.registers == expected?.registers, "\(line)")
      #expect(found?.esr == expected?.esr, "\(line)")
      #expect((found == nil) == (expected == nil), "\(line)")
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
          let expected = bytes.allSatisfy { LegacyTextLine.isHexByte($0) || $0 == 0x2D }
          // At an odd start too, so that the words are unaligned.
          let padded = [0x20] + bytes
          let found = padded.withUnsafeBufferPointer { LegacyTextLine.isHexOrDash($0, 1..<padded.count) }
          #expect(found == expected)
        }
      }
    }
  }

  /// `keyValue` as it was, on `Character` indices after the colon.
  static func referenceKeyValue(_ line: Substring) -> (key: Substring, value: Substring)? {
    guard let first = line.utf8.first, !LegacyTextLine.isSpaceByte(first),
      let colonOffset = line.utf8.firstIndex(of: 0x3A).map({ line.utf8.distance(from: line.startIndex, to: $0) }),
      colonOffset > 0
    else { return nil }
    let colon = line.utf8.index(line.startIndex, offsetBy: colonOffset)
    let key = LegacyTextLine.droppingTrailingSpace(line[..<colon])
    let value = LegacyTextLine.trimmed(line[line.index(after: colon)...])
    return (key, value)
  }

  @Test("keyValue on bytes splits lines as the Character code did")
  func keyValueAgrees() {
    var lines = [
      "Process:   App [12]", "Key:value", "Key:", "Key :  ", ":value", " Key: value", "\tKey: v", "Key",
      "Key:\u{301}value", "Key:\u{301} value", "Caf\u{e9}: th\u{e9}", "K\u{212A}: x", "Key: a: b", "Key:\r",
      "Key:\t\tv\t", "Exception Type:  EXC_BAD_ACCESS (SIGSEGV)", "a:b", "\u{301}: x", "Key\u{301}:: x",
    ]
    for text in Self.samples {
      for line in text.split(separator: "\n", omittingEmptySubsequences: false) { lines.append(String(line)) }
    }
    for line in lines {
      let padded = "xx" + line + "yy"
      // A slice inside a longer text, as the reader passes lines.
      let slice = padded.dropFirst(2).dropLast(2)
      let found = LegacyTextLine.keyValue(slice)
      let expected = Self.referenceKeyValue(slice)
      #expect((found == nil) == (expected == nil), "\(line)")
      if let found, let expected {
        #expect(found.key == expected.key && found.value == expected.value, "\(line)")
        #expect(found.key.startIndex == expected.key.startIndex && found.key.endIndex == expected.key.endIndex)
        #expect(found.value.startIndex == expected.value.startIndex && found.value.endIndex == expected.value.endIndex)
      }
    }
  }

  /// Header values of the samples and some made to be awkward.
  static var values: [String] {
    var values = [
      "", " ", "EXC_BAD_ACCESS (SIGSEGV)", "EXC_CRASH (SIGKILL - CODESIGNING)", "SIGSEGV", "EXC_GUARD", "()",
      "(SIGABRT)", "EXC ( )", "X)", "a(b(c)", "0x0000000000000001, 0x00000001aa3f4788", "0x1,,0x2", ",", "0x1, ",
      "0x1, zz", "KERN_INVALID_ADDRESS at 0x18", "Namespace SPRINGBOARD, Code 0x8badf00d",
      "Namespace SIGNAL, Code 11 Segmentation fault: 11", "Namespace ,,,", "Namespace ", "Namespace a,b",
      "Namespace , x", "Namespace X, Code zz", "Namespace X, Code  7  trailing  words", "SIGNAL 6 Abort trap: 6",
      "DYLD 1 Library missing",
      "FRONTBOARD 2343432205", "A, 1 x", "A  1", "A 1  ", "A\t1\tb c", "one", "App [123]", "App [ 12 ]", "App []",
      "??? [1]", "??? ", "[5]", "App [+5]", "App [-0]", "App [99999999999999999999]", "7", "3, Dispatch queue: q",
      "5  Dispatch queue: com.apple.main-thread", "5,, Dispatch queue:", "x", "12abc", "99999999999999999999999",
    ]
    for text in samples {
      for line in text.split(separator: "\n") {
        if let (_, value) = LegacyTextLine.keyValue(line) { values.append(String(value)) }
      }
    }
    return values.filter { $0.utf8.allSatisfy { $0 < 0x80 } }
  }

  @Test("Header values read from the bytes of ASCII text agree with the Substring readers")
  func headerValuesAgree() {
    for value in Self.values {
      let padded = Array(("xx" + value + "yy").utf8)
      let range = 2..<(padded.count - 2)
      let line = Substring(value)
      padded.withUnsafeBufferPointer { bytes in
        let type = LegacyTextLine.exceptionType(ascii: bytes, range)
        let expectedType = LegacyTextLine.exceptionType(line)
        #expect(type.type == expectedType.type && type.signal == expectedType.signal, "\(value)")
        #expect(LegacyTextLine.codes(ascii: bytes, range) == LegacyTextLine.codes(line), "\(value)")
        let reason = LegacyTextLine.terminationReason(ascii: bytes, range)
        let expectedReason = LegacyTextLine.terminationReason(line)
        #expect(reason == expectedReason, "\(value)")
        let process = LegacyTextLine.nameAndPid(ascii: bytes, range)
        let expectedProcess = LegacyTextLine.nameAndPid(line)
        #expect(process.name == expectedProcess.name && process.pid == expectedProcess.pid, "\(value)")
        let thread = LegacyTextLine.threadNumber(ascii: bytes, range)
        let expectedThread = LegacyTextLine.threadNumber(line)
        #expect(thread?.number == expectedThread?.number && thread?.queue == expectedThread?.queue, "\(value)")
      }
    }
  }

  @Test("Thread headers and key-value splits read from bytes agree with the Substring readers")
  func threadHeadersAgree() {
    var lines = [
      "Thread 0:", "Thread 0 Crashed:", "Thread 0 Crashed:: Dispatch queue: com.apple.main-thread", "Thread 3:: name",
      "Thread 5 name:  Dispatch queue: q", "Thread 5 name: tid_303  Dispatch queue: q", "Thread 5 name:",
      "Thread 7 crashed with ARM Thread State (64-bit):", "Thread 7 crashed with :", "Thread 0 instruction stream:",
      "Thread 0 Highlighted:", "Thread 99999999999999999999:", "Thread 1 x", "Thread 1:  ", "Thread 1: x",
      "Thread 12 crashed with X86 Thread State (32-bit):", "Thread 2 Crashed", "Thread 2 :",
    ]
    for text in Self.samples {
      for line in text.split(separator: "\n") where line.hasPrefix("Thread ") { lines.append(String(line)) }
    }
    for line in lines where line.utf8.allSatisfy({ $0 < 0x80 }) {
      let padded = Array(("x" + line + "y").utf8)
      let range = 1..<(padded.count - 1)
      padded.withUnsafeBufferPointer { bytes in
        let header = LegacyTextLine.threadHeader(ascii: bytes, range)
        #expect(header == LegacyTextLine.threadHeader(Substring(line)), "\(line)")
        let split = LegacyTextLine.keyValue(bytes, range)
        let expected = LegacyTextLine.keyValue(Substring(line))
        #expect((split == nil) == (expected == nil), "\(line)")
        if let split, let expected {
          #expect(String(decoding: bytes[split.key], as: UTF8.self) == String(expected.key), "\(line)")
          #expect(String(decoding: bytes[split.value], as: UTF8.self) == String(expected.value), "\(line)")
        }
      }
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
    var inputs: [[UInt8]] = [[], Array("+".utf8), Array("-0".utf8), Array("+12".utf8), Array("-1".utf8),
      Array("18446744073709551615".utf8), Array("18446744073709551616".utf8), Array("ffffffffffffffff".utf8),
      Array("1ffffffffffffffff".utf8), Array("__pthread_kill".utf8)]
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
    var texts: [[UInt8]] = [Array("00000000000000000000000000000000".utf8),
      Array("00000000-0000-0000-0000-000000000000".utf8), Array("6f1c3b2a9d8e4f00a1b2c3d4e5f60718".utf8),
      Array("6F1C3B2A-9D8E-4F00-A1B2-C3D4E5F60718".utf8), Array("6f1c3b2a-9d8e-4f00-a1b2-c3d4e5f6071-".utf8)]
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

  /// ASCII text bodies that take the paths reading a field's text (`PID`, `Version`, the header
  /// fields of a resource report, a stackshot's process lines, an address list, x86 registers, an
  /// unreadable thread header's warning), with the fixtures' and the shared corpus's text reports.
  static var asciiBodies: [String] {
    var bodies = samples.filter { $0.utf8.allSatisfy { $0 < 0x80 } } + [
      LegacyTextSamples.ios, LegacyTextSamples.macOS,
      """
      Command:         MapMyRun
      Version:         18.8.5 (1809212128)
      PID:             2489

      Event:           cpu usage
      Action taken:    Process killed
      CPU:             48 seconds cpu time over 54 seconds
      """,
      """
      Incident Identifier: D2604550-FFA3-45D5-8247-A3F1E72E6A40
      Frontmost process PID:    34

      Process 0 info:
      \tresident memory bytes:  54738944

      Process 34 SpringBoard threads:
      thread 0x1 TH_WAIT|TH_UNINT 0x8037ba3c
      """,
      """
      Process:  App [12]
      PID:      not a number
      Exception Type:  EXC_CRASH (SIGABRT)
      Last Exception Backtrace:
      (0x1a2b 0x3c4d
      0xzz 0x5e6f)

      Thread 0 Crashed whatever:
      Thread 0 crashed with X86 Thread State (64-bit):
        rax: 0x0000000000000000  rbx: 0x0000000000000001
      Logical CPU:     2
      Error Code:      0x00000000
      Trap Number:     6
      """,
    ]
    if let corpus = Fixtures.shared?.appendingPathComponent("corpus"),
      let names = try? FileManager.default.contentsOfDirectory(atPath: corpus.path)
    {
      for name in names.sorted() {
        guard let data = FileManager.default.contents(atPath: corpus.appendingPathComponent(name).path),
          data.allSatisfy({ $0 < 0x80 })
        else { continue }
        // A text body: the whole file, or what follows a JSON header line.
        var body = Substring(String(decoding: data, as: UTF8.self))
        if body.first == "{", let newline = body.firstIndex(of: "\n") { body = body[body.index(after: newline)...] }
        if body.first != "{" && LegacyTextParser.looksLikeTextReport(String(body)) { bodies.append(String(body)) }
      }
    }
    return bodies
  }

  @Test("An ASCII body read from its bytes alone gives the report its String gives")
  func asciiBodiesAgree() {
    let bodies = Self.asciiBodies
    #expect(bodies.count >= 10)
    for body in bodies {
      var fromText = CrashReport(format: .legacyText)
      LegacyTextParser.parse(body, firstLine: 3, into: &fromText)
      var fromBytes = CrashReport(format: .legacyText)
      Array(body.utf8).withUnsafeBufferPointer { bytes in
        LegacyTextParser.parse(ascii: bytes, firstLine: 3, into: &fromBytes, texts: nil)
      }
      #expect(fromBytes == fromText, "\(body.prefix(80).debugDescription)")
      #expect(fromBytes.warnings == fromText.warnings)
    }
  }
}
