import Foundation
import Testing

@testable import IPSDoctorCheck
@testable import IPSDoctorDiagnosis

/// `check --fix`: each family's fixture in `Fixtures/swift-fix/` is rewritten into the golden diff
/// in `Fixtures/swift-fix/golden/`, the result has no finding and is its own fix, and it type-checks
/// against the stub SDK modules with the rewritten method as the requirement's witness.
@Suite struct CheckFixTests {
  static let families = [
    "usernotifications", "webkit", "pushkit", "uiapplication-delegate", "scene-delegate", "intents",
  ]
  static let record = ProcessInfo.processInfo.environment["IPS_DOCTOR_RECORD"] == "1"

  /// Scans `files` together and fixes the findings of the first (errors, or all with `warnings`).
  static func fix(_ files: [(display: String, bytes: [UInt8])], warnings: Bool = true) -> SourceFix {
    var checker = SourceChecker()
    for file in files { checker.add(.init(display: file.display, bytes: file.bytes)) }
    let findings = checker.result().findings.filter {
      $0.file == files[0].display && (warnings || $0.severity == .error)
    }
    return SourceFix.fix(files[0].bytes, findings: findings, checker: checker)
  }

  static func fix(_ source: String, warnings: Bool = true) -> SourceFix {
    fix([("a.swift", Array(source.utf8))], warnings: warnings)
  }

