// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "ips-doctor",
  platforms: [.macOS(.v13)],
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
    .executableTarget(name: "ips-doctor", dependencies: ["IPSDoctorCore"]),
    .testTarget(name: "IPSDoctorCoreTests", dependencies: ["IPSDoctorCore"]),
  ],
  swiftLanguageModes: [.v6]
)
