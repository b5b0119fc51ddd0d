import IPSDoctorCore

#if canImport(Glibc)
  import Glibc
  let variables = environ
#elseif canImport(Darwin)
  import Darwin
  let variables = _NSGetEnviron()!.pointee
#endif

let status = CLI.run(
  Array(CommandLine.arguments.dropFirst()), environment: CLI.environment(variables), io: ProcessIO())
exit(status.rawValue)
