import IPSDoctorDiagnosis
import IPSDoctorSupport

/// `ips-doctor check` without the command line: scans Swift sources and returns the `async`
/// completion-handler delegate methods the compiler bridges off the main thread.
///
/// All files are scanned before any is judged, so an extension in one file sees the type's
/// declaration (its `@MainActor`, superclass and conformances) in another.
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

  package init(defaultMainActor: Bool = false, mainActorDefaultSeenIn: String? = nil) {
    self.defaultMainActor = defaultMainActor
    self.mainActorDefaultSeenIn = mainActorDefaultSeenIn
  }

  package func check(_ sources: [Source]) -> Result {
    let scanned = sources.map { SwiftDeclarationScanner.scan($0.bytes) }
    let resolver = IsolationResolver(
      files: scanned, defaultMainActor: defaultMainActor, mainActorDefaultSeenIn: mainActorDefaultSeenIn)
    var findings: [CheckFinding] = []
    var notes: [String] = []
    for (source, file) in zip(sources, scanned) {
      notes += file.notes.map { source.display + ":" + $0 }
      for function in file.functions where function.isAsync && function.hasBody {
        guard let typeIndex = function.enclosingType else { continue }
        let enclosing = file.types[typeIndex]
        guard !resolver.isProtocol(enclosing) else { continue }
        for method in CompletionHandlerDelegateTable.entries(for: function) {
          let place = "\(source.display):\(function.line):\(function.column)"
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
              file: source.display, line: function.line, column: function.column, severity: severity,
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
