import Foundation
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// KSCrash's Apple-style text reports: symbols after "0xBASE + offset", "Exception Type: 0 (0)"
/// for no exception, and the reporter's own crash appended after the app's.
@Suite("KSCrash Apple-style text")
struct KSCrashTextTests {
  static let report = """
    Incident Identifier: A1545134-A569-4AE6-8286-F9855EF0E482
    Process:         Sample [863]
    Path:            /var/mobile/Applications/B19FDF7E-768B-42D9-88E7-80F757E22883/Sample.app/Sample
    Identifier:      com.example.sample
    Code Type:       ARM
    OS Version:      iPhone OS 4.3.3 (8J2)
    Report Version:  104

    Exception Type:  EXC_BAD_ACCESS (SIGSEGV)
    Exception Codes: KERN_INVALID_ADDRESS at 0xffffffff
    Crashed Thread:  0

    Thread 0 name:  Dispatch queue: apple.main-thread
    Thread 0 Crashed:
    0   Sample                          0x000c47b8 0xc3000 + 6072 (-[Crasher dereferenceBadPointer] + 16)
    1   UIKit                           0x3160c800 0x315e0000 + 182272 (UIApplicationMain + 664)

    Thread 1 name:  KSCrash Exception Handler (Primary)
    Thread 1:
    0   libsystem_kernel.dylib          0x3618bc00 0x3617c000 + 64512 (mach_msg_trap + 20)

    Binary Images:
       0xc3000 -   0x107fff +Sample armv7  <5425b875d1423832be8c3b7dd8130813> /var/mobile/Applications/B19FDF7E-768B-42D9-88E7-80F757E22883/Sample.app/Sample

    Handler crashed while reporting:

    Exception Type:  EXC_BAD_ACCESS (SIGBUS)
    Exception Codes: KERN_PROTECTION_FAILURE at 0x00000000
    Crashed Thread:  1

    Thread 1 name:  KSCrash Exception Handler (Primary)
    Thread 1 Crashed:
    0   libsystem_c.dylib               0x3625d1dc 0x36231000 + 180700 (__vfprintf + 160)
    """

  @Test("A symbol in parentheses after the image offset is the frame's symbol")
  func parenthesisedSymbol() throws {
    let line = try #require(
      LegacyTextLine.frame("0   libobjc.A.dylib   0x35097c9a 0x35095000 + 11418 (objc_msgSend + 18)"))
    #expect(line.frame.imageOffset == 11418)
    #expect(line.frame.symbol == "objc_msgSend")
    #expect(line.frame.symbolLocation == 18)
    // A parenthesised text that is not "symbol + offset" is not a symbol.
    let other = try #require(LegacyTextLine.frame("0   Sample   0x35097c9a 0x35095000 + 11418 (not a symbol)"))
    #expect(other.frame.symbol == nil)
    #expect(other.frame.imageOffset == 11418)
  }

  @Test("The reporter's own crash after the app's is not merged into it")
  func handlerCrash() throws {
    let report = try ReportReader.read(Self.report)
    #expect(report.exception?.signal == "SIGSEGV")
    #expect(report.exception?.subtype == "KERN_INVALID_ADDRESS at 0xffffffff")
    #expect(report.crashedThread?.frames.first?.symbol == "-[Crasher dereferenceBadPointer]")
    #expect(report.threads.count == 2)
  }

  @Test("The deadlock watchdog's statement is kept as application-specific information")
  func deadlockStatement() throws {
    let text = Self.report.replacingOccurrences(
      of: "Crashed Thread:  0\n", with: "Crashed Thread:  0\n\nApplication main thread deadlocked\n")
    let report = try ReportReader.read(text)
    #expect(report.applicationSpecificLines == ["Application main thread deadlocked"])
    #expect(report.warnings.isEmpty)
  }

  @Test("Exception Type 0 (0) means no exception type")
  func noException() throws {
    let text = Self.report.replacingOccurrences(
      of: "EXC_BAD_ACCESS (SIGSEGV)", with: "0 (0)")
    let report = try ReportReader.read(text)
    #expect(report.exception?.type == nil)
    #expect(report.exception?.signal == nil)
  }
}
