import Foundation
import Testing

/// The README's layer map is the targets' real import lists: a new import shows up here first.
@Suite("Layer map")
struct LayerMapTests {
  /// `import IPSDoctor…` lines in a target's sources, as short names ("Report" for IPSDoctorReport).
  static func imports(ofTarget target: String) throws -> Set<String> {
    let folder = Fixtures.root.appendingPathComponent("Sources/\(target)")
    var found: Set<String> = []
    let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
    while let file = files?.nextObject() as? URL {
      guard file.pathExtension == "swift" else { continue }
      for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("import IPSDoctor") else { continue }
        found.insert(String(trimmed.dropFirst("import IPSDoctor".count)))
      }
    }
    return found
  }

  @Test("Each row of the README's table lists exactly what its target imports")
  func readmeTableMatchesImports() throws {
    let readme = try String(contentsOf: Fixtures.root.appendingPathComponent("README.md"), encoding: .utf8)
    let rows = readme.split(separator: "\n").filter { $0.hasPrefix("  | ") && $0.contains("| `") }
    var targets: [String] = []
    for row in rows {
      let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
      guard cells.count == 3, let target = cells[1].split(separator: "`").first.map(String.init) else { continue }
      targets.append(target)
      let listed = cells[2]
      let actual = try Self.imports(ofTarget: target)
      if listed == "all of the above" {
        let below = Set(targets.dropLast().compactMap { $0.hasPrefix("IPSDoctor") ? String($0.dropFirst(9)) : nil })
        #expect(actual == below, "\(target)")
      } else if listed == "—" {
        #expect(actual.isEmpty, "\(target)")
      } else {
        let names = Set(listed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(actual == names, "\(target): the README says \(listed)")
      }
    }
    let sources = try FileManager.default.contentsOfDirectory(
      atPath: Fixtures.root.appendingPathComponent("Sources").path)
    #expect(Set(targets) == Set(sources.filter { !$0.hasPrefix(".") }), "every target has a row")
  }
}
