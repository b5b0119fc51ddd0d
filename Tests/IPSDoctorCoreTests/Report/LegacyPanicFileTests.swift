import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// Old kernel panic files (`Kernel-*.panic`) are a text header followed by the panic string: the
/// header fields are the device's, everything from `panic(cpu …)` on is the kernel's.
@Suite("Old kernel panic files")
struct LegacyPanicFileTests {
  @Test("The header and the panic string are read as a panic")
  func fixture() throws {
    let report = try ReportReader.read(Fixtures.bytes("reports/kernel-panic-legacy-gpu-hang.panic"))
    #expect(report.kind == .panic)
    let panic = try #require(report.panic)
    #expect(panic.headline == #"panic(cpu 1 caller 0x8a12c3d4): "AGX: GPU hang, restarting (channel 2, event 0x1)""#)
    #expect(panic.panickedTask == "pid 47: backboardd")
    #expect(panic.product == "iPad4,1")
    #expect(panic.build == "11D201")
    #expect(panic.panicString?.hasSuffix("Task 0xffffff80d1e2f3a0, pid 47 ...\n") == true)
    #expect(report.warnings.isEmpty)
  }

  @Test("A panic line after a thread is not a panic file")
  func panicTextInACrash() throws {
    let text = """
      Incident Identifier: 3E8D2B10-4C71-4B5E-9A0F-1D2C3B4A5F60
      Hardware Model:      iPhone12,1
      Exception Type:  EXC_CRASH (SIGABRT)

      Thread 0 Crashed:
      0   libsystem_kernel.dylib        0x00000001c2b1a2b4 __pthread_kill + 8

      panic(cpu 0 caller 0x1): "not the kernel's"
      """
    let report = try ReportReader.read(text)
    #expect(report.kind == .crash)
    #expect(report.panic == nil)
  }

  @Test(
    "Kernel extensions in the backtrace, and which are GPU drivers",
    arguments: [
      (
        "panic(cpu 1 caller 0x1): \"x\"\n\t  Kernel Extensions in backtrace:\n\t     com.apple.AGX(1.0)[9F8E]@0x1->0x2\n\t     com.apple.iokit.IOGPUFamily(104.4)[AB]@0x3->0x4\n\nBSD process name",
        ["com.apple.AGX", "com.apple.iokit.IOGPUFamily"], true
      ),
      (
        "panic(cpu 0 caller 0x1): \"watchdog\"\nKernel Extensions in backtrace:\n   com.apple.driver.AppleSEPManager(1.0)[CD]@0x1->0x2\n",
        ["com.apple.driver.AppleSEPManager"], false
      ),
      ("panic(cpu 0 caller 0x1): \"no list\"\n", [], false),
      // The list ends at its first line that is not an extension; loaded kexts after it are not in it.
      (
        "Kernel Extensions in backtrace:\r\n  com.apple.AGX(1.0)[9F]@0x1->0x2\n\n\n  com.nvidia.NVDAResman(1)[A]@0x3->0x4\nBSD process name corresponding to current thread: kernel_task\nloaded kexts:\ncom.apple.driver.AppleIntelGraphics(1)\n",
        ["com.apple.AGX", "com.nvidia.NVDAResman"], true
      ),
      ("x \"Kernel Extensions in backtrace\"\n com.apple.AGX(1.0)\n", [], false),
      ("Kernel Extensions in backtrace:", [], false),
    ] as [(String, [String], Bool)])
  func extensions(panicString: String, expected: [String], gpu: Bool) {
    let found = KernelPanicRule.backtraceExtensions(panicString)
    #expect(found == expected)
    #expect(found.contains(where: KernelPanicRule.isGPUDriver) == gpu)
  }
}
