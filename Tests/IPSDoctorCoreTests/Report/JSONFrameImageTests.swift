import Testing

@testable import IPSDoctorJSON
@testable import IPSDoctorReport

/// A `usedImages` entry and a frame object of a JSON report, input → expected: the values read and
/// the warnings given, for the usual shapes and for duplicate, escaped, mistyped and out-of-range
/// members.
@Suite("JSON frames and images")
struct JSONFrameImageTests {
  /// `json` parsed, and `body` of its root object with `"image"` as the path warnings name.
  static func read<Value>(
    _ json: String, texts: SharedTexts?, _ body: (JSONNode, inout FieldDecoder) -> Value
  ) throws -> (Value, [String]) {
    let bytes = Array(json.utf8)
    let document = try bytes.withUnsafeBufferPointer { try JSONParser.parseDocument($0) }
    return document.withRoot { root in
      var decoder = FieldDecoder(texts: texts)
      let value = body(root, &decoder)
      return (value, decoder.warnings.map(\.description))
    }
  }

  /// The image's values, `nil` for each one absent.
  struct ImageValues: Equatable, CustomStringConvertible {
    var name, path, uuid: String?
    var base, size: UInt64?
    var arch, source, bundleID, bundleShortVersion, bundleVersion: String?

    init(
      name: String? = nil, path: String? = nil, uuid: String? = nil, base: UInt64? = nil, size: UInt64? = nil,
      arch: String? = nil, source: String? = nil, bundleID: String? = nil, bundleShortVersion: String? = nil,
      bundleVersion: String? = nil
    ) {
      (self.name, self.path, self.uuid, self.base, self.size) = (name, path, uuid, base, size)
      (self.arch, self.source, self.bundleID) = (arch, source, bundleID)
      (self.bundleShortVersion, self.bundleVersion) = (bundleShortVersion, bundleVersion)
    }

    init(_ image: BinaryImage) {
      self.init(
        name: image.name, path: image.path, uuid: image.uuid, base: image.base, size: image.size, arch: image.arch,
        source: image.source, bundleID: image.bundleID, bundleShortVersion: image.bundleShortVersion,
        bundleVersion: image.bundleVersion)
    }

    var description: String {
      "\([name, path, uuid, base.map { "\($0)" }, size.map { "\($0)" }, arch, source, bundleID, bundleShortVersion, bundleVersion])"
    }
  }

