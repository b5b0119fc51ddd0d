// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "ips-doctor",
  // macOS 15: the standard library's `String(validating:as:)`, which the path display uses, is
  // there from macOS 15 on (and Swift 6.3's Xcode runs on macOS 15 or later).
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "ips-doctor", targets: ["ips-doctor"]),
    // The layers, for the benchmark and the fuzz harness (a sibling package and a script); they
    // promise no stable API to anyone else.
    .library(
      name: "IPSDoctorCore",
      targets: [
        "IPSDoctorSupport", "IPSDoctorJSON", "IPSDoctorReport", "IPSDoctorDiagnosis", "IPSDoctorSymbolication",
        "IPSDoctorBatch", "IPSDoctorOutput", "IPSDoctorCheck", "IPSDoctorCLI",
      ]
    ),
  ],
  dependencies: [],
  // One target per layer; each imports only the layers below it (README, "Development").
  targets: [
    // Bytes, text escaping, paths and files (POSIX), a mutex: what every layer uses.
    .target(
      name: "IPSDoctorSupport",
      linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]
    ),
    // The JSON parser (a tape over the input bytes), the value tree and the writer.
    .target(name: "IPSDoctorJSON", dependencies: ["IPSDoctorSupport"]),
    // The crash report model and its readers (`.ips` JSON and legacy text), and the legacy renderer.
    .target(name: "IPSDoctorReport", dependencies: ["IPSDoctorJSON", "IPSDoctorSupport"]),
    // Facts about a report, the rules, and the engine that runs them (`Doctor`).
    .target(
      name: "IPSDoctorDiagnosis",
      dependencies: ["IPSDoctorReport", "IPSDoctorSupport"]
    ),
    // dSYMs and Mach-O files: symbol tables, DWARF, and rewriting a report's frames.
    .target(
      name: "IPSDoctorSymbolication",
      dependencies: ["IPSDoctorReport", "IPSDoctorJSON", "IPSDoctorSupport"]
    ),
    // The run configuration, finding inputs, reading and diagnosing them in parallel, crash groups
    // and baselines.
    .target(
      name: "IPSDoctorBatch",
      dependencies: [
        "IPSDoctorSymbolication", "IPSDoctorDiagnosis", "IPSDoctorReport", "IPSDoctorJSON", "IPSDoctorSupport",
      ]
    ),
    // The reporters: text, JSON, JSON Lines, SARIF, JUnit, GitHub, Markdown.
    .target(
      name: "IPSDoctorOutput",
      dependencies: [
        "IPSDoctorBatch", "IPSDoctorDiagnosis", "IPSDoctorReport", "IPSDoctorJSON", "IPSDoctorSupport",
      ]
    ),
    // `check`: the Swift source scanner for completion-handler delegate methods.
    .target(
      name: "IPSDoctorCheck",
      dependencies: [
        "IPSDoctorOutput", "IPSDoctorBatch", "IPSDoctorDiagnosis", "IPSDoctorReport", "IPSDoctorJSON",
        "IPSDoctorSupport",
      ]
    ),
    // The command line: arguments, commands, help, output files.
    .target(
      name: "IPSDoctorCLI",
      dependencies: [
        "IPSDoctorCheck", "IPSDoctorOutput", "IPSDoctorBatch", "IPSDoctorSymbolication", "IPSDoctorDiagnosis",
        "IPSDoctorReport", "IPSDoctorJSON", "IPSDoctorSupport",
      ]
    ),
    .executableTarget(
      name: "ips-doctor",
      dependencies: ["IPSDoctorCLI"],
      // On Linux, link the Swift runtime and libraries into the binary: the dynamic loader no
      // longer binds thousands of symbols at every start (see docs/performance.md).
      linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux]))]
    ),
    // Resources/ holds files the tests read by path (the SARIF schema), not bundle resources.
    .testTarget(
      name: "IPSDoctorCoreTests",
      dependencies: [
        "IPSDoctorCLI", "IPSDoctorCheck", "IPSDoctorOutput", "IPSDoctorBatch", "IPSDoctorSymbolication",
        "IPSDoctorDiagnosis", "IPSDoctorReport", "IPSDoctorJSON", "IPSDoctorSupport",
      ],
      exclude: ["Resources"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
