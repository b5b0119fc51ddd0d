import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorReport

/// The typed model answers a few strings with ones it already made (the header's incident id and
/// bundle id where the body repeats them, the main queue's label as a literal): each shortcut
/// against the plain decoding it replaces.
@Suite("Model string reuse")
struct ModelStringReuseTests {
  /// Deterministic pseudo-random generator (a linear congruential one).
  struct Generator {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(truncatingIfNeeded: state >> 33) % bound
    }
  }

  static let alphabet: [String] = [
    "a", "b", "n", "t", "u", "0", "/", "\\", "\"", "\n", "\t", "\u{08}", "\u{0C}", "\r", "é", "😀", " ", ".", "\\n",
  ]

  /// `text` as a JSON string literal, each character escaped or not as `generator` chooses (a
  /// slash as `\/` like Apple's writers, any character as `\u`, the short escapes).
  static func encoded(_ text: String, _ generator: inout Generator) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      let choice = generator.next(4)
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += choice == 0 ? "\\u000a" : "\\n"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      case "\r": out += "\\r"
      case "/": out += choice < 2 ? "\\/" : "/"
      default:
        if choice == 0 && scalar.value < 0x10000 {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  /// Texts that differ from `text` a little: one character changed, one more or less, and the
  /// forms an escape could be confused with.
  static func neighbours(of text: String, _ generator: inout Generator) -> [String] {
    var result = [text, text + "a", String(text.dropLast()), String(text.dropFirst()), "", "x" + text]
    if !text.isEmpty {
      var characters = Array(text).map(String.init)
      let at = generator.next(characters.count)
      characters[at] = alphabet[generator.next(alphabet.count)]
      result.append(characters.joined())
    }
    result.append(text.replacingOccurrences(of: "\n", with: "\\n"))
    result.append(text.replacingOccurrences(of: "\\n", with: "\n"))
    result.append(text.replacingOccurrences(of: "/", with: "\\/"))
    result.append(text.replacingOccurrences(of: "\\", with: "\\\\"))
    return result
  }

  @Test("textEquals answers as decoding the string and comparing, or false for \\u escapes")
  func textEqualsMatchesDecoding() throws {
    var generator = Generator(state: 17)
    var compared = 0
    for round in 0..<3_000 {
      let length = round < 200 ? round % 40 : generator.next(70)
      let text = (0..<length).map { _ in Self.alphabet[generator.next(Self.alphabet.count)] }.joined()
      let literal = Self.encoded(text, &generator)
      let bytes = Array("[\(literal)]".utf8)
      let document = try bytes.withUnsafeBufferPointer { try JSONParser.parseDocument($0) }
      document.withRoot { root in
        guard let node = root.elements.first(where: { _ in true }) else {
          Issue.record("no element in \(literal)")
          return
        }
        let decoded = FieldDecoder.text(node)
        #expect(decoded == text, "\(literal)")
        let hasUnicodeEscape = literal.contains("\\u")
        for candidate in Self.neighbours(of: text, &generator) {
          let fast = FieldDecoder.textEquals(node, candidate)
          if hasUnicodeEscape {
            #expect(!fast || decoded == candidate, "\(literal) vs \(candidate.debugDescription)")
          } else {
            #expect(fast == (decoded == candidate), "\(literal) vs \(candidate.debugDescription)")
          }
          // Whatever the shortcut answers, the text is the decoded text.
          #expect(FieldDecoder.text(node, reusing: candidate) == decoded, "\(literal)")
          // Also a candidate whose storage is a slice of a larger string.
          let embedded = String(("<" + candidate + ">").dropFirst().dropLast())
          #expect(FieldDecoder.text(node, reusing: embedded) == decoded, "\(literal)")
          compared += 1
        }
      }
    }
    #expect(compared > 30_000)
  }

  @Test("A node that is not a string never equals a text")
  func textEqualsRejectsOtherKinds() throws {
    let bytes = Array(#"[1, null, true, {}, [], "1"]"#.utf8)
    let document = try bytes.withUnsafeBufferPointer { try JSONParser.parseDocument($0) }
    document.withRoot { root in
      for node in root.elements {
        #expect(FieldDecoder.textEquals(node, "1") == (node.kind == .string))
      }
    }
  }

  @Test("The main queue's label is recognised exactly as the decoded string compares")
  func mainQueueLabel() throws {
    let literals = [
      #""com.apple.main-thread""#, #""com.apple.main-threa""#, #""com.apple.main-threadx""#,
      #""com.apple.main\u002dthread""#, #""com.apple.main-thread ""#, #""Com.apple.main-thread""#,
      #""com.apple.root.default-qos""#, #""""#, "1", "null", "{}", #""com.apple.main-thread\/""#,
    ]
    for literal in literals {
      let bytes = Array("[\(literal)]".utf8)
      let document = try bytes.withUnsafeBufferPointer { try JSONParser.parseDocument($0) }
      document.withRoot { root in
        for node in root.elements {
          let plain = node.kind == .string && FieldDecoder.text(node) == "com.apple.main-thread"
          let escaped = node.kind == .string && node.entry.flags & JSONTapeEntry.stringHasEscapes != 0
          // Escaped spellings take the plain decoding (which gives the same text).
          #expect(CrashReport.isMainQueueLabel(node) == (plain && !escaped), "\(literal)")
        }
      }
    }
  }

  @Test("Reports whose body repeats the header read as with the strings decoded again")
  func repeatedHeaderFields() throws {
    let header =
      #"{"bug_type":"309","incident_id":"D9139CF1-6D62-4386-8076-B7A3F2B4F116","bundleID":"com.example.chat.app","name":"ChatApplication1"}"#
    let bodies = [
      // The same texts.
      #"{"incident":"D9139CF1-6D62-4386-8076-B7A3F2B4F116","procName":"ChatApplication1","bundleInfo":{"CFBundleIdentifier":"com.example.chat.app"},"threads":[{"queue":"com.apple.main-thread","frames":[]}]}"#,
      // The same texts, escaped.
      #"{"incident":"D9139CF1\u002d6D62-4386-8076-B7A3F2B4F116","procName":"ChatApplication\u0031","bundleInfo":{"CFBundleIdentifier":"com.example.chat\/app"},"threads":[{"queue":"com.apple.main\u002dthread"}]}"#,
      // Different texts of the same lengths, other types, absent members.
      #"{"incident":"D9139CF1-6D62-4386-8076-B7A3F2B4F117","procName":"ChatApplication2","bundleInfo":{"CFBundleIdentifier":"com.example.chat.apq"},"threads":[{"queue":"com.apple.main-threae"}]}"#,
      #"{"incident":12,"procName":null,"bundleInfo":{"CFBundleIdentifier":["x"]},"threads":[{"queue":7}]}"#,
      #"{"threads":[{"queue":null},{"queue":"com.apple.main-thread","name":"com.apple.main-thread"}]}"#,
    ]
    for body in bodies {
      let report = try ReportReader.read(Array((header + "\n" + body).utf8))
      // The plain decoding: each field read from the tree.
      guard case .object(let root)? = report.bodyJSON else {
        Issue.record("no body")
        continue
      }
      func text(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text)?: text
        case .number(let number)?: number.description
        default: nil
        }
      }
      #expect(report.incidentID == (text(root["incident"]) ?? "D9139CF1-6D62-4386-8076-B7A3F2B4F116"), "\(body)")
      #expect(report.processName == (text(root["procName"]) ?? "ChatApplication1"), "\(body)")
      if case .object(let bundle)? = root["bundleInfo"] {
        #expect(report.bundleID == (text(bundle["CFBundleIdentifier"]) ?? "com.example.chat.app"), "\(body)")
      }
      if case .array(let threads)? = root["threads"] {
        for (index, thread) in threads.enumerated() {
          guard case .object(let object) = thread else { continue }
          #expect(report.threads[index].queue == text(object["queue"]), "\(body)")
        }
      }
    }
  }
}

