import IPSDoctorSupport

/// `EXC_BAD_ACCESS` at an address in the unmapped zero page: a null pointer was dereferenced.
package struct NullPointerDereferenceRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "null-pointer-dereference",
    title: "Null Pointer Dereference",
    summary: "The app read or wrote memory at (or a small offset from) address zero through a null pointer.",
    category: .memory,
    severity: .error,
    tier: .specific,
    rationale: """
      The first pages of every process are unmapped (`__PAGEZERO`), so an access at a small \
      address faults with `EXC_BAD_ACCESS (SIGSEGV)` and `KERN_INVALID_ADDRESS at 0x…`. An address \
      below `0x1000` is a null pointer (or a field at that offset inside a null pointer's struct, \
      object or C++ `this`); below `0x10000` it is most likely one. In Swift, messaging `nil` and \
      optionals are safe, so the pointer is usually unsafe: `UnsafePointer`, `Unmanaged`, \
      `unowned(unsafe)`, a C or C++ API that returned `NULL`, or a block or function pointer that \
      was `nil` when called.
      """,
    remedy: """
      Open the faulting frame (symbolicate it if needed) and find the pointer it dereferenced; \
      the fault address is the offset of the field read from it. Check every pointer that comes \
      from C, C++ or Objective-C APIs for `NULL`/`nil` before use (in Swift, keep it optional and \
      `guard let`), and keep the owner of the memory alive while you use it \
      (`withExtendedLifetime`, no `unowned(unsafe)`). For C++ code, check the object the member \
      function was called on. The Address Sanitizer (Scheme → Diagnostics) stops at the bad access \
      with the pointer's history.
      """,
    references: [
      "https://developer.apple.com/documentation/xcode/investigating-memory-access-crashes",
      "https://developer.apple.com/documentation/xcode/sigsegv",
    ],
    examples: examples)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let fault = context.memoryFault, fault.kind == .invalidAddress, !fault.isBad0,
      !fault.isPACFlagged, let address = fault.address, address < 0x10000
    else { return nil }
    if StackOverflowEvidence.isPresent(in: context) { return nil }  // stack-overflow
    // A fault inside objc_msgSend/objc_release is a freed object, not a nil one: zombie-object.
    if ZombieObjectRule.runtimeFault(in: context) != nil { return nil }
    let definite = address < 0x1000
    let access = MemoryFault.accessKind(in: context) ?? "access"
    let pc = context.crashedThread?.state?["pc"]

    var summary: String
    if let pc, pc == address {
      summary =
        "The app jumped to address `\(String.hex(address))`: it called a null function pointer, block or closure."
    } else {
      let verb = access == "access" ? "accessed" : (access == "write" ? "wrote to" : "read from")
      let place =
        definite
        ? "inside the unmapped zero page: it dereferenced a null pointer"
        : "just above the zero page: most likely a field far inside a null pointer's memory"
      summary = "The app \(verb) address `\(String.hex(address))`, \(place)"
      if address > 0 {
        let unit = address == 1 ? "byte" : "bytes"
        summary += " (an offset of \(address) \(unit): a field of a struct, object or C++ `this` that is null)"
      }
      summary += "."
    }
    var evidence = [fault.subtypeEvidence, MemoryFault.regionHeadline(in: context)].compactMap { $0 }
    summary += MemoryFault.crashSiteSentence(in: context, evidence: &evidence)
    return finding(confidence: definite ? .definite : .likely, summary: summary, evidence: evidence)
  }

  private static let examples: [RuleExample] = [
    .triggers(
      "read at 0x8 in C++ on the cooperative pool",
      ExampleReport.badAccess(
        "KERN_INVALID_ADDRESS at 0x0000000000000008",
        frames: [
          .frame(.app, "std::__1::unordered_map<std::string, std::string>::find(std::string const&)", inline: true),
          .frame(.app, "mlx::core::fast::CustomKernel::eval_gpu(std::vector<mlx::core::array> const&)"),
        ],
        registers: ExampleReport.Registers(
          pc: 4295000000, far: 8, esr: 2449473542, esrDescription: "(Data Abort) byte read Translation fault"),
        vmRegionInfo:
          "0x8 is not in any region.  Bytes before following region: 4366024696\n--->  \n      __TEXT 1043c4000-108288000",
        queue: "com.apple.root.user-initiated-qos.cooperative"),
      .definite,
      summaryContains: ["read from address `0x8`", "null pointer", "threads[0].frames[0]", "cooperative"]),
    .triggers(
      "0x1 in a JavaScript engine",
      ExampleReport.badAccess(
        "KERN_INVALID_ADDRESS at 0x0000000000000001",
        frames: [.frame(.coreFoundation, "hermes::vm::objectPrototypeHasOwnProperty(void*)"), .frame(.app)]),
      .definite, summaryContains: ["`0x1`", "Example + 0x1000"]),
    .triggers(
      "0x3a10: likely",
      ExampleReport.badAccess("KERN_INVALID_ADDRESS at 0x0000000000003a10"), .likely,
      summaryContains: ["`0x3a10`"]),
    .ignores(
      "large address (invalid-address)",
      ExampleReport.badAccess("KERN_INVALID_ADDRESS at 0x00000004cdfaf798")),
    .ignores(
      "small address inside objc_msgSend (zombie-object)",
      ExampleReport.badAccess(
        "KERN_INVALID_ADDRESS at 0x0000000000000010",
        frames: [.frame(.libobjc, "objc_msgSend"), .frame(.app, "ChatCell.configure(with:)")])),
    .ignores(
      "small address while objc_msgSend sent a message (zombie-object)",
      ExampleReport(
        exception: ExampleReport.Exception(
          "EXC_BAD_ACCESS", signal: "SIGSEGV", subtype: "KERN_INVALID_ADDRESS at 0x0000000000000088"),
        asi: ["libobjc.A.dylib": ["objc_msgSend() selector name: respondsToSelector:"]],
        threads: [.main([.frame(.libsystemKernel), .frame(.app, "-[Inbox refresh]")])])),
    .ignores(
      "watchdog kill while the main thread was in a bad state (EXC_BAD_ACCESS (SIGKILL))",
      ExampleReport(
        exception: ExampleReport.Exception(
          "EXC_BAD_ACCESS", signal: "SIGKILL", subtype: "KERN_INVALID_ADDRESS at 0x0000000000000000"),
        termination: ExampleReport.Termination(namespace: "SPRINGBOARD", code: 2343432205),
        threads: [.main([.frame(.app)])])),
    .ignores(
      "0xbad0 (objc-concurrent-property-access)",
      ExampleReport.badAccess("KERN_INVALID_ADDRESS at 0x000000000000bad0")),
  ]
}
