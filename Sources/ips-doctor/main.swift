import IPSDoctorCLI

#if canImport(Glibc)
  import Glibc
  let variables = environ

  /// `mallopt(3)`, which the Glibc module does not export (it is declared in `<malloc.h>`).
  @_silgen_name("mallopt")
  func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32

  // As many malloc arenas as cores (the default number of jobs). glibc otherwise opens arenas up
  // to eight per core whenever threads contend for one, and each arena keeps its own freed pages:
  // peak RSS over a folder then grew with the length of the run (15.7 MB at 1,000 reports, 17.8 MB
  // at 10,000). One arena for every thread kept it flat but made the workers queue on its lock:
  // with 2 cores, `-j 2` over 10,000 reports took 2.32 s with one arena and 1.81 s with two, at
  // 14.1 and 14.9 MB peak (14.2 and 14.9 MB at 1,000 reports: flat either way). `M_ARENA_MAX` is
  // -8. MALLOC_ARENA_MAX in the environment still wins, as glibc reads it at the first allocation.
  if getenv("MALLOC_ARENA_MAX") == nil {
    let cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    _ = glibcMallopt(-8, Int32(truncatingIfNeeded: min(cores, 64)))
  }
#elseif canImport(Darwin)
  import Darwin
  let variables = _NSGetEnviron()!.pointee
#endif

exit(CLI.main(argc: CommandLine.argc, argv: CommandLine.unsafeArgv, environment: variables))