/// Incident ids and slice UUIDs are kept as ``ImageUUID``s read from the tape's bytes.
@Suite("Report UUID fields")
struct ReportUUIDFieldTests {
  static let values = [
    #""D9139CF1-6D62-4386-8076-B7A3F2B4F116""#, #""7776e1e7-d921-35c9-8bae-089c0ffad3b2""#,
    #""7776E1E7-d921-35c9-8bae-089c0ffad3b2""#, #""D9139CF1-6D62-4386-8076-B7A3F2B4F11""#,
    #""D9139CF1-6D62-4386-8076-B7A3F2B4F116 ""#, #""D9139CF1\u002d6D62-4386-8076-B7A3F2B4F116""#,
    #""D9139CF1-6D62-4386-8076-B7A3F2B4F11G""#, #""D9139CF1+6D62-4386-8076-B7A3F2B4F116""#, #""""#, #""x""#,
    "12", "-3", "1.5", "null", "true", "{}", "[]", #""é9139CF1-6D62-4386-8076-B7A3F2B4F11""#,
  ]

  @Test("FieldDecoder.uuid answers as ImageUUID of the decoded string, with the same warnings")
  func uuidMatchesString() throws {
    for value in Self.values {
      let bytes = Array(#"{"incident":\#(value)}"#.utf8)
      let document = try bytes.withUnsafeBufferPointer { try JSONParser.parseDocument($0) }
      document.withRoot { root in
        let member = root["incident"]
        var fast = FieldDecoder()
        var plain = FieldDecoder()
        let uuid = fast.uuid(member, named: "incident", in: .root)
        let text = plain.string(member, named: "incident", in: .root)
        #expect(uuid == text.map { ImageUUID($0) }, "\(value)")
        #expect(uuid?.text == text, "\(value)")
        #expect(fast.warnings == plain.warnings, "\(value)")
      }
    }
    #expect(FieldDecoder().uuidOfNothing == nil)
  }

  @Test("Header and body ids read as the documents' texts; setting them keeps the text")
  func reportFields() throws {
    for header in Self.values {
      for body in [Self.values[0], Self.values[2], "null", "7", #""other""#] {
        let text =
          #"{"bug_type":"309","incident_id":\#(header),"slice_uuid":\#(header)}"# + "\n"
          + #"{"incident":\#(body),"threads":[]}"#
        let report = try ReportReader.read(Array(text.utf8))
        func plain(_ value: JSONValue?) -> String? {
          switch value {
          case .string(let text)?: text
          case .number(let number)?: number.description
          default: nil
          }
        }
        guard case .object(let headerObject)? = report.headerJSON, case .object(let bodyObject)? = report.bodyJSON
        else {
          Issue.record("not read: \(text)")
          continue
        }
        #expect(report.header.incidentID == plain(headerObject["incident_id"]), "\(text)")
        #expect(report.header.sliceUUID == plain(headerObject["slice_uuid"]), "\(text)")
        #expect(report.incidentID == (plain(bodyObject["incident"]) ?? plain(headerObject["incident_id"])), "\(text)")
        var copy = report
        copy.incidentID = report.incidentID
        copy.header.sliceUUID = report.header.sliceUUID
        #expect(copy == report)
        copy.incidentID = "d9139cf1-6d62-4386-8076-b7a3f2b4f116"
        #expect(copy.incidentID == "d9139cf1-6d62-4386-8076-b7a3f2b4f116")
        #expect((copy == report) == (report.incidentID == "d9139cf1-6d62-4386-8076-b7a3f2b4f116"))
        copy.incidentID = nil
        #expect(copy.incidentID == nil)
      }
    }
  }
}

extension FieldDecoder {
  /// An absent member.
  fileprivate var uuidOfNothing: ImageUUID? {
    var decoder = self
    return decoder.uuid(nil, named: "incident", in: .root)
  }
}

/// Timestamps are kept as ``InlineText``s: short ASCII texts as their bytes, anything else as a
/// `String`, equal exactly when their texts are.
@Suite("Report timestamp fields")
struct ReportTimestampFieldTests {
  static let values = [
    #""2026-07-12 21:47:13.9376 -0700""#, #""2026-07-12 21:47:13.00 -0700""#, #""""#, #""x""#,
    #""0123456789012345678901234567890""#, #""01234567890123456789012345678901""#,
    #""2026-07-12 21:47:13.9376 \u002d0700""#, #""2026-07-12 21:47:13.9376 -07é0""#, #""e\u0301""#, #""\u00e9""#,
    "12", "-3", "1.5", "null", "true", "{}", "[]",
  ]

