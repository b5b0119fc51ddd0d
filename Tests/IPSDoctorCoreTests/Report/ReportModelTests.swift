import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// The typed model keeps some fields in a cheaper form than they are read in (image UUIDs as 16
/// bytes, the body's bundleInfo/storeInfo/legacyInfo as members of the body document, known
/// architectures and register names as literals); reading them must give the text the report wrote.
@Suite("Report model storage")
struct ReportModelTests {
  static let uuidTexts = [
    "7776e1e7-d921-35c9-8bae-089c0ffad3b2",
    "7776E1E7-D921-35C9-8BAE-089C0FFAD3B2",
    "00000000-0000-0000-0000-000000000000",
    "ffffffff-ffff-ffff-ffff-ffffffffffff",
    "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
    "01234567-89ab-cdef-0123-456789abcdef",
    "7776e1e7-D921-35c9-8bae-089c0ffad3b2",  // mixed case
    "7776e1e7-d921-35c9-8bae-089c0ffad3bg",  // not hex
    "7776e1e7-d921-35c9-8bae-089c0ffad3b:",
    "7776e1e7-d921-35c9-8bae-089c0ffad3b`",
    "7776e1e7-d921-35c9-8bae-089c0ffad3b/",
    "7776e1e7-d921-35c9-8bae-089c0ffad3bG",
    "g776e1e7-d921-35c9-8bae-089c0ffad3b2",
    "7776e1e7-d921-35c9-8bae-089c0ffad3\u{e9}",
    "7776e1e7d921-35c9-8bae-089c0ffad3b2-",  // dashes elsewhere
    "7776e1e7-d921-35c9-8bae-089c0ffad3b",  // short
    "7776e1e7d92135c98bae089c0ffad3b2",
    "",
    "x",
  ]

  @Test("A UUID reads back as the text it was given", arguments: uuidTexts)
  func uuidRoundTrip(text: String) {
    var image = BinaryImage(uuid: text)
    #expect(image.uuid == text)
    image.uuid = nil
    #expect(image.uuid == nil)
    image.uuid = text
    #expect(image.uuid == text)
  }

  @Test(
    "A UUID in upper case, as dSYMs write it",
    arguments: [
      ("7776e1e7-d921-35c9-8bae-089c0ffad3b2", "7776E1E7-D921-35C9-8BAE-089C0FFAD3B2"),
      ("7776E1E7-D921-35C9-8BAE-089C0FFAD3B2", "7776E1E7-D921-35C9-8BAE-089C0FFAD3B2"),
      ("7776e1e7-D921-35c9-8bae-089c0ffad3b2", "7776E1E7-D921-35C9-8BAE-089C0FFAD3B2"),
      ("7776e1e7d92135c98bae089c0ffad3b2", "7776E1E7D92135C98BAE089C0FFAD3B2"),
      ("abcdef", "ABCDEF"), ("", ""),
    ])
  func uppercaseUUID(text: String, expected: String) {
    #expect(BinaryImage(uuid: text).uppercaseUUID == expected)
    #expect(BinaryImage(uuid: nil).uppercaseUUID == nil)
  }

  @Test("Usual UUIDs are kept as bytes, others as text")
  func uuidStorage() {
    #expect(ImageUUID("7776e1e7-d921-35c9-8bae-089c0ffad3b2").isBytes)
    #expect(ImageUUID("7776E1E7-D921-35C9-8BAE-089C0FFAD3B2").isBytes)
    #expect(!ImageUUID("7776e1e7-D921-35c9-8bae-089c0ffad3b2").isBytes)
    #expect(!ImageUUID("7776e1e7-d921-35c9-8bae-089c0ffad3bg").isBytes)
    #expect(ImageUUID(nil) == .none)
  }

  @Test("Two UUIDs are equal exactly when their texts are")
  func uuidEquality() {
    for first in Self.uuidTexts {
      for second in Self.uuidTexts {
        #expect((ImageUUID(first) == ImageUUID(second)) == (first == second), "\(first) vs \(second)")
      }
    }
  }

