import IPSDoctorDiagnosis
import IPSDoctorSupport

/// `ips-doctor check` without the command line: scans Swift sources and returns the `async`
/// completion-handler delegate methods the compiler bridges off the main thread.
///
/// All files are scanned before any is judged, so an extension in one file sees the type's
/// declaration (its `@MainActor`, superclass and conformances) in another. A file is scanned when
/// it is added (``add(_:)``) and its bytes are not kept: what stays of it is its display name,
/// its type declarations, its `async` methods with a body (the only ones a finding or a crash
/// report's bridge frame can name), its calls of the table's method names (which stop a rewrite,
/// see ``SourceFix``) and its notes.
package struct SourceChecker {
  package struct Source {
    /// The file as shown to the user.
    var display: String
    var bytes: [UInt8]

    package init(
      display: String, bytes: [UInt8]
    ) {
      self.display = display
      self.bytes = bytes
    }
  }

  package struct Result {
    package var findings: [CheckFinding]
    /// What was skipped or not reported, as `file:line:column: message` (for `-v`).
    package var notes: [String]
  }

  var defaultMainActor = false
  /// A build setting in the scanned project that makes some module's default isolation the main
  /// actor (`defaultIsolation(MainActor.self)`, `SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor`),
  /// when `--default-isolation` was not given: which module a file belongs to is not known, so
  /// a type that is main-actor only by default is reported at a lower severity.
  package var mainActorDefaultSeenIn: String?

  /// The files added so far, in order: each file's display name and what is kept of its scan.
  private(set) var files: [(display: String, declarations: SwiftFileDeclarations)] = []

  /// How many files were added.
  package var filesScanned: Int { files.count }

  package init(defaultMainActor: Bool = false, mainActorDefaultSeenIn: String? = nil) {
    self.defaultMainActor = defaultMainActor
    self.mainActorDefaultSeenIn = mainActorDefaultSeenIn
  }

  /// Scans `source` and keeps what judging it needs (see the type's comment).
  package mutating func add(_ source: Source) {
    var declarations = SwiftDeclarationScanner.scan(source.bytes)
    declarations.functions = declarations.functions.filter { $0.isAsync && $0.hasBody && $0.enclosingType != nil }
    // Only calls of the table's names can stop a rewrite (``SourceFix``).
    declarations.calls = declarations.calls.filter { call in
      CompletionHandlerDelegateTable.baseNames.contains(call.prefix { $0 != "(" })
    }
    files.append((source.display, declarations))
  }

  /// Adds `sources` and judges every file added.
  package func check(_ sources: [Source]) -> Result {
    var checker = self
    for source in sources { checker.add(source) }
    return checker.result()
  }

  /// The findings of every file added, and the notes.
  package func result() -> Result {
    let resolver = IsolationResolver(
      files: files.map(\.declarations), defaultMainActor: defaultMainActor,
      mainActorDefaultSeenIn: mainActorDefaultSeenIn)
    var findings: [CheckFinding] = []
    var notes: [String] = []
    for (display, file) in files {
      notes += file.notes.map { display + ":" + $0 }
      for function in file.functions where function.isAsync && function.hasBody {
        guard let typeIndex = function.enclosingType else { continue }
        let enclosing = file.types[typeIndex]
        guard !resolver.isProtocol(enclosing) else { continue }
        for method in CompletionHandlerDelegateTable.entries(for: function) {
          let place = "\(display):\(function.line):\(function.column)"
          let conformance = resolver.conformance(of: enclosing, to: method.protocolName)
          if conformance == .no {
            notes.append("\(place): not reported: '\(enclosing.name)' does not conform to \(method.protocolName)")
            continue
          }
          let answer = resolver.isolation(of: function, in: enclosing)
          var severity = method.effect.severity
          var isolation: String
          switch answer {
          case .main(let reason):
            notes.append("\(place): not reported: \(reason)")
            continue
          case .notMain(let reason):
            isolation = reason
          case .sdkDependent(let reason):
            isolation = reason
            severity = .note
          case .unknown(let reason):
            isolation = reason
            severity = Self.lowered(severity)
          }
          if conformance == .unknown {
            isolation += "; the conformance to \(method.protocolName) is not in the scanned files"
            if case .unknown = answer {} else { severity = Self.lowered(severity) }
          }
          findings.append(
            CheckFinding(
              file: display, line: function.line, column: function.column, severity: severity,
              typeName: enclosing.name, function: function, method: method, isolation: isolation))
          break
        }
      }
    }
    return Result(findings: findings, notes: notes)
  }

  static func lowered(_ severity: Severity) -> Severity {
    switch severity {
    case .error: .warning
    case .warning, .note: .note
    }
  }
}
