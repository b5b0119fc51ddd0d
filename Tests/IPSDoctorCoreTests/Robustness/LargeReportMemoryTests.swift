import Testing

@testable import IPSDoctorReport

/// A report of millions of frames is mostly the same few symbols and image names over and over (a
/// deep recursion): read alone, it keeps each repeated text once, as a batch does.
@Suite("Hostile input: memory of very large reports")
struct LargeReportMemoryTests {
  @Test("A report past 4 MiB read alone keeps each repeated symbol once")
  func repeatedSymbolsShared() throws {
    let fixture = try Fixtures.bytes("reports/async-bridge-didreceive-simplified-symbols.ips")
    let factor = 4 * (ReportReader.ownTableSize / fixture.count + 1)
    let bytes = try GrownReportTests.grownJSON(fixture, factor: factor)
    #expect(bytes.count >= ReportReader.ownTableSize)
    let report = try ReportReader.read(bytes)
    let crashed = try #require(report.faultingThread)
    let symbols = report.threads[crashed].frames.compactMap(\.symbol).filter { $0.utf8.count > 15 }
    #expect(symbols.count > 1_000)
    let storages = Set(symbols.compactMap(SharedTextsTests.storage))
    // One string per distinct text (a few more where two texts took turns in a slot).
    #expect(storages.count <= 2 * Set(symbols).count, "\(storages.count) strings for \(Set(symbols).count) texts")
  }
}