  @Test("InlineText keeps every text, equal exactly when the texts are")
  func inlineTextRoundTrip() {
    let texts: [String?] = [
      nil, "", "x", "2026-07-12 21:47:13.9376 -0700", String(repeating: "a", count: 31),
      String(repeating: "a", count: 32), "é", "e\u{301}", "\u{e9}", "2026-07-12 21:47:13.9376 -07é0",
    ]
    for text in texts {
      let kept = InlineText(text)
      #expect(kept.text == text, "\(String(describing: text))")
      if let text, text.utf8.count <= InlineText.capacity, text.utf8.allSatisfy({ $0 < 0x80 }) {
        guard case .bytes = kept else {
          Issue.record("not kept in place: \(text)")
          continue
        }
      }
      for other in texts { #expect((InlineText(other) == kept) == (other == text), "\(String(describing: text))") }
    }
  }

  @Test("FieldDecoder.inlineText answers as InlineText of the decoded string, with the same warnings")
  func inlineTextMatchesString() throws {
    for value in Self.values {
      let bytes = Array(#"{"captureTime":\#(value)}"#.utf8)
      let document = try bytes.withUnsafeBufferPointer { try JSONParser.parseDocument($0) }
      document.withRoot { root in
        let member = root["captureTime"]
        var fast = FieldDecoder()
        var plain = FieldDecoder()
        let kept = fast.inlineText(member, named: "captureTime", in: .root)
        let text = plain.string(member, named: "captureTime", in: .root)
        #expect(kept == text.map { InlineText($0) }, "\(value)")
        #expect(kept?.text == text, "\(value)")
        #expect(fast.warnings == plain.warnings, "\(value)")
      }
    }
  }

  @Test("Header and body times read as the documents' texts; setting them keeps the text")
  func reportFields() throws {
    for header in Self.values {
      for body in [Self.values[0], Self.values[1], "null", "7", #""other""#] {
        let text =
          #"{"bug_type":"309","timestamp":\#(header)}"# + "\n"
          + #"{"captureTime":\#(body),"procLaunch":\#(body),"threads":[]}"#
        let report = try ReportReader.read(Array(text.utf8))
        func plain(_ value: JSONValue?) -> String? {
          switch value {
          case .string(let text)?: text
          case .number(let number)?: number.description
          default: nil
          }
        }
        guard case .object(let headerObject)? = report.headerJSON, case .object(let bodyObject)? = report.bodyJSON
        else {
          Issue.record("not read: \(text)")
          continue
        }
        #expect(report.header.timestamp == plain(headerObject["timestamp"]), "\(text)")
        #expect(report.captureTime == (plain(bodyObject["captureTime"]) ?? plain(headerObject["timestamp"])), "\(text)")
        #expect(report.launchTime == plain(bodyObject["procLaunch"]), "\(text)")
        var copy = report
        copy.captureTime = report.captureTime
        copy.launchTime = report.launchTime
        copy.header.timestamp = report.header.timestamp
        #expect(copy == report)
        copy.launchTime = "2026-07-12 21:43:33.3153 -0700"
        #expect(copy.launchTime == "2026-07-12 21:43:33.3153 -0700")
        #expect((copy == report) == (report.launchTime == "2026-07-12 21:43:33.3153 -0700"))
        copy.captureTime = nil
        #expect(copy.captureTime == nil)
      }
    }
  }
}
