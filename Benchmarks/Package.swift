// swift-tools-version:6.0
// The benchmark harness lives in its own package so the root package stays dependency-free and fast
// to build. Run everything with `Benchmarks/run.sh`; see docs/performance.md.
import PackageDescription

let package = Package(
  name: "ips-doctor-benchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "ips-doctor", path: "..")],
  targets: [
    // Corpus loading, 1-job/N-job timing loops, medians, result lines.
    .target(name: "BenchSupport"),
    // Times ReportReader.read and Doctor.diagnose over a corpus, 1 job and N jobs.
    .executableTarget(
      name: "ips-doctor-bench",
      dependencies: ["BenchSupport", .product(name: "IPSDoctorCore", package: "ips-doctor")]
    ),
    // Foundation's JSONSerialization on the same bytes: the baseline ips-doctor must beat.
    .executableTarget(name: "foundation-baseline", dependencies: ["BenchSupport"]),
    // A trivial program: the floor for process start-up.
    .executableTarget(name: "hello"),
  ],
  swiftLanguageModes: [.v6]
)
