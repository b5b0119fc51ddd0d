import Foundation
import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorOutput
@testable import IPSDoctorSupport

/// The packed input list must give the same files, in the same order, as the list of ``InputItem``
/// it replaced: command-line order, each folder depth-first with its entries sorted by bytes.
@Suite struct InputDiscoveryTests {
  @Test func ordersFilesDepthFirstWithEachFolderSortedByBytes() throws {
    let root = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(root) }
    let manager = FileManager.default
    for folder in ["b", "a/z", "a/Y"] {
      try manager.createDirectory(
        at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    // "B.ips" < "a" < "b" < "c.crash" < "é.ips" by bytes ("Y" < "z" too): uppercase first, UTF-8 last.
    for file in [
      "c.crash", "B.ips", "é.ips", "notes.txt", ".hidden.ips", "b/2.ips", "b/10.ips", "a/z/x.ips",
      "a/Y/w.ips", "a/a.ips",
    ] {
      // Written with the name's own bytes: Foundation would store "é" decomposed on macOS.
      let fd = open(root.path + "/" + file, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      try #require(fd >= 0)
      _ = write(fd, "{}", 2)
      close(fd)
    }
    let named = root.appendingPathComponent("b/2.ips").path  // named first, so found once, first
    let discovery = InputDiscovery(paths: [named, root.path, "-"])
    let displays = discovery.items.map(\.display)
    let base = root.path
    #expect(
      displays == [
        named, "\(base)/B.ips", "\(base)/a/Y/w.ips", "\(base)/a/a.ips", "\(base)/a/z/x.ips",
        "\(base)/b/10.ips", "\(base)/c.crash", "\(base)/notes.txt", "\(base)/é.ips", "<stdin>",
      ])
    #expect(discovery.items.map(\.mustSniff) == [false, false, false, false, false, false, false, true, false, false])
    #expect(discovery.inputs.count == 10)
    #expect(discovery.inputs.containsStandardInput)
    #expect(discovery.items.last?.source == .standardInput)
    #expect(discovery.items.first?.source == .file(PathName(named)))
    #expect(discovery.notices.isEmpty)
  }

  @Test func keepsAFolderNamedTwiceOnce() throws {
    let root = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(root) }
    try Data("{}".utf8).write(to: root.appendingPathComponent("one.ips"))
    let discovery = InputDiscovery(paths: [root.path, root.path + "/", root.path + "/one.ips"])
    #expect(discovery.items.map(\.display) == [root.path + "/one.ips"])
  }

  @Test func packedListingSortsLikeAnArrayOfNames() {
    let names: [[UInt8]] = [
      Array("b".utf8), Array("a".utf8), [0xFF, 0x41], Array("ab".utf8), Array("B".utf8), [0xC3, 0xA9],
    ]
    var listing = DirectoryListing()
    for name in names { listing.append(name) }
    listing.sort()
    let sorted = (0..<listing.count).map { Array(listing[$0]) }
    #expect(sorted == names.sorted { $0.lexicographicallyPrecedes($1) })
  }

  @Test func spoolKeepsCharactersSplitAcrossReadChunks() throws {
    let root = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(root) }
    // Enough sections to spill several times; "é" and "—" land on every byte offset modulo 64 KB.
    let spool = Spool(directory: root.path)
    var expected = ""
    for index in 0..<40_000 {
      let section = "é\(index) — \(String(repeating: "x", count: index % 7))\n"
      expected += section
      spool.write(section)
    }
    #expect(spool.hasSpilled)
    var written = ""
    let out = TextOutput { text in
      written += text
      return true
    }
    spool.drain(into: out)
    out.flush()
    #expect(written == expected)
  }

  /// The spool read back through a bytes sink (what the CLI's streams take) gives the same bytes,
  /// in the same order after text written before the drain, and every chunk handed on is whole
  /// UTF-8.
  @Test func spoolDrainsThroughTheBytesSink() throws {
    let root = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(root) }
    let spool = Spool(directory: root.path)
    var expected = [UInt8]("table\n".utf8)
    for index in 0..<40_000 {
      let section = "é\(index) — \(String(repeating: "x", count: index % 7))\n"
      expected += section.utf8
      spool.write(section)
    }
    #expect(spool.hasSpilled)
    var written: [UInt8] = []
    var chunksWholeUTF8 = true
    let out = TextOutput(
      sink: { text in
        written += text.utf8
        return true
      },
      bytesSink: { bytes in
        chunksWholeUTF8 = chunksWholeUTF8 && Spool.completeUTF8Prefix(Array(bytes)[...]) == bytes.count
        written += bytes
        return true
      })
    out.write("table\n")
    spool.drain(into: out)
    out.flush()
    #expect(written == expected)
    #expect(chunksWholeUTF8)
  }

  /// Lines written one by one give what the joined section gave, spilled or not, for no lines,
  /// empty lines and multi-byte text.
  @Test func spoolWritesLinesAsTheJoinedSection() throws {
    let root = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(root) }
    let samples: [[String]] = [
      [], [""], ["a"], ["", "b", ""], ["é — x", "", "→ y"], [String(repeating: "long — line ", count: 12)],
    ]
    for count in [3, 9_000] {
      let byLines = Spool(directory: root.path)
      let joined = Spool(directory: root.path)
      for index in 0..<count {
        let lines = samples[index % samples.count]
        byLines.write(lines: lines, leadingLineFeed: index > 0)
        joined.write((index > 0 ? "\n" : "") + PlainText.joinedLines(lines))
      }
      #expect(byLines.hasSpilled == (count > 3))
      var first = "", second = ""
      let outFirst = TextOutput { text in
        first += text
        return true
      }
      let outSecond = TextOutput { text in
        second += text
        return true
      }
      byLines.drain(into: outFirst)
      joined.drain(into: outSecond)
      outFirst.flush()
      outSecond.flush()
      #expect(first == second)
    }
  }

  @Test(arguments: [
    ([UInt8]("abc".utf8), 3), ([0x61, 0xC3], 1), ([0x61, 0xC3, 0xA9], 3), ([0xE2, 0x80], 0),
    ([0xE2, 0x80, 0x94], 3), ([0x61, 0xF0, 0x9F, 0x98], 1), ([0xF0, 0x9F, 0x98, 0x80], 4), ([0x80], 1),
  ])
  func completeUTF8Prefix(bytes: [UInt8], expected: Int) {
    #expect(Spool.completeUTF8Prefix(bytes[...]) == expected)
  }
}
