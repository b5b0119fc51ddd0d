/// What differs between the systems ips-doctor runs on, each as a fact the layers ask for by
/// name. `docs/platforms.md` says where each system declares what is used here.
package enum Platform {
  /// The process's environment, as the C library keeps it (`environ`: `<unistd.h>` on Linux, the
  /// Darwin overlay's `environ` on Apple systems).
  package static var environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> { environ }

  /// Where the system keeps the crash reports of the user whose home is `home`: macOS's
  /// `~/Library/Logs/DiagnosticReports`; `nil` on systems that keep none.
  package static func crashReportFolder(home: String?) -> String? {
    #if os(macOS)
      guard let home, !home.isEmpty else { return nil }
      return home + "/Library/Logs/DiagnosticReports"
    #else
      return nil
    #endif
  }

  /// Whether the system has Spotlight's `mdfind`, which knows where Xcode's dSYMs are.
  package static var hasSpotlight: Bool {
    #if os(macOS)
      return true
    #else
      return false
    #endif
  }

  /// The path prefixes that name an open descriptor of this process by number (`/dev/fd/N`,
  /// and on Linux `/proc/self/fd/N`).
  package static let descriptorPathPrefixes: [String] = {
    #if os(Linux)
      return ["/dev/fd/", "/proc/self/fd/"]
    #else
      return ["/dev/fd/"]
    #endif
  }()

  /// Gives the C allocator as many arenas as cores, on glibc; elsewhere nothing to do.
  ///
  /// glibc opens arenas up to eight per core whenever threads contend for one, and each keeps its
  /// own freed pages, so a long run's peak memory grew with its length; one arena for every
  /// thread made the workers queue on its lock. `MALLOC_ARENA_MAX` in the environment still wins.
  package static func tuneAllocator() {
    #if canImport(Glibc)
      if getenv("MALLOC_ARENA_MAX") == nil {
        let cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        _ = glibcMallopt(glibcArenaMax, Int32(truncatingIfNeeded: min(cores, 64)))
      }
    #endif
  }
}

#if canImport(Glibc)
  /// `M_ARENA_MAX` of `<malloc.h>`, which the Glibc module does not export.
  private let glibcArenaMax: Int32 = -8

  /// `mallopt(3)`, declared in `<malloc.h>`, which the Glibc module does not export.
  @_silgen_name("mallopt")
  private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif
