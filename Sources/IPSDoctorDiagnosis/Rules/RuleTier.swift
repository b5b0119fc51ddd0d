/// How precisely a rule names a crash's cause. Among findings of equal confidence, the higher tier
/// comes first: the exact cause before its family, the family before the catch-all.
package enum RuleTier: Int, Sendable, Comparable, CaseIterable {
  /// Names the kind of crash, not its cause: an uncaught Objective-C exception, `abort()`, an
  /// invalid address, a trap without a message. Under a more precise finding it adds nothing
  /// (``RuleCatalog/alternatives(_:)`` leaves it out).
  case fallback
  /// Names a family of causes, or summarises a report kind without naming a cause: a fatal error
  /// with its message, a signal, a protection fault, a jetsam event.
  case family
  /// Names a cause from one signature: an exception's name, a runtime message, an exception code.
  case specific
  /// Names a cause that the report states outright or that one combination of evidence pins down:
  /// a watchdog's termination code, a missing library, a concurrency check naming its actor.
  case exact

  package static func < (lhs: RuleTier, rhs: RuleTier) -> Bool { lhs.rawValue < rhs.rawValue }
}
