import Foundation
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorReport
@testable import IPSDoctorSupport

/// A small deterministic generator (SplitMix64), so every run mutates the same bytes.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// One input to the mutation sweep: a fixture or a shared corpus file.
struct MutationInput: CustomTestStringConvertible, Sendable {
  let name: String
  let url: URL

  var testDescription: String { name }

  static let all: [MutationInput] = {
    let own = Fixtures.files(in: "reports", extensions: ["ips", "crash", "panic"]).map {
      MutationInput(name: $0, url: Fixtures.url($0))
    }
    let shared = ["crash-json", "legacy-text", "panic", "jetsam", "hang", "other"].flatMap {
      folder in
      Fixtures.sharedFiles(in: "corpus/" + folder).map {
        MutationInput(name: "corpus/\(folder)/\($0.lastPathComponent)", url: $0)
      }
    }
    return own + shared
  }()
}

/// Reads, diagnoses and renders `bytes`; any crash here fails the whole test run, which is the point.
@discardableResult
func exerciseEverything(_ bytes: [UInt8]) -> CrashReport? {
  guard let report = try? ReportReader.read(bytes) else { return nil }
  let result = Doctor.diagnose(report)
  var sink = 0
  for diagnosis in result.diagnoses {
    sink &+= TerminalText.escaped(diagnosis.summary).utf8.count
    sink &+= JSONWriter.quoted(diagnosis.remedy).utf8.count
  }
  sink &+= result.signature.id.utf8.count
  _ = sink
  return report
}

/// A fixed number of cuts and mutations per file: the full sweep under `IPS_DOCTOR_SWEEPS=1` (as
/// `.ci/run` sets it), a sample of the same seeded sequence otherwise (see ``Sweeps``).
@Suite("Hostile input: truncation and mutation")
struct MutationTests {
  static let cuts = Sweeps.size(64, sample: 8)
  static let mutations = Sweeps.size(1000, sample: 20)

  @Test("Every file truncated at 64 cut points gives a result or an error", arguments: MutationInput.all)
  func truncation(_ input: MutationInput) throws {
    let bytes = [UInt8](try Data(contentsOf: input.url))
    let original = try? ReportReader.read(bytes)
    guard bytes.count > 1 else { return }
    // The end of the JSON header line, wherever it starts.
    let headerEnd: Int? = bytes.withUnsafeBufferPointer { buffer in
      Scan.firstLineStartingWithBrace(buffer, from: 0).map { Scan.endOfLine(buffer, from: $0) }
    }
    for step in 1...Self.cuts {
      let cut = bytes.count * step / (Self.cuts + 1)
      let truncated = Array(bytes[..<cut])
      let report = exerciseEverything(truncated)
      // A JSON report cut inside its body still yields its header.
      if let original, original.format == .json, original.headerJSON != nil,
        let headerEnd, cut > headerEnd,
        !(original.warnings.contains { $0.message.contains("translated report") })
      {
        #expect(report != nil, "cut at \(cut) lost the whole report")
        #expect(report?.header.bugType == original.header.bugType, "cut at \(cut) lost the header")
      }
    }
  }

  @Test("Every file with 1,000 seeded byte mutations gives a result or an error", arguments: MutationInput.all)
  func mutation(_ input: MutationInput) throws {
    let bytes = [UInt8](try Data(contentsOf: input.url))
    guard !bytes.isEmpty else { return }
    var generator = SeededGenerator(seed: CrashSignature(components: [input.name]).seed)
    let interesting: [UInt8] = Array("{}[]\",:\\0123456789-eE.tfn \n\r".utf8) + [0x00, 0x1B, 0xC3, 0xFF, 0xED, 0xF4]
    for _ in 0..<Self.mutations {
      var mutated = bytes
      let edits = Int.random(in: 1...4, using: &generator)
      for _ in 0..<edits {
        guard !mutated.isEmpty else { break }
        let position = Int.random(in: 0..<mutated.count, using: &generator)
        switch Int.random(in: 0..<5, using: &generator) {
        case 0: mutated[position] = UInt8.random(in: 0...255, using: &generator)
        case 1: mutated[position] = interesting.randomElement(using: &generator)!
        case 2: mutated.remove(at: position)
        case 3: mutated.insert(interesting.randomElement(using: &generator)!, at: position)
        default:
          let length = min(Int.random(in: 1...64, using: &generator), mutated.count - position)
          mutated.insert(contentsOf: mutated[position..<position + length], at: position)
        }
      }
      exerciseEverything(mutated)
    }
  }
}

extension CrashSignature {
  /// A stable seed derived from the signature's hash (String.hashValue is randomised per process).
  var seed: UInt64 { UInt64(id, radix: 16) ?? 1 }
}
