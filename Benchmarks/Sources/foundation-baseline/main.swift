// Foundation's JSONSerialization on the same files ips-doctor-bench reads: the header line and the
// body (everything after the first newline) parsed as two JSON documents. Parse-only: that is all
// it can do. Files whose body is not JSON (legacy text) fail fast and still count, as they do for
// every tool in the table.

import BenchSupport
import Foundation

let usage = "usage: foundation-baseline [--corpus DIR] [--runs N] [--jobs 1,2] [--limit FILES]"
let options = Options(arguments: CommandLine.arguments, usage: usage)
let corpus = Corpus(directory: options.corpus, limit: options.limit)
print("load\tfoundation\t\(corpus.count)\t\(corpus.totalBytes)\t\(corpus.loadSeconds)")

// Split and wrap in Data up front so only parsing is timed.
let parts: [(header: Data, body: Data)] = corpus.contents.map { bytes in
  let newline = bytes.firstIndex(of: 0x0A) ?? bytes.count
  let header = Data(bytes[0..<newline])
  let body = newline < bytes.count ? Data(bytes[(newline + 1)...]) : Data()
  return (header, body)
}

func parse(_ data: Data) -> Int {
  guard !data.isEmpty, let object = try? JSONSerialization.jsonObject(with: data, options: []) else { return 0 }
  return (object as? [String: Any])?.count ?? 1
}

var rejected = 0
for part in parts where parse(part.body) == 0 { rejected += 1 }
print("rejected\tfoundation\t\(rejected)")

let shared = parts
measure(tool: "foundation", mode: "parse", jobs: options.jobs, corpus: corpus, runs: options.runs) { index in
  let part = shared[index]
  return parse(part.header) &+ parse(part.body)
}
