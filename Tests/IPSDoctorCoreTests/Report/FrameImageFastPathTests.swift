import Testing

@testable import IPSDoctorJSON
@testable import IPSDoctorReport

/// The usual frame and the usual image are built straight from the tape; every other one is
/// decoded member by member. Both ways must give the same values and warnings.
@Suite("Reader fast paths: frames and images")
struct FrameImageFastPathTests {
  /// Bodies whose frames and images take the usual way, the member-by-member way, or both.
  static let bodies = [
    #"{"usedImages":[{"source":"P","arch":"arm64","base":4096,"size":16384,"#
      + #""uuid":"7776e1e7-d921-35c9-8bae-089c0ffad3b2","#
      + #""path":"\/private\/var\/containers\/Bundle\/Application\/X\/A.app\/A","name":"A","#
      + #""CFBundleIdentifier":"com.a","CFBundleShortVersionString":"2.4","CFBundleVersion":"118"},"#
      + #"{"path":"\/usr\/lib\/libobjc.A.dylib","base":0}],"#
      + #""threads":[{"frames":[{"imageOffset":4,"symbol":"main","symbolLocation":8,"imageIndex":0},"#
      + #"{"imageOffset":18446744073709551615,"imageIndex":0},{"imageIndex":1},{"imageOffset":1,"imageIndex":2},"#
      + #"{"imageOffset":1,"imageIndex":-1},{"imageOffset":"0x10","imageIndex":0},{"symbol":7,"imageIndex":0},"#
      + #"{"symbol":"a","symbol":"b","imageIndex":1,"imageIndex":0},"#
      + #"{"sourceFile":"f.swift","sourceLine":3,"imageIndex":0},{"inline":true,"imageIndex":0},"#
      + #"{"symbol":null,"imageIndex":0},{"imageIndex":"1"},{}]}]}"#,
    #"{"usedImages":[{"name":"A","name":"B","base":1,"base":2},{"uuid":"D9139CF1-6D62-4386-8076-B7A3F2B4F116"},"#
      + #"{"uuid":"x","arch":"mips","source":"Z"},{"base":-1},{"size":1.5},{"name":7},{"name":null},{"extra":{}},"#
      + #"{"CFBundleIdentifier":1,"CFBundleVersion":2,"CFBundleShortVersionString":3},{"uuid":"7776e1e7\u002dd921"},"#
      + #"{"path":"\/a\/b","arch":"arm64e","source":"S"},{"CFBundleIdentifiex":"a","CFBundleShortVersionStrinx":"b"},"#
      + #"{"base":"zzz","base":5},{"size":true,"size":1},{"name":7,"name":"A"},{"n\u0061me":"B","name":"A"}],"#
      + #""lastExceptionBacktrace":[{"imageOffset":1,"imageIndex":11},{"imageOffset":2,"imageIndex":16}]}"#,
  ]

  /// Every object the reader would read as a frame or an image in `root`, by tape index.
  static func objects(in root: JSONNode, images: inout [Int], frames: inout [Int]) {
    if let used = root["usedImages"] {
      for image in used.elements where image.kind == .object { images.append(image.index) }
    }
    let backtraces = (root["threads"]?.elements.compactMap { $0["frames"] } ?? []) + [root["lastExceptionBacktrace"]]
    for case let backtrace? in backtraces {
      for frame in backtrace.elements where frame.kind == .object { frames.append(frame.index) }
    }
  }

  @Test("Each frame and image: the tape's way gives the member-by-member values and warnings")
  func sameAsDecoded() throws {
    var inputs = Self.bodies.map { Array($0.utf8) }
    for path in Fixtures.files(in: "reports", extensions: ["ips"]) {
      let bytes = try Fixtures.bytes(path)
      guard let newline = bytes.firstIndex(of: 0x0A) else { continue }
      inputs.append(Array(bytes[(newline + 1)...]))
    }
    var checked = (frames: 0, images: 0)
    for bytes in inputs {
      guard let document = try? bytes.withUnsafeBufferPointer({ try JSONParser.parseDocument($0) }) else { continue }
      document.withRoot { root in
        var imageIndices: [Int] = []
        var frameIndices: [Int] = []
        Self.objects(in: root, images: &imageIndices, frames: &frameIndices)
        for table in [nil, SharedTexts()] {
          var images: [BinaryImage] = []
          for index in imageIndices {
            let object = JSONNode(view: root.view, index: index)
            var fast = FieldDecoder(texts: table)
            var plain = FieldDecoder(texts: table)
            let image = BinaryImage.image(json: object, at: .root, decoder: &fast)
            #expect(image == BinaryImage(json: object, at: .root, decoder: &plain), "image \(index)")
            #expect(fast.warnings == plain.warnings, "image \(index)")
            images.append(image)
            checked.images += 1
          }
          images.withUnsafeBufferPointer { images in
            for index in frameIndices {
              let object = JSONNode(view: root.view, index: index)
              var fast = FieldDecoder(texts: table)
              var plain = FieldDecoder(texts: table)
              let frame = CrashReport.frame(object, images: images, at: .root, decoder: &fast)
              let decoded = CrashReport.decodedFrame(
                root.view, members: Self.members(of: object), images: images, at: .root, decoder: &plain)
              #expect(frame == decoded, "frame \(index)")
              #expect(fast.warnings == plain.warnings, "frame \(index)")
              checked.frames += 1
            }
          }
        }
      }
    }
    #expect(checked.frames > 1_000 && checked.images > 500)
  }

  /// The tape indices of a frame's members' values, the last of each name (-1 when absent).
  static func members(of object: JSONNode) -> (
    imageIndex: Int, imageOffset: Int, symbol: Int, symbolLocation: Int, sourceFile: Int, sourceLine: Int,
    inline: Int
  ) {
    var found = (
      imageIndex: -1, imageOffset: -1, symbol: -1, symbolLocation: -1, sourceFile: -1, sourceLine: -1, inline: -1
    )
    for (key, value) in object.members {
      switch key.string {
      case "imageIndex": found.imageIndex = value.index
      case "imageOffset": found.imageOffset = value.index
      case "symbol": found.symbol = value.index
      case "symbolLocation": found.symbolLocation = value.index
      case "sourceFile": found.sourceFile = value.index
      case "sourceLine": found.sourceLine = value.index
      case "inline": found.inline = value.index
      default: break
      }
    }
    return found
  }
}
