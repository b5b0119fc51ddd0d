import IPSDoctorCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

var environment: [String: String] = [:]
var entry = environ
while let pointer = entry.pointee {
  let text = String(cString: pointer)
  if let equals = text.firstIndex(of: "=") {
    environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
  }
  entry += 1
}
let status = CLI.run(Array(CommandLine.arguments.dropFirst()), environment: environment, io: ProcessIO())
exit(status.rawValue)
