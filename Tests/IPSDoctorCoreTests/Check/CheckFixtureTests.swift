import Foundation
import Testing

@testable import IPSDoctorCheck
@testable import IPSDoctorDiagnosis

/// The fixtures in `Fixtures/swift/` mark each expected finding with `// check: <severity>` on
/// the line of its `func`; every other line must have none.
@Suite struct CheckFixtureTests {
  static let fixtures = Fixtures.files(in: "swift", extensions: ["swift"])

  static func expected(in text: String) -> [Int: Severity] {
    var expected: [Int: Severity] = [:]
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      guard let marker = line.range(of: "// check: ") else { continue }
      let word = line[marker.upperBound...].prefix { $0.isLetter }
      expected[number + 1] = Severity(rawValue: String(word))
    }
    return expected
  }

  @Test(arguments: fixtures)
  func findingsMatchTheMarkers(_ fixture: String) throws {
    let bytes = try Fixtures.bytes(fixture)
    let result = SourceChecker().check([.init(display: fixture, bytes: bytes)])
    var found: [Int: Severity] = [:]
    for finding in result.findings { found[finding.line] = finding.severity }
    let expected = Self.expected(in: String(decoding: bytes, as: UTF8.self))
    #expect(!expected.isEmpty || fixture.contains("none"), "\(fixture) marks no finding")
    #expect(found == expected, "\(fixture): notes \(result.notes)")
  }

  @Test func everyFixtureIsScannedWithoutSkips() throws {
    for fixture in Self.fixtures {
      let declarations = SwiftDeclarationScanner.scan(try Fixtures.bytes(fixture))
      #expect(declarations.notes.isEmpty, "\(fixture): \(declarations.notes)")
    }
  }

  @Test func defaultMainActorIsolationSilencesPlainTypes() throws {
    let bytes = try Fixtures.bytes("swift/founding-crash-plain-class.swift")
    let result = SourceChecker(defaultMainActor: true).check([.init(display: "a.swift", bytes: bytes)])
    #expect(result.findings.isEmpty)
  }

  @Test func anExtensionSeesItsTypeInAnotherFile() {
    let type = Array("@MainActor class Delegate: NSObject {}\n".utf8)
    let extensionFile = Array(
      """
      extension Delegate: UNUserNotificationCenterDelegate {
        func userNotificationCenter(_ c: UNUserNotificationCenter, didReceive r: UNNotificationResponse) async {}
      }
      """.utf8)
    let alone = SourceChecker().check([.init(display: "b.swift", bytes: extensionFile)])
    #expect(alone.findings.map(\.severity) == [.warning])
    let together = SourceChecker().check([
      .init(display: "a.swift", bytes: type), .init(display: "b.swift", bytes: extensionFile),
    ])
    #expect(together.findings.isEmpty)
  }
}

@Suite struct SwiftLexerTests {
  func values(_ source: String) -> [String] {
    SwiftLexer(Array(source.utf8)).tokens.map { $0.kind == .literal ? "<lit>" : $0.value }
  }

  @Test func nestedBlockCommentsAreOneComment() {
    #expect(values("a /* b /* c */ d */ e") == ["a", "e"])
  }

  @Test func stringFormsAreOneLiteral() {
    #expect(values(#"x "a\"b" y"#) == ["x", "<lit>", "y"])
    #expect(values(##"x #"a"b\(c"# y"##) == ["x", "<lit>", "y"])
    #expect(values(##"x #"\#("}")"# y"##) == ["x", "<lit>", "y"])
    #expect(values(#"x "\(f("}", ")"))" y"#) == ["x", "<lit>", "y"])
    #expect(values("x \"\"\"\n a \"\" \\\"\"\" b\n \"\"\" y") == ["x", "<lit>", "y"])
    #expect(values("x #/ \" /# y") == ["x", "<lit>", "y"])
    #expect(values(##"x #""""# y #""x""# z"##) == ["x", "<lit>", "y", "<lit>", "z"])
    #expect(values("x #\"\"\"\n a \"# b\n \"\"\"# y") == ["x", "<lit>", "y"])
  }

  @Test func unterminatedInputIsNotedNotFatal() {
    let lexer = SwiftLexer(Array("a \"open\nb /* never closed".utf8))
    #expect(lexer.tokens.map(\.value).contains("b"))
    #expect(lexer.notes.count == 2)
  }

  @Test func functionSignatures() {
    let source = """
      @available(iOS 15, *) public final class C<T: Equatable>: @preconcurrency P, Q where T: Hashable {
        @MainActor nonisolated(unsafe) static func f<U>(_ a: [String: Int] = [:], b c: (Int) -> Void, d: Dictionary<A, B>) async throws(E) -> (Int, String?) where U: P {}
        func g() -> Int
        func h()
      }
      """
    let scanned = SwiftDeclarationScanner.scan(Array(source.utf8))
    #expect(scanned.types.count == 1)
    #expect(scanned.types[0].name == "C")
    #expect(scanned.types[0].attributes == ["available"])
    #expect(scanned.types[0].inherited.map(\.name) == ["P", "Q"])
    #expect(scanned.types[0].inherited[0].attributes == ["preconcurrency"])
    let f = scanned.functions[0]
    #expect(f.swiftName == "f(_:b:d:)")
    #expect(f.parameterTypes == ["[String: Int]", "(Int) -> Void", "Dictionary<A, B>"])
    #expect(f.attributes == ["MainActor"])
    #expect(f.modifiers == ["nonisolated", "static"])
    #expect(f.isAsync)
    #expect(f.returnType == "(Int, String?)")
    #expect(f.line == 2)
    #expect(f.enclosingType == 0)
    #expect(scanned.functions[1].returnType == "Int")
    #expect(!scanned.functions[1].hasBody)
    #expect(scanned.functions.map(\.swiftName) == ["f(_:b:d:)", "g()", "h()"])
  }

  @Test func globMatching() {
    #expect(Glob.matches("*Tests*", "Sources/AppTests/X.swift"))
    #expect(Glob.matches("*.generated.swift", "a/b.generated.swift"))
    #expect(!Glob.matches("Pods", "Podsfile"))
    #expect(Glob.matches("a?c", "abc"))
  }
}
