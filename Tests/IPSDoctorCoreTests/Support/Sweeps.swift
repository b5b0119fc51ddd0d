import Foundation

/// The robustness sweeps' size. `swift test` runs a sample of each sweep, so the everyday loop
/// stays short; `.ci/run` sets `IPS_DOCTOR_SWEEPS=1` for the full sweeps. Both sizes are fixed
/// counts, never time budgets: what a run covers does not depend on the machine's load.
enum Sweeps {
  static let full = ProcessInfo.processInfo.environment["IPS_DOCTOR_SWEEPS"] == "1"

  /// `count` in a full sweep, `sample` otherwise.
  static func size(_ count: Int, sample: Int) -> Int { full ? count : min(count, sample) }

  /// Every element in a full sweep; otherwise every `stride`th, first and last included.
  static func sample<T>(_ elements: [T], every stride: Int) -> [T] {
    guard !full, elements.count > 2 else { return elements }
    var picked = Swift.stride(from: 0, to: elements.count, by: stride).map { elements[$0] }
    if (elements.count - 1) % stride != 0, let last = elements.last { picked.append(last) }
    return picked
  }
}
