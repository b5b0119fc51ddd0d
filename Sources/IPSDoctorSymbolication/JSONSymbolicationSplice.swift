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
