import IPSDoctorDiagnosis
import IPSDoctorSupport

/// `check --fix` for one file: rewrites the chosen findings' methods into their completion-handler
/// form (``CompletionHandlerRewrite``) or says why not.
///
/// The file is scanned again from the bytes about to be rewritten and each finding is found there
/// by its line, column and name, so an edit never lands on offsets read from other bytes. A method
/// is refused, and the file left as it is for it, when it is called or referenced as the `async`
/// method in any scanned file, or when the scanner noted code it skipped inside the declaration.
package struct SourceFix {
  /// One method rewritten.
  package struct Change: Sendable, Equatable {
    package var line: Int
    package var column: Int
    /// `PushNotificationDelegate.userNotificationCenter(_:didReceive:)`.
    package var method: String
    /// The completion-handler form it became.
    package var completion: String
    /// The private helper that holds the body.
    package var helper: String
  }

  /// One method left as it was, and why.
  package struct Refusal: Sendable, Equatable {
    package var line: Int
    package var column: Int
    package var method: String
    package var reason: String
  }

  /// The file with every change applied (equal to the input when nothing changed).
  package var fixed: [UInt8]
  package var changes: [Change] = []
  package var refusals: [Refusal] = []
  /// The edits, by offset in the input.
  var edits: [SourceEdit] = []
  /// The input.
  private var original: [UInt8] = []

  /// The changes as a unified diff of the file at `path` (relative to where it is applied).
  package func diff(path: String) -> [UInt8] {
    UnifiedDiff.make(path: path, bytes: original, edits: edits)
  }

  /// Rewrites `findings` (all in the file `bytes`) found by `checker`.
  package static func fix(_ bytes: [UInt8], findings: [CheckFinding], checker: SourceChecker) -> SourceFix {
    let declarations = SwiftDeclarationScanner.scan(bytes)
    var result = SourceFix(fixed: bytes)
    result.original = bytes
    // The Swift names each type declares, across its extensions in the file.
    var taken: [Substring: Set<String>] = [:]
    for function in declarations.functions {
      guard let type = function.enclosingType else { continue }
      taken[declarations.types[type].simpleName, default: []].insert(CompletionHandlerRewrite.signature(of: function))
    }
    for finding in findings.sorted(by: { ($0.line, $0.column) < ($1.line, $1.column) }) {
      let name = "\(finding.typeName).\(finding.function.swiftName)"
      func refuse(_ reason: String) {
        result.refusals.append(Refusal(line: finding.line, column: finding.column, method: name, reason: reason))
      }
      guard
        let function = declarations.functions.first(where: {
          $0.line == finding.line && $0.column == finding.column && $0.swiftName == finding.function.swiftName
        }), let typeIndex = function.enclosingType, let layout = function.layout
      else {
        refuse("the file changed since it was scanned")
        continue
      }
      if let skipped = declarations.noteLines.first(where: { $0 >= function.line && $0 <= layout.endLine }) {
        refuse("the scanner skipped code it did not understand in the declaration (line \(skipped); see -v)")
        continue
      }
      if let caller = checker.files.first(where: { $0.declarations.calls.contains(function.swiftName) }) {
        refuse("'\(function.swiftName)' is called as the async method in \(caller.display)")
        continue
      }
      let typeName = declarations.types[typeIndex].simpleName
      var context = checker.rewriteContext(for: function, in: declarations.types[typeIndex])
      context.takenNames = taken[typeName] ?? []
      switch CompletionHandlerRewrite.plan(function, method: finding.method, bytes: bytes, context: context) {
      case .refused(let reason):
        refuse(reason)
      case .rewrite(let edits, let helper):
        if let last = result.edits.last, let first = edits.first, first.range.lowerBound < last.range.upperBound {
          refuse("it overlaps another rewritten method")
          continue
        }
        result.edits += edits
        taken[typeName, default: []].insert(CompletionHandlerRewrite.signature(of: function, renamed: helper))
        result.changes.append(
          Change(
            line: finding.line, column: finding.column, method: name,
            completion: finding.method.completion.swiftName, helper: helper))
      }
    }
    result.fixed = SourceEdit.apply(result.edits, to: bytes)
    return result
  }
}

extension SourceChecker {
  /// What the rewrite of `function`, declared directly in `enclosing`, needs to know about its
  /// type: whether it is isolated to an actor other than the main actor. An extension is judged
  /// with its type's primary declaration in the scanned files (the first of that name, as
  /// ``IsolationResolver`` takes it); a primary declaration alone.
  func rewriteContext(
    for function: SwiftFunctionDeclaration, in enclosing: SwiftTypeDeclaration
  ) -> CompletionHandlerRewrite.Context {
    var declarations = [enclosing]
    if enclosing.kind == .extension {
      let primary = files.lazy.flatMap(\.declarations.types).first {
        $0.kind != .extension && $0.kind != .protocol && $0.simpleName == enclosing.simpleName
      }
      if let primary { declarations.append(primary) }
    }
    let otherActor =
      function.attributes.contains(where: IsolationResolver.isOtherGlobalActor)
      || declarations.contains { $0.attributes.contains(where: IsolationResolver.isOtherGlobalActor) }
      || declarations.contains { $0.kind == .actor }
    return CompletionHandlerRewrite.Context(needsNonisolated: otherActor && !function.modifiers.contains("nonisolated"))
  }
}