  @Test(arguments: families)
  func goldenDiffAndNoFindingAfterwards(_ family: String) throws {
    let path = "Fixtures/swift-fix/\(family).swift"
    let bytes = try Fixtures.bytes("swift-fix/\(family).swift")
    let fix = Self.fix([(path, bytes)])
    #expect(fix.refusals.isEmpty, "\(fix.refusals)")
    #expect(!fix.changes.isEmpty)
    let diff = fix.diff(path: path)
    let golden = Fixtures.url("swift-fix/golden/\(family).diff")
    if Self.record {
      try Data(diff).write(to: golden)
    } else {
      #expect(
        String(decoding: diff, as: UTF8.self)
          == String(decoding: try Fixtures.bytes("swift-fix/golden/\(family).diff"), as: UTF8.self))
    }
    // Checked again: nothing to report, nothing to rewrite.
    let again = SourceChecker().check([.init(display: path, bytes: fix.fixed)])
    #expect(again.findings.isEmpty, "\(again.findings.map(\.message))")
    let twice = Self.fix([(path, fix.fixed)])
    #expect(twice.fixed == fix.fixed)
    #expect(twice.changes.isEmpty)
  }

  @Test(.enabled(if: SDKStubCompiler.swiftc != nil, "swiftc is not on PATH"), arguments: families)
  func theFixedFileTypeChecksWithTheRewriteAsWitness(_ family: String) throws {
    let bytes = try Fixtures.bytes("swift-fix/\(family).swift")
    let fix = Self.fix([("\(family).swift", bytes)])
    let after = try SDKStubCompiler.typecheck(fix.fixed, name: "\(family).swift")
    #expect(after.errors.isEmpty, "\(after.text)")
    #expect(after.status == 0)
    // No warning either, but the stubs' own for requirements the fixture does not implement.
    let warnings = after.lines(containing: ": warning: ").filter { !$0.contains("deprecated default implementation") }
    #expect(warnings.isEmpty, "\(after.text)")
    let before = try SDKStubCompiler.typecheck(bytes, name: "\(family).swift")
    for change in fix.changes {
      let fallback = "deprecated default implementation is used to satisfy instance method '\(change.completion)'"
      #expect(after.lines(containing: fallback).isEmpty, "\(after.text)")
      // The check can fail: before the rewrite, the async method is no witness of the requirement.
      #expect(!before.lines(containing: fallback).isEmpty || !before.errors.isEmpty, "\(before.text)")
    }
  }

  @Test func lineEndingsAndIndentationFollowTheFile() throws {
    let fix = Self.fix([("s.swift", try Fixtures.bytes("swift-fix/scene-delegate.swift"))])
    let text = String(decoding: fix.fixed, as: UTF8.self)
    #expect(!text.replacing("\r\n", with: "").contains("\n"))
    #expect(
      text.contains(
        "\r\n\t\tTask { @MainActor in\r\n\t\t\tlet result = await body()\r\n\t\t\tcompletionHandler(result)\r\n"))
  }

  @Test func theHandlerIsCalledOnceAfterTheHelperOnMain() {
    let fix = Self.fix(
      """
      final class D: UNUserNotificationCenterDelegate {
        func userNotificationCenter(_ c: UNUserNotificationCenter, willPresent n: UNNotification) async -> UNNotificationPresentationOptions {
          if n.isEmpty { return [] }
          return [.banner]
        }
      }
      """)
    let text = String(decoding: fix.fixed, as: UTF8.self)
    #expect(
      text.contains(
        """
            nonisolated(unsafe) let body = { await self.userNotificationCenterAsync(c, willPresent: n) }
            nonisolated(unsafe) let completionHandler = completionHandler
            Task { @MainActor in
              let result = await body()
              completionHandler(result)
            }
        """))
    #expect(text.components(separatedBy: "completionHandler(").count == 2)
    #expect(
      text.contains(
        "private func userNotificationCenterAsync(_ c: UNUserNotificationCenter, willPresent n: UNNotification) async -> UNNotificationPresentationOptions {\n    if n.isEmpty { return [] }"
      ))
  }

  /// An actor's method, or one of a type isolated to another global actor, becomes `nonisolated`
  /// (a synchronous witness of a nonisolated requirement must be); the helper stays isolated.
  @Test(.enabled(if: SDKStubCompiler.swiftc != nil, "swiftc is not on PATH"))
  func actorsAndOtherGlobalActorsTypeCheck() throws {
    let source = """
      import UserNotifications

      @globalActor actor DatabaseActor { static let shared = DatabaseActor() }

      @DatabaseActor
      final class DatabaseDelegate: UNUserNotificationCenterDelegate {
          var seen = 0
          func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
              seen += 1
          }
          func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async -> UNNotificationPresentationOptions {
              seen > 1 ? [] : [.banner]
          }
      }

      actor NotificationActor: UNUserNotificationCenterDelegate {
          var presented = 0
          func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async -> UNNotificationPresentationOptions {
              presented += 1
              return presented > 1 ? [] : [.banner]
          }
          func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {}
      }

      """
    let fix = Self.fix(source)
    #expect(fix.changes.count == 4, "\(fix.refusals)")
    let text = String(decoding: fix.fixed, as: UTF8.self)
    #expect(text.contains("    nonisolated func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive"))
    #expect(
      text.contains("    private func userNotificationCenterAsync(_ center: UNUserNotificationCenter, didReceive"))
    let output = try SDKStubCompiler.typecheck(fix.fixed, name: "actors.swift")
    #expect(output.status == 0, "\(output.text)")
    #expect(output.lines(containing: "warning:").isEmpty, "\(output.text)")
  }

  /// Cut anywhere, or with bytes thrown in, a file is fixed or refused without a trap, and what
  /// comes out scans again: 60 cuts a file in a full sweep, 15 otherwise.
  @Test func truncatedAndDamagedSourcesNeverTrap() throws {
    var sources = Self.families.map { "swift-fix/\($0).swift" }
    sources += Fixtures.files(in: "swift", extensions: ["swift"])
    let cuts = Sweeps.size(60, sample: 15)
    for name in sources {
      let bytes = try Fixtures.bytes(name)
      for cut in stride(from: 0, through: bytes.count, by: max(1, bytes.count / cuts)) {
        for damaged in [Array(bytes[..<cut]), Array(bytes[..<cut]) + [0x7D, 0x28, 0x22] + bytes[cut...]] {
          let fix = Self.fix([(name, damaged)])
          _ = SwiftDeclarationScanner.scan(fix.fixed)
          if fix.changes.isEmpty { #expect(fix.fixed == damaged) }
        }
      }
    }
  }

  /// docs/check.md shows the rewrite of the founding method: it is what the rewrite writes.
  @Test func theDocumentedRewriteIsTheRewrite() throws {
    let docs = String(
      decoding: try Data(contentsOf: Fixtures.root.appendingPathComponent("docs/check.md")), as: UTF8.self)
    let intro = try #require(
      docs.range(of: "The rewrite of `func userNotificationCenter(_:didReceive:) async`:\n\n```swift\n"))
    let end = try #require(docs.range(of: "\n```\n", range: intro.upperBound..<docs.endIndex))
    let documented = String(docs[intro.upperBound..<end.lowerBound])
    let source = """
      final class D: UNUserNotificationCenterDelegate {
      func userNotificationCenter(
          _ center: UNUserNotificationCenter,
          didReceive response: UNNotificationResponse
      ) async {
          // the original body, byte for byte
      }
      }

      """
    let fix = Self.fix(source)
    #expect(
      String(decoding: fix.fixed, as: UTF8.self) == "final class D: UNUserNotificationCenterDelegate {\n" + documented
        + "\n}\n")
  }

  // MARK: Refusals: no edit, and the reason.

  static func expectRefused(_ fix: SourceFix, because reason: String, source: [UInt8]) {
    #expect(fix.changes.isEmpty)
    #expect(fix.fixed == source)
    #expect(fix.refusals.count == 1)
    #expect(fix.refusals.first?.reason.contains(reason) == true, "\(fix.refusals)")
  }

  static let delegateHeader = "final class D: UNUserNotificationCenterDelegate {\n"

  @Test func refusedWhenCalledAsAsyncInAnotherFile() {
    let delegate = Array(
      (Self.delegateHeader
        + "  func userNotificationCenter(_ c: UNUserNotificationCenter, didReceive r: UNNotificationResponse) async {}\n}\n")
        .utf8)
    let caller = Array(
      "func forward(_ d: D, c: UNUserNotificationCenter, r: UNNotificationResponse) async {\n  await d.userNotificationCenter(c, didReceive: r)\n}\n"
        .utf8)
    let fix = Self.fix([("a.swift", delegate), ("b.swift", caller)])
    Self.expectRefused(fix, because: "is called as the async method in b.swift", source: delegate)
  }

  @Test func refusedWhenItOverrides() {
    let source =
      "final class D: Base, UNUserNotificationCenterDelegate {\n  override func userNotificationCenter(_ c: UNUserNotificationCenter, didReceive r: UNNotificationResponse) async {}\n}\n"
    Self.expectRefused(Self.fix(source), because: "overrides a superclass method", source: Array(source.utf8))
  }

  @Test func refusedWhenOpen() {
    let source =
      "open class D: UNUserNotificationCenterDelegate {\n  open func userNotificationCenter(_ c: UNUserNotificationCenter, didReceive r: UNNotificationResponse) async {}\n}\n"
    Self.expectRefused(Self.fix(source), because: "it is open", source: Array(source.utf8))
  }

  @Test func refusedWhenObjCNamedDifferently() throws {
    let bytes = try Fixtures.bytes("swift/objc-renamed-method.swift")
    Self.expectRefused(Self.fix([("r.swift", bytes)]), because: "is named @objc(", source: bytes)
  }

  @Test(arguments: ["print(#function)", "log(#line)", "#log(\"tapped\")"])
  func refusedWhenTheBodyIsLocationSensitive(_ statement: String) {
    let source =
      Self.delegateHeader
      + "  func userNotificationCenter(_ c: UNUserNotificationCenter, didReceive r: UNNotificationResponse) async {\n    \(statement)\n  }\n}\n"
    Self.expectRefused(Self.fix(source), because: "its body uses #", source: Array(source.utf8))
  }

  @Test func refusedWhenTheScannerSkippedCodeInTheDeclaration() {
    let source =
      Self.delegateHeader
      + "  func userNotificationCenter(_ c: UNUserNotificationCenter, didReceive r: UNNotificationResponse) async {\n    let x = 1 \u{1} + 2\n  }\n}\n"
    Self.expectRefused(Self.fix(source), because: "the scanner skipped code", source: Array(source.utf8))
  }

  @Test func refusedWhenItThrows() {
    let source =
      Self.delegateHeader
      + "  func userNotificationCenter(_ c: UNUserNotificationCenter, didReceive r: UNNotificationResponse) async throws {}\n}\n"
    Self.expectRefused(Self.fix(source), because: "it throws", source: Array(source.utf8))
  }

  // MARK: The real sources

  /// The manifest rows of `../shared/swift-sources` with at least one finding a correct scanner
  /// reports.
  static let sharedPositives: [(file: String, label: String)] = {
    guard let base = Fixtures.shared?.appendingPathComponent("swift-sources"),
      let text = try? String(contentsOf: base.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
    else { return [] }
    return text.split(separator: "\n").dropFirst().compactMap { line in
      let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard columns.count > 6, columns[5] == "positive" || columns[5] == "mixed" else { return nil }
      return (columns[0], columns[5])
    }
  }()

  @Test(.enabled(if: !sharedPositives.isEmpty, "../shared/swift-sources is not beside the checkout"))
  func everyPositiveRealSourceIsFixedOnlyInItsMethods() throws {
    let base = try #require(Fixtures.shared?.appendingPathComponent("swift-sources"))
    for (file, _) in Self.sharedPositives {
      let bytes = [UInt8](try Data(contentsOf: base.appendingPathComponent(file)))
      let fix = Self.fix([(file, bytes)], warnings: false)
      #expect(!fix.changes.isEmpty, "\(file): \(fix.refusals)")
      let again = SourceChecker().check([.init(display: file, bytes: fix.fixed)])
      #expect(!again.findings.contains { $0.severity == .error }, "\(file): \(again.findings.map(\.message))")
      // Every edit lies between a rewritten method's first attribute and its body's `{`.
      let declarations = SwiftDeclarationScanner.scan(bytes)
      let spans = fix.changes.compactMap { change in
        declarations.functions.first { $0.line == change.line && $0.column == change.column }?.layout
      }.map { $0.start...$0.bodyOpen }
      #expect(spans.count == fix.changes.count)
      for edit in fix.edits {
        #expect(
          spans.contains { $0.contains(edit.range.lowerBound) && $0.contains(edit.range.upperBound) },
          "\(file): an edit at \(edit.range) is outside the rewritten methods")
      }
      #expect(Self.fix([(file, fix.fixed)], warnings: false).changes.isEmpty, "\(file): not idempotent")
    }
  }

  /// The real sources need their apps' other files, so they cannot type-check alone: the rewrite
  /// must add no error the original does not have (compared without locations).
  @Test(
    .enabled(if: !sharedPositives.isEmpty, "../shared/swift-sources is not beside the checkout"),
    .enabled(if: SDKStubCompiler.swiftc != nil, "swiftc is not on PATH"))
  func theRewriteAddsNoTypeErrorToARealSource() throws {
    let base = try #require(Fixtures.shared?.appendingPathComponent("swift-sources"))
    func messages(_ output: SDKStubCompiler.Output) -> Set<String> {
      Set(output.errors.map { line in String(line[line.range(of: ": error: ")!.upperBound...]) })
    }
    for (file, _) in Self.sharedPositives {
      let bytes = [UInt8](try Data(contentsOf: base.appendingPathComponent(file)))
      let fix = Self.fix([(file, bytes)], warnings: false)
      let before = messages(try SDKStubCompiler.typecheck(bytes, name: "source.swift"))
      let after = messages(try SDKStubCompiler.typecheck(fix.fixed, name: "source.swift"))
      #expect(after.subtracting(before).isEmpty, "\(file): \(after.subtracting(before).sorted())")
    }
  }
}
