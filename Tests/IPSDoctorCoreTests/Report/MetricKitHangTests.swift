import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// MetricKit's hang, CPU and disk-write diagnostics are named for what they are: a hang's stack is
/// the main thread's, with a hang summary; CPU and disk writes are resource reports showing their
/// heaviest stack. None gets a crash rule.
@Suite("MetricKit hangs and resource exceptions")
struct MetricKitHangTests {
  static func reports() throws -> [String: CrashReport] {
    let read = try ReportReader.readAll(
      try Fixtures.bytes("thirdparty/metrickit-hang-cpu-disk-writes.json"), texts: nil)
    return Dictionary(uniqueKeysWithValues: read.map { ($0.label ?? "", $0.report) })
  }

  @Test("A hang: its stack is the main thread's, the app is the executable the stack starts in")
  func hangIsTheMainThread() throws {
    let hang = try #require(try Self.reports()["hangDiagnostics[0]"])
    #expect(hang.kind == .resource)
    #expect(hang.resource?.measure == .hang)
    #expect(hang.resource?.event == "hang (4.20 sec)")
    let thread = try #require(hang.crashedThread)
    #expect(thread.isMainThread)
    #expect(thread.queue == "com.apple.main-thread")
    #expect(hang.processName == "ShopApp")
    #expect(hang.images.filter { $0.source == "P" }.map(\.name) == ["ShopApp"])
  }

  @Test("A hang gets a hang summary: its duration, the wait at the top, the app frames; no resource or crash rule")
  func hangSummary() throws {
    let hang = try #require(try Self.reports()["hangDiagnostics[0]"])
    let diagnoses = Doctor.diagnose(hang).diagnoses
    #expect(diagnoses.map(\.ruleID) == ["main-thread-hang"])
    let finding = try #require(diagnoses.first)
    #expect(finding.confidence == .likely)
    for part in ["4.20 sec", "blocked in a system call", "`ShopApp + 0x4c2a8` (threads[0].frames[2])", "--dsym"] {
      #expect(finding.summary.contains(part), "\(part)")
    }
    #expect(finding.evidence.map(\.path).contains("hangDuration"))
  }

  @Test("CPU and disk-write exceptions: named with their measures, their heaviest stack sampled, no crash rule")
  func resourceExceptions() throws {
    let reports = try Self.reports()
    let cpu = try #require(reports["cpuExceptionDiagnostics[0]"])
    #expect(cpu.resource?.measure == .cpu)
    #expect(cpu.resource?.event == "CPU exception (1.5 min of CPU time in 3 min)")
    // The stack with 41 samples, not the first one listed (3 samples).
    #expect(cpu.crashedThread?.frames.first?.imageOffset == 0x7f0c4)
    #expect(cpu.processName == "ShopApp")
    #expect(Doctor.diagnose(cpu).diagnoses.map(\.ruleID) == ["resource-report"])
    let disk = try #require(reports["diskWriteExceptionDiagnostics[0]"])
    #expect(disk.resource?.measure == .diskWrites)
    #expect(disk.resource?.event == "disk writes exception (1,073.74 MB written)")
    #expect(Doctor.diagnose(disk).diagnoses.map(\.ruleID) == ["resource-report"])
  }

  /// The example hang of `MainThreadHangRule` with `symbols` given to its top frames, as a
  /// symbolicated stack has them.
  static func hang(symbols: [String?]) throws -> CrashReport {
    let payload = MainThreadHangRule.examplePayload(
      list: "hangDiagnostics", meta: #""hangDuration":"3 sec""#,
      frames: [
        "libsystem_kernel.dylib", "libdispatch.dylib", "libdispatch.dylib", "ShopApp", "UIKitCore", "ShopApp", "dyld",
      ])
    var report = try ReportReader.read(Array(payload.utf8))
    for (index, symbol) in symbols.enumerated() { report.threads[0].frames[index].symbol = symbol }
    return report
  }

  @Test(
    "Named top frames say what the main thread waited on",
    arguments: [
      (["__psynch_mutexwait", "_pthread_mutex_firstfit_lock_slow", nil], "waiting for a lock"),
      (["semaphore_wait_trap", "_dispatch_sema4_wait", "dispatch_semaphore_wait"], "waiting on a semaphore"),
      (["__ulock_wait", "_dispatch_group_wait_slow", "dispatch_group_wait"], "waiting on a semaphore, group"),
      (["__ulock_wait2", "__DISPATCH_WAIT_FOR_QUEUE__", "_dispatch_sync_f_slow"], "synchronous dispatch"),
      (["__open_nocancel", "open", nil], "file I/O"),
      (["mach_msg2_trap", "mach_msg2_internal", "xpc_connection_send_message_with_reply_sync"], "another process"),
      (["mach_msg2_trap", "mach_msg2_internal", "__CFRunLoopServiceMachPort"], "idle in its run loop"),
    ] as [([String?], String)])
  func namedWaits(symbols: [String?], phrase: String) throws {
    let finding = try #require(Doctor.diagnose(try Self.hang(symbols: symbols)).diagnoses.first)
    #expect(finding.ruleID == "main-thread-hang")
    #expect(finding.summary.contains(phrase), "\(finding.summary)")
  }
}
