import IPSDoctorSupport

/// An `EXC_GUARD` exception decoded from its subtype and message, or from the exception code
/// (`[63:61]` guard type, `[60:32]` flavor, `[31:0]` target; xnu `osfmk/kern/exc_guard.h`).
struct GuardException: Sendable {
  package enum Kind: Sendable, Equatable { case machPort, fileDescriptor, user, other(String) }

  var kind: Kind
  /// The violation, e.g. "CLOSE", "INVALID_NAME".
  var violation: String?
  /// The file descriptor or port name.
  var target: UInt64?
  var message: String?
  var evidence: [Evidence]
  /// Decoded from codes without a subtype or message (lower confidence).
  var decodedFromCodes: Bool

  static let fdFlavors: [UInt64: String] = [
    1: "CLOSE", 2: "DUP", 4: "NOCLOEXEC", 8: "SOCKET_IPC", 16: "FILEPORT", 32: "MISMATCH", 64: "WRITE",
  ]
  static let portFlavors: [UInt64: String] = [
    1: "DESTROY", 2: "MOD_REFS", 4: "SET_CONTEXT", 8: "UNGUARDED", 16: "INCORRECT_GUARD",
    32: "IMMOVABLE", 64: "STRICT_REPLY", 128: "MSG_FILTERED", 256: "INVALID_RIGHT",
    512: "INVALID_NAME", 1024: "INVALID_VALUE", 2048: "INVALID_ARGUMENT",
  ]
  static let fdSyscalls = ["close", "dup", "dup2", "fcntl", "fileport_makeport", "sendmsg", "guarded_"]

  init?(_ context: borrowing DiagnosisContext) {
    guard context.exceptionTypeHasPrefix("EXC_GUARD") else { return nil }
    let exception = context.report.exception
    evidence = [Evidence("exception.type", exception?.type ?? "EXC_GUARD")]
    message = exception?.message
    decodedFromCodes = false
    let subtype = exception?.subtype ?? ""
    if subtype.contains("GUARD_TYPE_FD") {
      kind = .fileDescriptor
    } else if subtype.contains("GUARD_TYPE_MACH_PORT") {
      kind = .machPort
    } else if subtype.contains("GUARD_TYPE_USER") {
      kind = .user
    } else if !subtype.isEmpty {
      kind = .other(subtype)
    } else {
      kind = .other("unknown")
    }
    if !subtype.isEmpty { evidence.append(Evidence("exception.subtype", subtype)) }
    if let message {
      evidence.append(Evidence("exception.message", message))
      let word = message.prefix(while: { $0.isUppercase || $0 == "_" })
      if !word.isEmpty { violation = String(word) }
      target =
        (message.numberFollowing("file descriptor ") ?? message.numberFollowing("mach port ")
        ?? message.numberFollowing("port ")).flatMap { UInt64($0) }
    }
    guard let code = Self.firstCode(context) else { return }
    let type = code >> 61
    let flavor = (code >> 32) & 0x1fff_ffff
    let low = code & 0xffff_ffff
    switch (kind, type) {
    case (.other, 1): kind = .machPort; decodedFromCodes = true
    case (.other, 2): kind = .fileDescriptor; decodedFromCodes = true
    case (.other, 3): kind = .user; decodedFromCodes = true
    case (.other, 0) where flavor != 0:
      // Pre-iOS 7 layout (no type bits): flavor in [63:32], file descriptor in [31:0]. Trust it
      // only when the crashed thread is in a file-descriptor system call.
      if let frame = context.crashedThread?.frames.first?.symbol,
        Self.fdSyscalls.contains(where: { frame.hasPrefix($0) })
      {
        kind = .fileDescriptor
        decodedFromCodes = true
        if violation == nil { violation = Self.fdFlavors[flavor] }
        if target == nil { target = low }
      }
      return
    default: break
    }
    if violation == nil {
      switch kind {
      case .fileDescriptor: violation = Self.fdFlavors[flavor]
      case .machPort: violation = Self.portFlavors[flavor]
      default: break
      }
    }
    if target == nil, kind == .fileDescriptor || kind == .machPort, type != 0 { target = low }
    if decodedFromCodes, let codes = exception?.codes { evidence.append(Evidence("exception.codes", codes)) }
  }

  static func firstCode(_ context: DiagnosisContext) -> UInt64? {
    if let first = context.report.exception?.rawCodes.first { return first }
    guard let text = context.report.exception?.codes, let part = text.split(separator: ",").first else { return nil }
    return String.parseUInt64(part)
  }

  /// The crashed thread's top frames and first app frame, for the summary.
  static func stackSentence(_ context: DiagnosisContext, evidence: inout [Evidence]) -> String {
    guard let thread = context.crashedThread else { return "" }
    var text = ""
    let frames = context.topFrames(of: thread, limit: 2)
    if !frames.isEmpty {
      text += " The crashed thread (thread \(thread.index)) was in " + DiagnosisContext.frameList(frames)
      evidence += frames
      if let app = context.firstAppFrame(on: thread), !evidence.contains(app) {
        text += ", called from \(CodeSpan.markdown(app.detail)) (\(app.path))"
        evidence.append(app)
      }
      text += "."
    }
    return text
  }
}
