import IPSDoctorJSON
import IPSDoctorReport
import IPSDoctorSupport

/// Symbolicates a JSON `.ips` body in place, keeping every byte of it: the members Xcode adds
/// (`symbol`, `symbolLocation`, `sourceFile`, `sourceLine`) are inserted right after each
/// unsymbolicated frame's `{`, and code inlined into the frame goes before it as new compact
/// frame objects marked `"inline": true`. The result differs from the input only by insertions,
/// so a report keeps Apple's layout; `symbolicate` writes the body's bytes with them as it goes.
package enum JSONSymbolicationSplice {
  /// The insertions into the body's bytes, in the order of their offsets (into the document's
  /// bytes), and how many frames they symbolicate; `nil` when the body's bytes are not as its tape
  /// says (the caller then re-serialises the tree, ``JSONSymbolication``).
  package static func insertions(_ document: JSONDocument, report: CrashReport, symbolicator: Symbolicator)
    -> (insertions: [(offset: Int, text: String)], frames: Int)?
  {
    var matches: [Int: ImageMatch] = [:]
    var insertions: [(offset: Int, text: String)] = []
    var count = 0
    let consistent: Bool = document.withRoot { root in
      guard root.kind == .object else { return false }
      var consistent = true
      func visit(_ frames: JSONNode) {
        guard frames.kind == .array else { return }
        for frame in frames.elements where frame.kind == .object && frame["symbol"] == nil {
          guard let index = frame["imageIndex"]?.number?.uint64, index < UInt64(report.images.count),
            let offset = frame["imageOffset"]?.number?.uint64
          else { continue }
          let model = Frame(imageIndex: Int(index), imageOffset: offset)
          guard let symbols = symbolicator.symbols(of: model, in: report, matches: &matches) else { continue }
          let start = frame.entry.start
          guard start < frame.view.bytes.count, frame.view.bytes[start] == UInt8(ascii: "{") else {
            consistent = false
            return
          }
          count += 1
          var before = ""
          for symbol in symbols.dropLast() {
            before +=
              "{\"imageOffset\":\(offset),\"imageIndex\":\(index),\"inline\":true,"
              + members(symbol).dropLast() + "},"
          }
          if !before.isEmpty { insertions.append((start, before)) }
          insertions.append((start + 1, members(symbols[symbols.count - 1])))
        }
      }
      if let threads = root["threads"], threads.kind == .array {
        for thread in threads.elements where thread.kind == .object {
          if let frames = thread["frames"] { visit(frames) }
        }
      }
      if let backtrace = root["lastExceptionBacktrace"] { visit(backtrace) }
      return consistent
    }
    guard consistent else { return nil }
    // At most one insertion per offset (a frame's `{` and the byte after it), so the order of
    // the sort is the whole order.
    return (insertions.sorted(by: { $0.offset < $1.offset }), count)
  }

  /// `"symbol":"…","symbolLocation":N,"sourceFile":"…","sourceLine":N,` (with the comma).
  static func members(_ symbol: FrameSymbol) -> String {
    var text = "\"symbol\":" + JSONWriter.quoted(symbol.symbol) + ",\"symbolLocation\":\(symbol.symbolLocation),"
    if let file = symbol.sourceFile {
      text += "\"sourceFile\":" + JSONWriter.quoted(file) + ",\"sourceLine\":\(max(symbol.sourceLine ?? 0, 0)),"
    }
    return text
  }
}

extension JSONSymbolicationSplice {
  /// Writes the bytes of JSON text that was parsed whole, so that every `#` and non-ASCII scalar
  /// in it is inside a string, with what a terminal or a CI log would act on written as the JSON
  /// escape of the same characters: DEL, C1 controls, bidi controls and the line and paragraph
  /// separators as `\uXXXX`, and the `#` of `##[` as `\u0023`. The text decodes to the same
  /// values; every other byte is written as it was.
  package static func writeEscaped(_ bytes: UnsafeRawBufferPointer, into write: (UnsafeRawBufferPointer) -> Void) {
    let count = bytes.count
    var start = 0
    var index = 0
    while index < count {
      let byte = bytes[index]
      let next: UInt8 = index + 1 < count ? bytes[index + 1] : 0
      let third: UInt8 = index + 2 < count ? bytes[index + 2] : 0
      var length = 0
      var scalar: UInt32 = 0
      switch byte {
      case UInt8(ascii: "#") where next == UInt8(ascii: "#") && third == UInt8(ascii: "["): (length, scalar) = (1, 0x23)
      case 0x7F: (length, scalar) = (1, 0x7F)
      case 0xC2 where (0x80...0x9F).contains(next): (length, scalar) = (2, UInt32(next))
      case 0xD8 where next == 0x9C: (length, scalar) = (2, 0x061C)
      case 0xE2 where next == 0x80 && (third == 0x8E || third == 0x8F || (0xA8...0xAE).contains(third)),
        0xE2 where next == 0x81 && (0xA6...0xA9).contains(third):
        (length, scalar) = (3, 0x2000 | UInt32(next & 0x3F) << 6 | UInt32(third & 0x3F))
      default: break
      }
      guard length > 0 else {
        index += 1
        continue
      }
      write(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
      let hex = String(scalar, radix: 16, uppercase: true)
      var escape = "\\u" + String(repeating: "0", count: 4 - hex.utf8.count) + hex
      escape.withUTF8 { write(UnsafeRawBufferPointer($0)) }
      index += length
      start = index
    }
    write(UnsafeRawBufferPointer(rebasing: bytes[start..<count]))
  }
}
