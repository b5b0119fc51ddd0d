import IPSDoctorSupport

/// `EXC_GUARD` / `GUARD_TYPE_FD`: the process closed, duplicated or otherwise misused a file
/// descriptor that another component guards (for example Core Data's SQLite file).
package struct GuardFileDescriptorRule: DiagnosisRule {
  package init() {}

  static let meanings: [String: String] = [
    "CLOSE": "called `close()` on it",
    "DUP": "duplicated it with `dup()`, `dup2()` or `fcntl(F_DUPFD)`",
    "NOCLOEXEC": "removed its `FD_CLOEXEC` flag",
    "SOCKET_IPC": "sent it through a socket",
    "FILEPORT": "made a Mach fileport from it",
    "WRITE": "wrote to it",
    "MISMATCH": "used it with the wrong guard",
  ]

  package static let description = RuleDescription(
    id: "guard-file-descriptor",
    title: "Guarded File Descriptor Violation",
    summary:
      "The process misused a file descriptor guarded by another component, such as closing Core Data's SQLite file.",
    category: .launch,
    severity: .error,
    tier: .exact,
    rationale: """
      System libraries guard the file descriptors they own (SQLite databases behind Core Data, \
      XPC connections, …) so that other code cannot close or duplicate them by mistake. A \
      violation raises `EXC_GUARD` with subtype `GUARD_TYPE_FD`; the exception message names the \
      operation (`CLOSE`, `DUP`, `NOCLOEXEC`, `SOCKET_IPC`, `FILEPORT`, `WRITE`) and the file \
      descriptor. The usual bug is code that closes a descriptor it does not own — a double \
      `close()`, closing a number after it was reused, or closing every descriptor after \
      `fork()`.
      """,
    remedy: """
      Find the code that operated on the descriptor (the crashed thread's top frames) and make \
      it touch only descriptors it opened: close each descriptor exactly once, set the variable \
      to `-1` after closing, and use `FileHandle`/`FileDescriptor` types that own their \
      descriptor. Never close descriptors you did not open (for example in a loop over all \
      numbers).
      """,
    references: ["https://developer.apple.com/documentation/xcode/exc_guard"],
    examples: [
      .triggers(
        "CLOSE on a guarded descriptor",
        ExampleReport(
          exception: ExampleReport.Exception(
            "EXC_GUARD", signal: "SIGKILL", codes: "0x4000000100000011, 0x08fd4dbfade2dead", subtype: "GUARD_TYPE_FD",
            message: "CLOSE on file descriptor 17 (guarded with 0x08fd4dbfade2dead)"),
          threads: [.main([.frame(.libsystemKernel, "close"), .frame(.app, "LogFile.deinit"), .frame(.app, "main")])]),
        .definite, summaryContains: ["`CLOSE`", "file descriptor 17", "called `close()`", "LogFile.deinit"]),
      .triggers(
        "decoded from codes",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_GUARD", signal: "SIGKILL", codes: "0x4000000200000005, 0x0"),
          threads: [.main([.frame(.libsystemKernel, "dup"), .frame(.app, "Pipe.clone()")])]),
        .likely, summaryContains: ["`DUP`", "file descriptor 5"]),
      .ignores(
        "mach port guard (guard-mach-port)",
        ExampleReport(
          exception: ExampleReport.Exception(
            "EXC_GUARD", signal: "SIGKILL", codes: "0x2000000200000b03, 0x0", subtype: "GUARD_TYPE_MACH_PORT"),
          threads: [.main([.frame(.libsystemKernel, "mach_port_deallocate")])])),
    ])

  static let databaseFrames = ["sqlite3", "NSSQLite"]

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let guardException = GuardException(context), guardException.kind == .fileDescriptor else { return nil }
    var evidence = guardException.evidence
    var summary = "\(context.processDisplayName) violated a guarded file descriptor (`EXC_GUARD`, `GUARD_TYPE_FD`)"
    if let violation = guardException.violation {
      summary += ": \(CodeSpan.markdown(violation))"
      if let target = guardException.target { summary += " on file descriptor \(target)" }
      if let meaning = Self.meanings[violation] { summary += " — it \(meaning) although another component guards it" }
    } else if let target = guardException.target {
      summary += " on file descriptor \(target)"
    }
    summary += "."
    summary += GuardException.stackSentence(context, evidence: &evidence)
    if context.firstFrameInAnyThread(containingFirstOf: Self.databaseFrames) != nil {
      summary +=
        " SQLite is on a stack in this report: the guarded descriptor may be a database file (Core Data uses guarded descriptors)."
    }
    return finding(
      confidence: guardException.decodedFromCodes ? .likely : .definite, summary: summary, evidence: evidence)
  }
}
