import IPSDoctorSupport

/// Decides, as the compiler would, whether a method runs on the main actor, from what the
/// scanned files declare. Where the answer depends on something the scan cannot see (a type
/// declared elsewhere, a superclass from another module, the SDK version) it says so.
struct IsolationResolver {
  enum Answer: Equatable {
    /// Main-actor isolated: no finding.
    case main(String)
    /// Certainly not main-actor isolated.
    case notMain(String)
    /// Main-actor isolated only with a recent SDK.
    case sdkDependent(String)
    /// Depends on declarations the scan did not see.
    case unknown(String)
  }

  /// Whether a type conforms to a protocol.
  enum Conformance: Equatable {
    case yes, no, unknown
  }

  let files: [SwiftFileDeclarations]
  /// `--default-isolation main-actor`: the module's default isolation is the main actor.
  let defaultMainActor: Bool
  /// Where the scanned project sets a main-actor default isolation for some module, if it does.
  let mainActorDefaultSeenIn: String?

  /// Protocols declared in the scanned files, by simple name.
  private let protocols: Set<Substring>
  /// Primary declarations (not extensions or protocols) by simple name.
  private let primaries: [Substring: [SwiftTypeDeclaration]]
  /// Extensions by simple name of the extended type.
  private let extensions: [Substring: [SwiftTypeDeclaration]]

  init(files: [SwiftFileDeclarations], defaultMainActor: Bool, mainActorDefaultSeenIn: String? = nil) {
    self.files = files
    self.defaultMainActor = defaultMainActor
    self.mainActorDefaultSeenIn = mainActorDefaultSeenIn
    var primaries: [Substring: [SwiftTypeDeclaration]] = [:]
    var extensions: [Substring: [SwiftTypeDeclaration]] = [:]
    var protocols: Set<Substring> = []
    for file in files {
      for type in file.types {
        switch type.kind {
        case .extension: extensions[type.simpleName, default: []].append(type)
        case .protocol: protocols.insert(type.simpleName)
        default: primaries[type.simpleName, default: []].append(type)
        }
      }
    }
    self.primaries = primaries
    self.extensions = extensions
    self.protocols = protocols
  }

  /// Whether `enclosing` declares or extends a protocol: its methods are requirements or default
  /// implementations, which Objective-C never calls.
  func isProtocol(_ enclosing: SwiftTypeDeclaration) -> Bool {
    if enclosing.kind == .protocol { return true }
    guard enclosing.kind == .extension else { return false }
    let name = enclosing.simpleName
    return protocols.contains(name) || CompletionHandlerDelegateTable.protocols[String(name)] != nil
  }

  static func isOtherGlobalActor(_ attribute: String) -> Bool {
    attribute != "MainActor" && attribute.hasSuffix("Actor")
  }

  /// The isolation of `function`, declared directly in `enclosing`.
  func isolation(of function: SwiftFunctionDeclaration, in enclosing: SwiftTypeDeclaration) -> Answer {
    if function.attributes.contains("MainActor") { return .main("the method is @MainActor") }
    if function.modifiers.contains("nonisolated") { return .notMain("the method is 'nonisolated'") }
    if let actor = function.attributes.first(where: Self.isOtherGlobalActor) {
      return .notMain("the method is isolated to @\(actor), not the main actor")
    }
    var sdkNote: String?
    if enclosing.kind == .extension {
      if enclosing.modifiers.contains("nonisolated") { return .notMain("the extension is 'nonisolated'") }
      if enclosing.attributes.contains("MainActor") { return .main("the extension is @MainActor") }
      if let actor = enclosing.attributes.first(where: Self.isOtherGlobalActor) {
        return .notMain("the extension is isolated to @\(actor), not the main actor")
      }
      for entry in enclosing.inherited {
        if entry.attributes.contains("MainActor") {
          return .main("the extension declares a @MainActor (isolated) conformance to \(entry.name)")
        }
        switch Self.supertypeIsolation(entry.simpleName) {
        case .mainActor:
          return .main("the extension's conformance to @MainActor \(entry.name) isolates its members")
        case .mainActorSince(let sdk):
          sdkNote =
            "built with an SDK older than the \(sdk), \(entry.name) is not @MainActor and neither is the method (with it, the extension's conformance isolates the method)"
        case .none: break
        }
      }
    }
    let typeAnswer: Answer
    if enclosing.kind == .extension {
      if let primary = primary(named: enclosing.name) {
        typeAnswer = typeIsolation(primary, depth: 0)
      } else {
        typeAnswer = .unknown(
          "'\(enclosing.name)' is declared outside the scanned files, so its isolation (@MainActor, a UIKit superclass, a @MainActor protocol) cannot be seen"
        )
      }
    } else {
      typeAnswer = typeIsolation(enclosing, depth: 0)
    }
    switch typeAnswer {
    case .main, .sdkDependent: return typeAnswer
    case .notMain, .unknown:
      if let sdkNote { return .sdkDependent(sdkNote) }
      return typeAnswer
    }
  }

