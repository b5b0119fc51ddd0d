import Foundation
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// A report the requirements are checked on: a fixture, a corpus file, a rule example, or a
/// fixture cut short (a salvaged body lacks fields a whole one has).
struct RequirementInput: Sendable {
  let name: String
  let bytes: [UInt8]

  static let all: [RequirementInput] = {
    var inputs: [RequirementInput] = []
    for input in MutationInput.all {
      guard let bytes = try? [UInt8](Data(contentsOf: input.url)) else { continue }
      inputs.append(RequirementInput(name: input.name, bytes: bytes))
      if !input.name.hasPrefix("corpus/") {
        for eighth in 1..<8 {
          let end = bytes.count * eighth / 8
          inputs.append(RequirementInput(name: "\(input.name) cut at \(end)", bytes: Array(bytes[..<end])))
        }
      }
    }
    for rule in RuleCatalog.all {
      for example in rule.description.examples {
        let name = "\(rule.description.id) example \"\(example.name)\""
        switch example.input {
        case .inline(let text): inputs.append(RequirementInput(name: name, bytes: Array(text.utf8)))
        case .fixture(let path):
          if let bytes = try? Fixtures.bytes(path) { inputs.append(RequirementInput(name: name, bytes: bytes)) }
        }
      }
    }
    return inputs
  }()
}

@Suite("Rule requirements")
struct RuleRequirementTests {
  @Test("A rule fires only on reports that meet its requirement")
  func rulesKeepTheirPromise() {
    var checked = 0
    var fired = 0
    for input in RequirementInput.all {
      guard let report = try? ReportReader.read(input.bytes) else { continue }
      let context = DiagnosisContext(report: report)
      let traits = ReportTraits(context)
      checked += 1
      for rule in RuleCatalog.all where rule.init().diagnose(context) != nil {
        fired += 1
        #expect(
          rule.requirement.admits(traits, context),
          "\(rule.description.id) fired on \(input.name), whose traits (\(String(traits.rawValue, radix: 2))) its requirement excludes"
        )
      }
    }
    // The inputs exist and rules fire on them: a sweep over nothing would prove nothing.
    #expect(checked > 300)
    #expect(fired > 300)
  }

  @Test("Gated and ungated diagnoses are the same")
  func gatingChangesNothing() {
    for input in RequirementInput.all {
      guard let report = try? ReportReader.read(input.bytes) else { continue }
      #expect(Doctor.diagnose(report) == Doctor.diagnoseUngated(report), "\(input.name)")
    }
  }

  @Test("A requirement admits a report by its traits or by a termination code")
  func admits() throws {
    let report = try ReportReader.read(Array(Self.frontboardKill.utf8))
    let context = DiagnosisContext(report: report)
    let traits = ReportTraits(context)
    #expect(traits.contains(.crashKind) && traits.contains(.termination) && !traits.contains(.panicKind))
    #expect(RuleRequirement.always.admits(traits, context))
    #expect(RuleRequirement.anyOf([.panicKind, .termination]).admits(traits, context))
    #expect(!RuleRequirement.anyOf([.panicKind, .memoryFault]).admits(traits, context))
    #expect(RuleRequirement.terminationCode(TerminationCodes(0x8bad_f00d)).admits(traits, context))
    #expect(!RuleRequirement.terminationCode(TerminationCodes(0xdead_10cc)).admits(traits, context))
    #expect(RuleRequirement.terminationCode(TerminationCodes(0xdead_10cc), or: .crashKind).admits(traits, context))
  }

  static let frontboardKill = """
    {"bug_type":"309","app_name":"Example","name":"Example"}
    {"procName":"Example","exception":{"type":"EXC_CRASH","signal":"SIGKILL"},\
    "termination":{"namespace":"FRONTBOARD","code":2343432205},"threads":[]}
    """
}
