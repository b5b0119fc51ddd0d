import IPSDoctorSupport

/// malloc found its own data structures damaged (or a bad pointer passed to `free`) and aborted.
package struct HeapCorruptionRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "heap-corruption",
    title: "Heap Corruption Detected By malloc",
    summary: "malloc aborted because a pointer passed to free was not allocated, or its free lists were overwritten.",
    category: .memory,
    severity: .error,
    tier: .exact,
    rationale: """
      The allocator checks what it is given and what it keeps. "pointer being freed was not \
      allocated" (and `___BUG_IN_CLIENT_OF_LIBMALLOC_POINTER_BEING_FREED_WAS_NOT_ALLOCATED` on \
      the stack) is a double free or a free of a pointer malloc never returned; \
      `free_list_checksum_botch`, "incorrect checksum for freed object" and `szone_error` mean \
      memory was written after it was freed or past the end of a block. The crash happens at \
      the next allocator call, far from the code that corrupted the heap.
      """,
    remedy: """
      Reproduce with the Address Sanitizer (Scheme → Diagnostics), which stops at the bad write \
      or the double free, or with Malloc Scribble and Guard Malloc. Review manual memory \
      management on the crashing path: `free`/`deallocate` of pointers you do not own, buffers \
      written past their size, and objects shared between threads without synchronisation.
      """,
    references: ["https://developer.apple.com/documentation/xcode/investigating-memory-access-crashes"],
    examples: [
      .triggers(
        "pointer being freed was not allocated",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          asi: [
            "libsystem_malloc.dylib": [
              "Example(812,0x1f0) malloc: *** error for object 0x280c3c000: pointer being freed was not allocated",
              "abort() called",
            ]
          ],
          threads: [
            .main([
              .frame(.libsystemKernel, "__pthread_kill"), .frame(.libsystemC, "abort"),
              .frame(.libsystemMalloc, "malloc_vreport"),
              .frame(.libsystemMalloc, "malloc_report"), .frame(.app, "Buffer.deinit"), .frame(.app, "main"),
            ])
          ]),
        .definite, summaryContains: ["pointer being freed was not allocated", "Buffer.deinit"]),
      .triggers(
        "free list checksum in the allocator's frames",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          threads: [
            .main([
              .frame(.libsystemKernel, "__pthread_kill"), .frame(.libsystemC, "abort"),
              .frame(.libsystemC, "szone_error"),
              .frame(.libsystemC, "free_list_checksum_botch"), .frame(.libsystemC, "tiny_malloc_from_free_list"),
              .frame(.app, "Cache.store(_:)"),
            ])
          ]),
        .likely, summaryContains: ["free_list_checksum_botch", "Cache.store(_:)"]),
      .triggers(
        "a trap in the allocator's client-bug function (newer systems)",
        ExampleReport.trap(frames: [
          .frame(
            .libsystemMalloc, "___BUG_IN_CLIENT_OF_LIBMALLOC_POINTER_BEING_FREED_WAS_NOT_ALLOCATED"),
          .frame(.libsystemMalloc, "free"), .frame(.app, "Buffer.deinit"),
        ]),
        .definite, summaryContains: ["___BUG_IN_CLIENT_OF_LIBMALLOC", "Buffer.deinit"]),
      .ignores(
        "plain abort (abort-called)",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          threads: [.main(ExampleReport.abortFrames())])),
    ])

  /// What malloc writes to the Application Specific Information when it finds damage.
  static let messages = MarkerSet([
    "pointer being freed was not allocated", "incorrect checksum for freed object",
    "pointer being realloc'd was not allocated", "double free", "Heap corruption detected",
  ])
  /// The allocator's functions that only run when it found damage.
  static let frames = MarkerSet([
    "___BUG_IN_CLIENT_OF_LIBMALLOC", "free_list_checksum_botch", "szone_error", "malloc_zone_error",
    "nanov2_guard_corruption", "xzm_abort",
  ])

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    let stated = context.reasonText(containingAny: Self.messages)
    // The allocator ends in abort() on older systems and in a trap (brk) on newer ones.
    let frame = context.isAbort || context.isTrap ? context.crashedThreadTop(10, containsAny: Self.frames) : nil
    guard stated != nil || frame != nil else { return nil }
    // A fault is a fault; the allocator's checks abort or trap.
    if context.memoryFault != nil && stated == nil { return nil }
    var evidence: [Evidence] = []
    var summary = "The allocator found the heap damaged and stopped the app"
    if let stated {
      summary += ": \"\(TextScan.clip(stated.detail, 160))\"."
      evidence.append(stated)
    } else if let frame {
      summary += " in \(DiagnosisContext.quote(frame.evidence))."
      evidence.append(frame.evidence)
    }
    summary +=
      " A double free, a free of a pointer malloc never returned, or a write after free or past a block's end corrupted it earlier; the crash site is only where the allocator noticed."
    if let backtrace = context.crashedBacktrace, let app = context.appFrameEvidence(in: backtrace) {
      summary += " The app frame on the stack is \(DiagnosisContext.quote(app))."
      evidence.append(app)
    }
    // "___BUG_IN_CLIENT_OF_LIBMALLOC_POINTER_BEING_FREED_WAS_NOT_ALLOCATED" states the cause in
    // its name.
    let named = frame?.evidence.detail.contains("___BUG_IN_CLIENT_OF_LIBMALLOC") ?? false
    return finding(confidence: stated != nil || named ? .definite : .likely, summary: summary, evidence: evidence)
  }
}
