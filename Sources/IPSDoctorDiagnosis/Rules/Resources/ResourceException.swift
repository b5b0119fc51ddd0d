import IPSDoctorSupport

/// An `EXC_RESOURCE` exception: which resource, whether it was fatal, and the limit message.
struct ResourceException: Sendable {
  package enum Kind: String, Sendable {
    case cpu = "CPU", wakeups = "WAKEUPS", memory = "MEMORY", io = "IO", threads = "THREADS", ports = "PORTS"
  }

  var kind: Kind
  var subtype: String
  var message: String?
  var fatal: Bool
  var evidence: [Evidence]

  init?(_ context: borrowing DiagnosisContext) {
    guard context.exceptionTypeHasPrefix("EXC_RESOURCE") else { return nil }
    let exception = context.report.exception
    let subtype = exception?.subtype ?? ""
    var kind: Kind?
    for candidate in [Kind.cpu, .wakeups, .memory, .io, .threads, .ports] where subtype.hasPrefix(candidate.rawValue) {
      kind = candidate
      break
    }
    if kind == nil, let code = exception?.rawCodes.first {
      kind = [1: Kind.cpu, 2: .wakeups, 3: .memory, 4: .io, 5: .threads, 6: .ports][code >> 61]
    }
    guard let kind else { return nil }
    self.kind = kind
    self.subtype = subtype.isEmpty ? kind.rawValue : subtype
    message = exception?.message
    evidence = [Evidence("exception.type", exception?.type ?? "EXC_RESOURCE")]
    if !subtype.isEmpty { evidence.append(Evidence("exception.subtype", subtype)) }
    if let message { evidence.append(Evidence("exception.message", message)) }
    let report = context.report
    let notes = report.exception?.notes ?? []
    let nonFatal =
      report.isNonFatal == true || report.isSimulated == true
      || notes.contains(where: { $0.contains("NON-FATAL") || $0.contains("SIMULATED") })
    switch kind {
    case .cpu: fatal = subtype.contains("FATAL") && !nonFatal
    case .memory: fatal = !nonFatal
    default: fatal = !nonFatal && (report.exception?.signal?.hasPrefix("SIGKILL") ?? false)
    }
  }

  /// The finding of `rule` for this exception: "`opening`: message.", whether the system killed
  /// the process (else `notKilled`), and the reporting thread's stack; `fatalSeverity` when killed,
  /// a note otherwise.
  func finding(
    of rule: some DiagnosisRule, _ context: DiagnosisContext, opening: String, notKilled: String,
    fatalSeverity: Severity
  ) -> Diagnosis {
    var evidence = self.evidence
    var summary = opening
    if let message { summary += ": \(message)" }
    summary += fatal ? ". The system killed the process." : ". " + notKilled
    summary += stackSentence(context, evidence: &evidence)
    return rule.finding(
      confidence: .definite, summary: summary, evidence: evidence, severity: fatal ? fatalSeverity : .note)
  }

  /// The crashed (reporting) thread's first app frame, or its top frames.
  func stackSentence(_ context: DiagnosisContext, evidence: inout [Evidence]) -> String {
    guard let thread = context.crashedThread else { return "" }
    if let app = context.firstAppFrame(on: thread) {
      evidence.append(app)
      return
        " The reporting thread (thread \(thread.index)) was running the app's \(CodeSpan.markdown(app.detail)) (\(app.path))."
    }
    let frames = context.topFrames(of: thread, limit: 2)
    guard !frames.isEmpty else { return "" }
    evidence += frames
    return " The reporting thread (thread \(thread.index)) was in " + DiagnosisContext.frameList(frames) + "."
  }
}
