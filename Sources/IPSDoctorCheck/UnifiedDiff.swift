import IPSDoctorSupport

/// A unified diff of one file from the edits made to it, as `git diff` writes one and `git apply`
/// (or `patch -p1`) reads it: `a/` and `b/` prefixes, three lines of context, hunks merged where
/// their context meets, line endings kept as they are in the file, and `\ No newline at end of
/// file` after a last line without one.
///
/// Invariant: the edits are sorted, do not overlap, and lie within the file.
package enum UnifiedDiff {
  static let context = 3

  /// `path` as a patch names it: relative to `workingDirectory` (`./` dropped; an absolute path
  /// inside it made relative, one outside it reached with `../`).
  package static func relativePath(_ path: String, to workingDirectory: String?) -> String {
    var text = path
    while text.hasPrefix("./") { text.removeFirst(2) }
    guard text.hasPrefix("/"), let workingDirectory else { return text }
    var target = text.split(separator: "/").map(String.init)
    if let physical = POSIX.physicalPath(PathName(text)), !text.hasPrefix(workingDirectory + "/") {
      target = String(decoding: physical.bytes, as: UTF8.self).split(separator: "/").map(String.init)
    }
    let base = workingDirectory.split(separator: "/").map(String.init)
    var common = 0
    while common < min(base.count, target.count - 1), base[common] == target[common] { common += 1 }
    return (Array(repeating: "..", count: base.count - common) + target[common...]).joined(separator: "/")
  }

  /// The diff of `bytes` changed by `edits`, for the file at `path` (relative to the directory the
  /// patch is applied in); empty when nothing changes.
  static func make(path: String, bytes: [UInt8], edits: [SourceEdit]) -> [UInt8] {
    guard !edits.isEmpty else { return [] }
    let starts = lineStarts(bytes)
    func line(of offset: Int) -> Int {
      var low = 0
      var high = starts.count - 1
      while low < high {
        let middle = (low + high + 1) / 2
        if starts[middle] <= offset { low = middle } else { high = middle - 1 }
      }
      return low
    }
    func lineEnd(_ line: Int) -> Int { line + 1 < starts.count ? starts[line + 1] : bytes.count }

    // Each edit widened to whole old lines; edits on the same or adjacent lines are one block.
    var blocks: [(first: Int, last: Int, edits: [SourceEdit])] = []
    for edit in edits {
      let first = line(of: edit.range.lowerBound)
      let last = edit.range.isEmpty ? first : line(of: edit.range.upperBound - 1)
      if let previous = blocks.last, first <= previous.last + 1 {
        blocks[blocks.count - 1].last = max(previous.last, last)
        blocks[blocks.count - 1].edits.append(edit)
      } else {
        blocks.append((first, last, [edit]))
      }
    }
    let lineCount = starts.count
    // Hunks: blocks whose context overlaps or touches.
    var hunks: [[Int]] = []
    for index in blocks.indices {
      if let previous = hunks.last?.last, blocks[previous].last + 2 * context + 1 >= blocks[index].first {
        hunks[hunks.count - 1].append(index)
      } else {
        hunks.append([index])
      }
    }
    var out = Array("--- a/\(path)\n+++ b/\(path)\n".utf8)
    var delta = 0
    var blockDeltas = [Int](repeating: 0, count: blocks.count)
    for (index, block) in blocks.enumerated() {
      blockDeltas[index] = delta
      let new = splitLines(newText(of: block, bytes: bytes, starts: starts, end: lineEnd(block.last))).count
      delta += new - (block.last - block.first + 1)
    }
    for hunk in hunks {
      let firstBlock = blocks[hunk[0]]
      let lastBlock = blocks[hunk[hunk.count - 1]]
      let from = max(0, firstBlock.first - context)
      let to = min(lineCount - 1, lastBlock.last + context)
      var body: [UInt8] = []
      var oldCount = 0
      var newCount = 0
      var position = from
      func emit(_ prefix: UInt8, _ line: ArraySlice<UInt8>) {
        body.append(prefix)
        body += line
        if line.last != UInt8(ascii: "\n") && line.last != UInt8(ascii: "\r") {
          body += Array("\n\\ No newline at end of file\n".utf8)
        }
      }
      for index in hunk {
        let block = blocks[index]
        while position < block.first {
          emit(UInt8(ascii: " "), bytes[starts[position]..<lineEnd(position)])
          oldCount += 1
          newCount += 1
          position += 1
        }
        for old in block.first...block.last {
          emit(UInt8(ascii: "-"), bytes[starts[old]..<lineEnd(old)])
          oldCount += 1
        }
        for new in splitLines(newText(of: block, bytes: bytes, starts: starts, end: lineEnd(block.last))) {
          emit(UInt8(ascii: "+"), new[...])
          newCount += 1
        }
        position = block.last + 1
      }
      while position <= to {
        emit(UInt8(ascii: " "), bytes[starts[position]..<lineEnd(position)])
        oldCount += 1
        newCount += 1
        position += 1
      }
      let newFrom = from + blockDeltas[hunk[0]]
      out += Array("@@ -\(range(from, oldCount)) +\(range(newFrom, newCount)) @@\n".utf8)
      out += body
    }
    return out
  }

  /// `start,count` with `start` from 1, as unified diffs number lines (`start` is the line before
  /// an empty range).
  private static func range(_ from: Int, _ count: Int) -> String {
    count == 0 ? "\(from),0" : "\(from + 1),\(count)"
  }

  /// The offsets where lines start; a line ends after `\n`, `\r\n` or a lone `\r`. A file that ends
  /// with a line ending has no empty last line.
  static func lineStarts(_ bytes: [UInt8]) -> [Int] {
    var starts = [0]
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\r"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") {
        index += 1
      }
      if (byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")) && index + 1 < bytes.count {
        starts.append(index + 1)
      }
      index += 1
    }
    return starts
  }

  private static func newText(
    of block: (first: Int, last: Int, edits: [SourceEdit]), bytes: [UInt8], starts: [Int], end: Int
  ) -> [UInt8] {
    var out: [UInt8] = []
    var position = starts[block.first]
    for edit in block.edits {
      out += bytes[position..<edit.range.lowerBound]
      out += edit.replacement
      position = edit.range.upperBound
    }
    out += bytes[position..<max(position, end)]
    return out
  }

  private static func splitLines(_ bytes: [UInt8]) -> [[UInt8]] {
    guard !bytes.isEmpty else { return [] }
    let starts = lineStarts(bytes)
    return starts.indices.map { index in
      Array(bytes[starts[index]..<(index + 1 < starts.count ? starts[index + 1] : bytes.count)])
    }
  }
}
