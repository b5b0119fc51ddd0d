import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// The rules' inline `TerminationCodes` must answer what the `Set`s they replaced answered.
@Suite("Termination codes held inline")
struct TerminationCodesTests {
  /// Every rule's codes, with the set the rule kept before.
  static let rules: [(name: String, codes: TerminationCodes, set: Set<UInt64>)] = [
    ("watchdog", WatchdogTimeoutRule.codes, [0x8badf00d]),
    ("file lock", FileLockHeldInBackgroundRule.codes, [0xdead10cc]),
    ("VoIP push", VoIPPushWithoutCallKitRule.codes, [0xbaadca11]),
    ("VoIP resume", VoIPResumeTooFrequentRule.codes, [0xbad22222]),
    ("security", SecurityViolationRule.codes, [0x2bad45ec]),
    ("disk space", DiskSpaceReclaimRule.codes, [0xbaddd15c]),
    ("resources", SystemResourcesExhaustedRule.codes, [0xd00d2bad]),
    ("thermal", ThermalShutdownRule.codes, [0xc00010ff]),
    ("force quit", UserForceQuitRule.codes, [0xdeadfa11]),
    ("background task", BackgroundTaskTimeoutRule.codes, Set(BackgroundTaskTimeoutRule.kinds.keys)),
    ("watchOS budget", WatchOSBackgroundBudgetRule.codes, Set(WatchOSBackgroundBudgetRule.kinds.keys)),
  ]

  @Test("each rule holds the codes it held as a set, and contains exactly those")
  func sameCodes() {
    for rule in Self.rules {
      #expect(Set(rule.codes.all) == rule.set, "\(rule.name)")
      #expect(rule.codes.all.count == rule.set.count, "\(rule.name)")
      var probes: [UInt64] = [0, 1, 6, 9, 0x8badf00c, 0x8badf00e, .max, .max - 1]
      for code in rule.set { probes += [code, code &+ 1, code &- 1, code ^ (1 << 32), code | (1 << 63)] }
      for code in Self.rules.flatMap({ $0.set }) { probes.append(code) }
      for probe in probes {
        #expect(rule.codes.contains(probe) == rule.set.contains(probe), "\(rule.name) \(String.hex(probe))")
      }
    }
  }

  @Test("terminationCode(in:) answers the same for the inline codes and for a set")
  func sameMatches() {
    let texts = [
      "Namespace FRONTBOARD, Code 0xdead10cc", "Code 0x8badf00d 0x2182bad3", "0XC51BAD02 0xc00010ff",
      "nothing here", "",
    ]
    for namespace in ["SIGNAL", "FRONTBOARD", nil] as [String?] {
      for code in [nil, 6, 0x8badf00d, 0x2182bad4, 0xc51bad01] as [UInt64?] {
        for codes in [nil, "0x0000000000000001, 0x00000000baadca11", "0xbad22222", "KERN_INVALID_ADDRESS"] as [String?]
        {
          var report = CrashReport(format: .json)
          if let codes {
            var exception = ExceptionInfo()
            exception.codes = codes
            report.exception = exception
          }
          var termination = Termination(namespace: namespace, code: code)
          termination.reasons = texts
          termination.details = texts.reversed()
          report.termination = termination
          let context = DiagnosisContext(report: report)
          for rule in Self.rules {
            let inline = context.terminationCode(in: rule.codes)
            let set = context.terminationCode(in: rule.set)
            #expect(inline?.code == set?.code, "\(rule.name)")
            #expect(inline?.namespace == set?.namespace, "\(rule.name)")
            #expect(inline?.evidence == set?.evidence, "\(rule.name)")
          }
        }
      }
    }
  }
}
