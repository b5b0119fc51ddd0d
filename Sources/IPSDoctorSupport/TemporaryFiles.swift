import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The temporary files the process has beside its outputs, as C paths in a fixed table, so that a
/// signal that ends the process removes them: the handler only reads the table, calls `unlink`
/// (async-signal-safe) and re-raises the signal with its default action.
///
/// Invariants: a slot is `free`, `writing` (its owner fills or empties the path), `armed` (the
/// path is complete and the file may exist) or `unlinking` (a handler owns it until the process
/// dies). Only a thread that moved a slot from `free` to `writing` writes its bytes, and only a
/// handler that moved it from `armed` to `unlinking` reads them, so a handler never reads a path
/// being written, whichever thread it runs on. A path longer than a slot, or a path when every
/// slot is taken, is not registered (its file is then left by a signal, as before).
package enum TemporaryFiles {
  static let slotCount = 64
  static let slotBytes = 4096

  private static let free = 0
  private static let writing = 1
  private static let armed = 2
  private static let unlinking = 3

  /// The table: a state and a NUL-terminated path per slot, allocated once, never freed.
  private final class Table: @unchecked Sendable {
    let states: UnsafeMutablePointer<Atomic<Int>>
    let paths: UnsafeMutablePointer<CChar>

    init() {
      states = .allocate(capacity: TemporaryFiles.slotCount)
      for index in 0..<TemporaryFiles.slotCount { (states + index).initialize(to: Atomic(TemporaryFiles.free)) }
      paths = .allocate(capacity: TemporaryFiles.slotCount * TemporaryFiles.slotBytes)
      paths.initialize(repeating: 0, count: TemporaryFiles.slotCount * TemporaryFiles.slotBytes)
    }
  }

  private static let table = Table()

  /// A registered temporary file: give it back with ``unregister(_:)`` once it was renamed or
  /// removed.
  package struct Registration: Sendable {
    fileprivate let slot: Int?
  }

  /// Registers `path` for removal if a signal ends the process.
  package static func register(_ path: PathName) -> Registration {
    guard path.bytes.count < slotBytes, !path.bytes.contains(0) else { return Registration(slot: nil) }
    for slot in 0..<slotCount {
      guard
        table.states[slot].compareExchange(expected: free, desired: writing, ordering: .acquiring).exchanged
      else { continue }
      let start = table.paths + slot * slotBytes
      for (offset, byte) in path.bytes.enumerated() { start[offset] = CChar(bitPattern: byte) }
      start[path.bytes.count] = 0
      table.states[slot].store(armed, ordering: .releasing)
      return Registration(slot: slot)
    }
    return Registration(slot: nil)
  }

  /// Forgets a registered path (after its file was renamed or removed: a signal in between only
  /// unlinks a name that no longer exists).
  package static func unregister(_ registration: Registration) {
    guard let slot = registration.slot else { return }
    // Fails only when a handler owns the slot: the process is ending and the handler removes it.
    _ = table.states[slot].compareExchange(expected: armed, desired: free, ordering: .acquiringAndReleasing)
  }

  /// Removes every registered file. Called from a signal handler: touches only the table and
  /// `unlink`.
  static func unlinkAll() {
    for slot in 0..<slotCount {
      guard
        table.states[slot].compareExchange(expected: armed, desired: unlinking, ordering: .acquiring).exchanged
      else { continue }
      unlink(table.paths + slot * slotBytes)
    }
  }

  /// The signals that end the process by default and that a user or a CI runner sends to stop it.
  static let endingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

  /// Installs the handlers that remove the registered files on the ending signals, then end the
  /// process by the same signal (its default action, so the parent sees how it ended). A signal
  /// the process was started ignoring (`nohup`) stays ignored. Call once, before any output.
  package static func installSignalHandlers() {
    _ = table  // allocated now, not inside a handler
    for signal in endingSignals {
      var previous = sigaction()
      guard sigaction(signal, nil, &previous) == 0, !Self.isIgnored(previous) else { continue }
      var action = sigaction()
      Self.setHandler(&action)
      sigemptyset(&action.sa_mask)
      for other in endingSignals { sigaddset(&action.sa_mask, other) }
      action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND)
      sigaction(signal, &action, nil)
    }
  }

  /// Ignores `SIGPIPE`: a write to a closed pipe then fails with `EPIPE`, which the writers report,
  /// instead of ending the process before the output files are complete.
  package static func ignoreBrokenPipe() {
    signal(SIGPIPE, SIG_IGN)
  }

  private static func isIgnored(_ action: sigaction) -> Bool {
    #if canImport(Glibc)
      let handler = action.__sigaction_handler.sa_handler
    #else
      let handler = action.__sigaction_u.__sa_handler
    #endif
    return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
  }

  private static func setHandler(_ action: inout sigaction) {
    let handler: @convention(c) (Int32) -> Void = { signal in
      TemporaryFiles.unlinkAll()
      // SA_RESETHAND restored the default action; the signal is blocked until the handler
      // returns, and then ends the process.
      raise(signal)
    }
    #if canImport(Glibc)
      action.__sigaction_handler.sa_handler = handler
    #else
      action.__sigaction_u.__sa_handler = handler
    #endif
  }
}
