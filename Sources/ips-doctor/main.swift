import IPSDoctorCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

func readFile(_ path: String) -> [UInt8]? {
  let fd = open(path, O_RDONLY)
  guard fd >= 0 else { return nil }
  defer { close(fd) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 65536)
  while true {
    let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, 65536) }
    if n <= 0 { break }
    bytes += chunk[0..<n]
  }
  return bytes
}

for path in CommandLine.arguments.dropFirst() {
  guard let bytes = readFile(path) else { print("\(path): cannot read"); continue }
  do {
    let r = try ReportReader.read(bytes)
    print("\(path): \(r.format) \(r.kind) bug=\(r.bugType?.rawValue ?? "-") exc=\(r.exception?.type ?? "-")/\(r.exception?.signal ?? "-") threads=\(r.threads.count) images=\(r.images.count) ft=\(r.faultingThread.map(String.init) ?? "-") warn=\(r.warnings.count) bodyErr=\(r.bodyError?.description ?? "-")")
    for w in r.warnings.prefix(3) { print("   warning: \(w)") }
    let result = Doctor.diagnose(r)
    for d in result.diagnoses { print("   => \(d.ruleID) [\(d.confidence)] \(d.summary)") }
    if result.isInconclusive { print("   => inconclusive: \(result.summary.exception ?? "-") / \(result.summary.reason ?? "-") / first app frame \(result.summary.firstAppFrame ?? "-")") }
    if let s = result.symbolication { for i in s.images { print("   atos: \(i.atos)") } }
  } catch {
    print("\(path): \(error)")
  }
}