  static let images: [(json: String, image: ImageValues, warnings: [String])] = [
    // The usual image: every member of its usual type.
    (
      #"{"source":"P","arch":"arm64","base":4096,"size":16384,"uuid":"7776e1e7-d921-35c9-8bae-089c0ffad3b2","#
        + #""path":"\/private\/var\/containers\/Bundle\/Application\/X\/A.app\/A","name":"A","#
        + #""CFBundleIdentifier":"com.a","CFBundleShortVersionString":"2.4","CFBundleVersion":"118"}"#,
      ImageValues(
        name: "A", path: "/private/var/containers/Bundle/Application/X/A.app/A",
        uuid: "7776e1e7-d921-35c9-8bae-089c0ffad3b2", base: 4096, size: 16384, arch: "arm64", source: "P",
        bundleID: "com.a", bundleShortVersion: "2.4", bundleVersion: "118"),
      []
    ),
    (#"{"path":"\/usr\/lib\/libobjc.A.dylib","base":0}"#, ImageValues(path: "/usr/lib/libobjc.A.dylib", base: 0), []),
    (#"{"path":"\/a\/b","arch":"arm64e","source":"S"}"#, ImageValues(path: "/a/b", arch: "arm64e", source: "S"), []),
    (#"{"uuid":"x","arch":"mips","source":"Z"}"#, ImageValues(uuid: "x", arch: "mips", source: "Z"), []),
    // A UUID not in the canonical lower-case form is kept as written; an escaped one as its text.
    (
      #"{"uuid":"D9139CF1-6D62-4386-8076-B7A3F2B4F116"}"#, ImageValues(uuid: "D9139CF1-6D62-4386-8076-B7A3F2B4F116"),
      []
    ),
    (#"{"uuid":"7776e1e7\u002dd921"}"#, ImageValues(uuid: "7776e1e7-d921"), []),
    // Of members with one name, the last counts; an escaped name is the same name.
    (#"{"name":"A","name":"B","base":1,"base":2}"#, ImageValues(name: "B", base: 2), []),
    (#"{"name":"A","n\u0061me":"B"}"#, ImageValues(name: "B"), []),
    (#"{"name":7,"name":"A"}"#, ImageValues(name: "A"), []),
    // Numbers for texts are their digits; a negative address keeps its bit pattern; null is absent.
    (#"{"name":7}"#, ImageValues(name: "7"), []),
    (
      #"{"CFBundleIdentifier":1,"CFBundleVersion":2,"CFBundleShortVersionString":3}"#,
      ImageValues(bundleID: "1", bundleShortVersion: "3", bundleVersion: "2"), []
    ),
    (#"{"base":-1}"#, ImageValues(base: .max), []),
    (#"{"name":null}"#, ImageValues(), []),
    (#"{"extra":{}}"#, ImageValues(), []),
    (#"{"CFBundleIdentifiex":"a","CFBundleShortVersionStrinx":"b"}"#, ImageValues(), []),
    // A member of the wrong type warns, even when a later one of its name is read.
    (#"{"size":1.5}"#, ImageValues(), ["image.size: number 1.5 is not a 64-bit integer; ignored"]),
    (
      #"{"base":"zzz","base":5}"#, ImageValues(base: 5),
      [#"image.base: expected an integer, found string "zzz"; ignored"#]
    ),
    (#"{"size":true,"size":1}"#, ImageValues(size: 1), ["image.size: expected an integer, found boolean; ignored"]),
    (#"{"name":["A"]}"#, ImageValues(), ["image.name: expected a string, found array; ignored"]),
  ]

  @Test("An image's values and warnings")
  func image() throws {
    for table in [nil, SharedTexts()] {
      for row in Self.images {
        let (image, warnings) = try Self.read(row.json, texts: table) { root, decoder in
          BinaryImage.image(json: root, at: JSONPath.root.appending("image"), decoder: &decoder)
        }
        #expect(ImageValues(image) == row.image, "\(row.json)")
        #expect(warnings == row.warnings, "\(row.json)")
      }
    }
  }

  /// The images the frames below refer to: an app image with a base, a library with only a path.
  static let frameImages = [
    BinaryImage(name: "A", base: 4096),
    BinaryImage(path: "/usr/lib/libobjc.A.dylib", base: 0),
  ]

  /// `Frame` with a source location and inline flag.
  static func frame(_ frame: Frame, file: String? = nil, line: Int? = nil, inline: Bool = false) -> Frame {
    var frame = frame
    (frame.sourceFile, frame.sourceLine, frame.isInline) = (file, line, inline)
    return frame
  }

  static let frames: [(json: String, frame: Frame, warnings: [String])] = [
    // The usual frame: the image's name, and its base plus the offset as the address.
    (
      #"{"imageOffset":4,"symbol":"main","symbolLocation":8,"imageIndex":0}"#,
      Frame(imageIndex: 0, imageOffset: 4, symbol: "main", symbolLocation: 8, imageName: "A", address: 4100), []
    ),
    // An image without a name is named by its path's last component.
    (#"{"imageIndex":1}"#, Frame(imageIndex: 1, imageName: "libobjc.A.dylib"), []),
    (
      #"{"imageOffset":16,"imageIndex":1}"#,
      Frame(imageIndex: 1, imageOffset: 16, imageName: "libobjc.A.dylib", address: 16), []
    ),
    // An address past 2^64 is no address.
    (
      #"{"imageOffset":18446744073709551615,"imageIndex":0}"#,
      Frame(imageIndex: 0, imageOffset: .max, imageName: "A"), []
    ),
    (
      #"{"imageOffset":"0x10","imageIndex":0}"#, Frame(imageIndex: 0, imageOffset: 16, imageName: "A", address: 4112),
      []
    ),
    (
      #"{"symbol":"a","symbol":"b","imageIndex":1,"imageIndex":0}"#, Frame(imageIndex: 0, symbol: "b", imageName: "A"),
      []
    ),
    (#"{"symbol":7,"imageIndex":0}"#, Frame(imageIndex: 0, symbol: "7", imageName: "A"), []),
    (#"{"symbol":null,"imageIndex":0}"#, Frame(imageIndex: 0, imageName: "A"), []),
    (#"{"imageIndex":"1"}"#, Frame(imageIndex: 1, imageName: "libobjc.A.dylib"), []),
    (
      #"{"sourceFile":"f.swift","sourceLine":3,"imageIndex":0}"#,
      frame(Frame(imageIndex: 0, imageName: "A"), file: "f.swift", line: 3), []
    ),
    (#"{"inline":true,"imageIndex":0}"#, frame(Frame(imageIndex: 0, imageName: "A"), inline: true), []),
    (#"{}"#, Frame(), []),
    // An image index out of range, or of the wrong type, resolves no image.
    (
      #"{"imageOffset":1,"imageIndex":2}"#, Frame(imageOffset: 1),
      ["frame.imageIndex: image index 2 is out of range (the report has 2 images); ignored"]
    ),
    (
      #"{"imageOffset":1,"imageIndex":-1}"#, Frame(imageOffset: 1),
      ["frame.imageIndex: image index -1 is out of range (the report has 2 images); ignored"]
    ),
    (
      #"{"imageIndex":[0]}"#, Frame(), ["frame.imageIndex: expected an integer, found array; ignored"]
    ),
    (
      #"{"imageOffset":1.5,"symbol":{},"imageIndex":0}"#, Frame(imageIndex: 0, imageName: "A"),
      [
        "frame.imageOffset: number 1.5 is not a 64-bit integer; ignored",
        "frame.symbol: expected a string, found object; ignored",
      ]
    ),
  ]

  @Test("A frame's values and warnings")
  func frame() throws {
    for table in [nil, SharedTexts()] {
      for row in Self.frames {
        let (frame, warnings) = try Self.frameImages.withUnsafeBufferPointer { images in
          try Self.read(row.json, texts: table) { root, decoder in
            CrashReport.frame(root, images: images, at: JSONPath.root.appending("frame"), decoder: &decoder)
          }
        }
        #expect(frame == row.frame, "\(row.json)")
        #expect(warnings == row.warnings, "\(row.json)")
      }
    }
  }
}