  private static func supertypeIsolation(_ name: Substring) -> CompletionHandlerDelegateMethod.ProtocolIsolation {
    if CompletionHandlerDelegateTable.mainActorSupertypes.contains(String(name)) { return .mainActor }
    return CompletionHandlerDelegateTable.protocols[String(name)] ?? .none
  }

  private func primary(named name: String) -> SwiftTypeDeclaration? {
    let simple = name.split(separator: ".").last ?? Substring(name)
    let candidates = primaries[simple] ?? []
    return candidates.first { $0.name == name } ?? candidates.first
  }

  /// Whether `name` could be a class from elsewhere (not a known protocol or unisolated type).
  private func isUnknownSupertype(_ name: Substring) -> Bool {
    let text = String(name)
    return !CompletionHandlerDelegateTable.nonisolatedSupertypes.contains(text)
      && CompletionHandlerDelegateTable.protocols[text] == nil
      && !CompletionHandlerDelegateTable.mainActorSupertypes.contains(text)
  }

  /// The isolation of a primary type declaration.
  private func typeIsolation(_ type: SwiftTypeDeclaration, depth: Int) -> Answer {
    if type.kind == .actor { return .notMain("'\(type.name)' is an actor, not the main actor") }
    if type.attributes.contains("MainActor") { return .main("'\(type.name)' is @MainActor") }
    if let actor = type.attributes.first(where: Self.isOtherGlobalActor) {
      return .notMain("'\(type.name)' is isolated to @\(actor), not the main actor")
    }
    if type.modifiers.contains("nonisolated") { return .notMain("'\(type.name)' is 'nonisolated'") }
    var sdkNote: String?
    for entry in type.inherited {
      switch Self.supertypeIsolation(entry.simpleName) {
      case .mainActor:
        return .main("'\(type.name)' inherits @MainActor from \(entry.name) in its declaration")
      case .mainActorSince(let sdk):
        sdkNote =
          "built with an SDK older than the \(sdk), \(entry.name) is not @MainActor and neither is '\(type.name)' (with it, the conformance in its declaration isolates the type)"
      case .none: break
      }
    }
    // The superclass: the first entry of a class's inheritance clause, when it is not a protocol
    // the table knows.
    if type.kind == .class, let first = type.inherited.first, isUnknownSupertype(first.simpleName) {
      if depth < 8, let superclass = primary(named: first.name), superclass.kind == .class {
        let inherited = typeIsolation(superclass, depth: depth + 1)
        if case .main(let reason) = inherited {
          return .main("'\(type.name)' inherits from '\(superclass.name)': \(reason)")
        }
        if case .unknown = inherited { return inherited }
      } else if primary(named: first.name) == nil {
        if let sdkNote { return .sdkDependent(sdkNote) }
        if defaultMainActor { return .main("the module's default isolation is the main actor") }
        return .unknown(
          "'\(type.name)' inherits from '\(first.name)', declared outside the scanned files; if that is a @MainActor class (a UIKit class), the method is isolated"
        )
      }
    }
    if let sdkNote { return .sdkDependent(sdkNote) }
    if defaultMainActor && !type.modifiers.contains("nonisolated") {
      return .main("the module's default isolation is the main actor (--default-isolation main-actor)")
    }
    if let setting = mainActorDefaultSeenIn {
      return .unknown(
        "'\(type.name)' has no isolation of its own, and \(setting) makes some module's default isolation MainActor (state it with --default-isolation)"
      )
    }
    return .notMain(
      "'\(type.name)' is not main-actor isolated (assuming the module's default isolation is nonisolated; see --default-isolation)"
    )
  }

  /// Whether the type declared or extended by `enclosing` conforms to `protocolName`.
  func conformance(of enclosing: SwiftTypeDeclaration, to protocolName: String) -> Conformance {
    func declares(_ type: SwiftTypeDeclaration) -> Bool {
      type.inherited.contains { $0.simpleName == protocolName[...] }
    }
    if declares(enclosing) { return .yes }
    let simple = enclosing.simpleName
    if (extensions[simple] ?? []).contains(where: declares) { return .yes }
    var current = enclosing.kind == .extension ? primary(named: enclosing.name) : enclosing
    var depth = 0
    while let type = current, depth < 8 {
      if declares(type) || (extensions[type.simpleName] ?? []).contains(where: declares) { return .yes }
      guard type.kind == .class, let first = type.inherited.first, isUnknownSupertype(first.simpleName) else {
        return .no
      }
      guard let superclass = primary(named: first.name) else { return .unknown }
      current = superclass
      depth += 1
    }
    return .unknown
  }
}
