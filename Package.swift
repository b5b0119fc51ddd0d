// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "ips-doctor",
  // macOS 15: the standard library's `String(validating:as:)`, which the path display uses, is
  // there from macOS 15 on (and Swift 6.3's Xcode runs on macOS 15 or later).
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "ips-doctor", targets: ["ips-doctor"]),
    .library(name: "IPSDoctorCore", targets: ["IPSDoctorCore"]),
  ],
  dependencies: [],
  targets: [
    .target(
      name: "IPSDoctorCore",
      linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]
    ),
    .executableTarget(
      name: "ips-doctor",
      dependencies: ["IPSDoctorCore"],
      // On Linux, link the Swift runtime and libraries into the binary: the dynamic loader no
      // longer binds thousands of symbols at every start (see docs/performance.md).
      linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux]))]
    ),
    // Resources/ holds files the tests read by path (the SARIF schema), not bundle resources.
    .testTarget(name: "IPSDoctorCoreTests", dependencies: ["IPSDoctorCore"], exclude: ["Resources"]),
  ],
  swiftLanguageModes: [.v6]
)