  @Test("A JSON image's UUID, arch and source read as written")
  func imageFields() throws {
    let report = try ReportReader.read(
      """
      {"bug_type":"309"}
      {"threads":[],"usedImages":[
        {"uuid":"7776e1e7-d921-35c9-8bae-089c0ffad3b2","arch":"arm64e","source":"P","name":"A"},
        {"uuid":"7776E1E7-D921-35C9-8BAE-089C0FFAD3B2","arch":"arm64","source":"S"},
        {"uuid":"7776e1e7-d921-35c9-8bae-089c0ffad3b\\u0032","arch":"x86_\\u00364","source":"C"},
        {"uuid":"not-a-uuid","arch":"armv7k","source":"Q"},
        {"uuid":12,"arch":"arm64_32","source":"K"}
      ]}
      """)
    #expect(
      report.images.map(\.uuid) == [
        "7776e1e7-d921-35c9-8bae-089c0ffad3b2", "7776E1E7-D921-35C9-8BAE-089C0FFAD3B2",
        "7776e1e7-d921-35c9-8bae-089c0ffad3b2", "not-a-uuid", "12",
      ])
    #expect(report.images.map(\.arch) == ["arm64e", "arm64", "x86_64", "armv7k", "arm64_32"])
    #expect(report.images.map(\.source) == ["P", "S", "C", "Q", "K"])
    #expect(report.images[0] == report.images[0])
    #expect(report.images[0].uuidStorage == report.images[2].uuidStorage)
  }

  @Test("A text report's UUID is stored as its normalised text would be")
  func legacyUUIDs() {
    var texts = [
      "6f1c3b2a12344e58aa217c4d0b8e5f13", "6F1C3B2A12344E58AA217C4D0B8E5F13", "6f1c3b2a-1234-4e58-aa21-7c4d0b8e5f13",
      "6F1C3B2A-1234-4E58-AA21-7C4D0B8E5F13", "6f1C3b2A-1234-4e58-Aa21-7c4d0B8e5f13",
      "6f1c3b2a1234-4e58-aa21-7c4d0b8e5f13-",
      "6f1c3b2a-12344e58-aa21-7c4d0b8e5f13", "6f1c3b2a12344e58aa217c4d0b8e5f1", "6f1c-3b2a-1234-4e58-aa21-7c4d0b8e5f13",
      "6f1c3b2a-1234-4e58-aa21-7c4d0b8e5f1-", "------------------------------------",
      "--------------------------------",
      "abc", "-", "0123456789abcdef0123456789abcdef0", "00000000000000000000000000000000",
    ]
    // Every hex-or-dash text of 32 and 36 characters with a dash moved about.
    let base = Array("6f1c3b2a12344e58aa217c4d0b8e5f13".utf8)
    for position in 0..<base.count {
      var moved = base
      moved[position] = 0x2D
      texts.append(String(decoding: moved, as: UTF8.self))
    }
    for text in texts {
      let bytes = Array(text.utf8)
      let direct = bytes.withUnsafeBufferPointer { LegacyTextLine.normalizedImageUUID($0) }
      let viaText = ImageUUID(bytes.withUnsafeBufferPointer { LegacyTextLine.normalizedUUID($0) })
      #expect(direct == viaText, "\(text)")
    }
  }

  @Test("Value constants are their text's length and words")
  func valueConstants() {
    let constants: [(MemberName, String)] = [
      (.arm64, "arm64"), (.arm64e, "arm64e"), (.arm64_32, "arm64_32"), (.x86_64, "x86_64"),
      (.sourceA, "A"), (.sourceC, "C"), (.sourceK, "K"), (.sourceP, "P"), (.sourceS, "S"),
    ]
    for (constant, text) in constants {
      let bytes = Array(text.utf8)
      #expect(bytes.withUnsafeBytes { MemberName(bytes: $0) } == constant, "\(text)")
    }
  }

  @Test("Register names x0…x40")
  func registerNames() {
    for index in 0...40 {
      #expect(ThreadState.registerName(index) == "x\(index)")
    }
  }

  @Test("bundleInfo, storeInfo and legacyInfo are the body's members, and can be set")
  func bodyTrees() throws {
    var report = try ReportReader.read(
      """
      {"bug_type":"309"}
      {"threads":[],"bundleInfo":{"CFBundleVersion":"1"},"storeInfo":{"a":[1,{"b":null}]},"bundleInfo":{"CFBundleVersion":"2"},
       "legacyInfo":{"threadTriggered":{"queue":"q"}}}
      """)
    let body = try #require(report.bodyJSON?.objectValue)
    #expect(report.bundleInfo == body.members.last(where: { $0.key == "bundleInfo" })?.value.objectValue)
    #expect(report.bundleInfo?["CFBundleVersion"] == .string("2"))
    #expect(report.storeInfo == body["storeInfo"]?.objectValue)
    #expect(report.legacyInfo == body["legacyInfo"])
    report.storeInfo = nil
    #expect(report.storeInfo == nil)
    #expect(report.bundleInfo?["CFBundleVersion"] == .string("2"))
    #expect(report.legacyInfo == body["legacyInfo"])

    let odd = try ReportReader.read(
      """
      {"bug_type":"309"}
      {"threads":[],"bundleInfo":"text","storeInfo":5,"legacyInfo":null}
      """)
    #expect(odd.bundleInfo == nil)
    #expect(odd.storeInfo == nil)
    #expect(odd.legacyInfo == .null)
    #expect(odd.warnings.map(\.location) == ["bundleInfo", "storeInfo"])

    let text = try ReportReader.read("Incident Identifier: X\nException Type: EXC_CRASH (SIGABRT)\n")
    #expect(text.bundleInfo == nil && text.storeInfo == nil && text.legacyInfo == nil)
  }
}

extension ImageUUID {
  var isBytes: Bool {
    switch self {
    case .lowercase, .uppercase: true
    case .none, .text: false
    }
  }
}
