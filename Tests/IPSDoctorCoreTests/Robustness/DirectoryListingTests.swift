import Foundation
import Testing

@testable import IPSDoctorSupport

/// A folder's names are read in place from each directory record, whatever their length: a record
/// is only as long as its name, so nothing past it may be read.
@Suite struct DirectoryListingTests {
  @Test func namesOfEveryLengthComeBackExactly() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    // Every length a name can have (255 bytes), some not ASCII, and enough records to fill the C
    // library's buffer several times.
    var expected: [String] = []
    for length in 1...255 {
      expected.append(String(repeating: "n", count: length - 1) + String(length % 10))
    }
    for index in 0..<1_500 { expected.append("report-\(index)-é漢.ips") }
    for name in expected {
      #expect(FileManager.default.createFile(atPath: directory.appendingPathComponent(name).path, contents: nil))
    }
    guard case .success(let listing) = POSIX.directoryEntries(PathName(directory.path)) else {
      Issue.record("the folder could not be listed")
      return
    }
    let names = (0..<listing.count).map { String(decoding: listing[$0], as: UTF8.self) }
    #expect(names == expected.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
  }
}
