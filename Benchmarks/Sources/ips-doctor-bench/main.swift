// Times ips-doctor's library on a corpus held in memory:
//   parse     ReportReader.read(bytes, sharing:)        (framing + JSON + typed CrashReport)
//   diagnose  ReportReader.read(bytes, sharing:) + Doctor.diagnose (everything but printing)
// each worker keeping one SharedTexts table from file to file, as the CLI's workers do; and
//   parse-alone, diagnose-alone   the same with ReportReader.read(bytes): every report on its own
// and, to split a diagnosis's cost (not part of the table):
//   context   ReportReader.read(bytes) + DiagnosisContext(report:)
//   norules   ReportReader.read(bytes) + Doctor.diagnose with no rules (context, summary, signature)
//   firing    ReportReader.read(bytes) + Doctor.diagnose with only the rules that fire on that file
//             (found beforehand): what not running the other rules at all could save
// each with 1 job and with every core. File I/O is done up front and reported on its own line.
// The diagnosing modes hand the report over (`consume`), as the CLI's batch does.

import BenchSupport
import IPSDoctorDiagnosis
import IPSDoctorReport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let usage = """
  usage: ips-doctor-bench [--corpus DIR] [--runs N] [--jobs 1,2] [--limit FILES]
                          [--mode parse,diagnose,parse-alone,diagnose-alone,context,norules,firing]
  """
var options = Options(arguments: CommandLine.arguments, usage: usage)
if options.modes.isEmpty { options.modes = ["parse", "diagnose"] }

let corpus = Corpus(directory: options.corpus, limit: options.limit)
print("load\tips-doctor\t\(corpus.count)\t\(corpus.totalBytes)\t\(corpus.loadSeconds)")

// Files the reader rejects (plain text that is not a report, say) count as done: they are part of
// the same corpus the peers see.
var rejected = 0
for bytes in corpus.contents {
  if (try? ReportReader.read(bytes)) == nil { rejected += 1 }
}
print("rejected\tips-doctor\t\(rejected)")

/// What a diagnosing mode returns, so that none of its work can be left out.
func checksum(_ result: DiagnosisResult, threads: Int) -> Int {
  result.diagnoses.count &* 7 &+ result.signature.id.utf8.count &+ threads
}

let data = corpus
let jobs = options.jobs
/// One table per worker (see `timeOnce`), kept across modes and runs like a long batch keeps them.
let tables = WorkerTexts(count: jobs.max() ?? 1)
for mode in options.modes {
  switch mode {
  case "parse":
    measure(tool: "ips-doctor", mode: "parse", jobs: jobs, corpus: corpus, runs: options.runs) { index, worker in
      guard let report = try? ReportReader.read(data.contents[index], sharing: tables[worker]) else {
        return 1_000_003
      }
      return report.threads.count &+ report.images.count &+ report.warnings.count
    }
  case "diagnose":
    measure(tool: "ips-doctor", mode: "diagnose", jobs: jobs, corpus: corpus, runs: options.runs) { index, worker in
      guard let report = try? ReportReader.read(data.contents[index], sharing: tables[worker]) else {
        return 1_000_003
      }
      let threads = report.threads.count
      let result = Doctor.diagnose(consume report)
      return checksum(result, threads: threads)
    }
  case "parse-alone":
    measure(tool: "ips-doctor", mode: "parse-alone", jobs: jobs, corpus: corpus, runs: options.runs) { index in
      guard let report = try? ReportReader.read(data.contents[index]) else { return 1_000_003 }
      return report.threads.count &+ report.images.count &+ report.warnings.count
    }
  case "diagnose-alone":
    measure(tool: "ips-doctor", mode: "diagnose-alone", jobs: jobs, corpus: corpus, runs: options.runs) { index in
      guard let report = try? ReportReader.read(data.contents[index]) else { return 1_000_003 }
      let threads = report.threads.count
      let result = Doctor.diagnose(consume report)
      return checksum(result, threads: threads)
    }
  case "context":
    measure(tool: "ips-doctor", mode: "context", jobs: jobs, corpus: corpus, runs: options.runs) { index in
      guard let report = try? ReportReader.read(data.contents[index]) else { return 1_000_003 }
      let threads = report.threads.count
      let context = DiagnosisContext(report: consume report)
      return context.backtraces.count &+ threads
    }
  case "norules":
    measure(tool: "ips-doctor", mode: "norules", jobs: jobs, corpus: corpus, runs: options.runs) { index in
      guard let report = try? ReportReader.read(data.contents[index]) else { return 1_000_003 }
      let threads = report.threads.count
      let result = Doctor.diagnose(consume report, rules: [])
      return checksum(result, threads: threads)
    }
  case "firing":
    // Only the rules that fire on each file, found beforehand: what perfect gating could save.
    var firing: [[any DiagnosisRule.Type]] = []
    for bytes in data.contents {
      guard let report = try? ReportReader.read(bytes) else { firing.append([]); continue }
      let ids = Set(Doctor.diagnose(report).diagnoses.map(\.ruleID))
      firing.append(RuleCatalog.all.filter { ids.contains($0.description.id) })
    }
    let oracle = firing
    measure(tool: "ips-doctor", mode: "firing", jobs: jobs, corpus: corpus, runs: options.runs) { index in
      guard let report = try? ReportReader.read(data.contents[index]) else { return 1_000_003 }
      let threads = report.threads.count
      let result = Doctor.diagnose(consume report, rules: oracle[index])
      return checksum(result, threads: threads)
    }
  default:
    fatalError("unknown mode \(mode)\n\(usage)")
  }
}

/// A `SharedTexts` table per worker: worker `i` is the only user of table `i` while a timed run
/// lasts, and runs never overlap.
final class WorkerTexts: @unchecked Sendable {
  private let tables: [SharedTexts]
  init(count: Int) { tables = (0..<count).map { _ in SharedTexts() } }
  subscript(worker: Int) -> SharedTexts { tables[worker] }
}
