import IPSDoctorCore

#if canImport(Glibc)
  import Glibc
  let variables = environ

  /// `mallopt(3)`, which the Glibc module does not export (it is declared in `<malloc.h>`).
  @_silgen_name("mallopt")
  func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32

  // One malloc arena for every thread. glibc otherwise opens a new arena whenever two workers
  // contend for one, and each arena keeps its own freed pages: peak RSS over a folder then grew
  // with the length of the run (15.7 MB at 1,000 reports, 17.8 MB at 10,000; with one arena
  // 15.3 MB and 16.5 MB, at the same speed). `M_ARENA_MAX` is -8. MALLOC_ARENA_MAX in the
  // environment still wins, as glibc reads it at the first allocation.
  if getenv("MALLOC_ARENA_MAX") == nil { _ = glibcMallopt(-8, 1) }
#elseif canImport(Darwin)
  import Darwin
  let variables = _NSGetEnviron()!.pointee
#endif

let status = CLI.run(
  Array(CommandLine.arguments.dropFirst()), environment: CLI.environment(variables), io: ProcessIO())
exit(status.rawValue)
