import IPSDoctorReport

/// A Rust panic in a backtrace. A Rust binary links its standard library in, so the frames of the
/// panic machinery are in the app's own image; they are the same for every panic and say nothing
/// about where it happened. Below them come the standard library's panic function
/// (`core::panicking::panic_null_pointer_dereference`, `core::option::unwrap_failed`, …) and then
/// the code that called it: the panic's location.
///
/// Frames, top down: `abort`, `std::sys::…abort_internal`, `std::process::abort`,
/// `std::panicking::…`, `rust_begin_unwind`, `core::panicking::panic_nounwind_fmt` (machinery),
/// `core::panicking::panic_null_pointer_dereference` (``panicFunction``),
/// `tao::…::send_event` (``location``).
struct RustPanic {
  /// Index of the standard library function that panicked.
  var panicFunction: Int
  /// Index of the first frame below it outside Rust's standard library, when there is one.
  var location: Int?

  /// The panic starting at `start` (the frame below `abort`), when the frames there are Rust's
  /// panic machinery.
  static func find(in frames: [Frame], from start: Int, name: (Frame) -> String?) -> RustPanic? {
    var index = start
    var sawMachinery = false
    while index < frames.count, let symbol = name(frames[index]), isMachinery(symbol) {
      sawMachinery = true
      index += 1
    }
    guard sawMachinery, index < frames.count else { return nil }
    var panicFunction = index - 1
    if let symbol = name(frames[index]), isStandardLibrary(symbol) { panicFunction = index }
    var location = panicFunction + 1
    while location < frames.count, let symbol = name(frames[location]), isStandardLibrary(symbol) {
      location += 1
    }
    return RustPanic(panicFunction: panicFunction, location: location < frames.count ? location : nil)
  }

  /// The frames every panic runs through between the panic function and `abort`.
  static func isMachinery(_ name: String) -> Bool {
    guard mayBeStandardLibrary(name) else { return false }
    return machineryPrefixes.contains { name.hasPrefix($0) } || name.contains("rust_begin_unwind")
      || name.contains("__rust_start_panic") || name.contains("__rust_end_short_backtrace")
  }

  /// Whether `name` can be a frame of Rust's standard library at all: a path in `std`, `core`,
  /// `alloc` or `panic_abort`, or one of the runtime's unmangled `rust_` symbols.
  private static func mayBeStandardLibrary(_ name: String) -> Bool {
    name.hasPrefix("std::") || name.hasPrefix("core::") || name.hasPrefix("panic_abort::")
      || name.hasPrefix("alloc::") || name.contains("rust_")
  }

  static let machineryPrefixes = [
    "std::sys::", "std::sys_common::", "std::process::abort", "std::panicking::", "std::rt::", "panic_abort::",
    "__rust_", "core::panicking::panic_fmt", "core::panicking::panic_nounwind_fmt",
  ]

  /// A frame of the panic machinery or of the standard library's functions that panic for the
  /// caller (failed unwraps, bounds and precondition checks).
  static func isLibraryFrame(_ name: String) -> Bool {
    guard mayBeStandardLibrary(name) else { return false }
    return isMachinery(name) || failurePrefixes.contains { name.hasPrefix($0) }
  }

  static let failurePrefixes = [
    "core::panicking::", "core::option::unwrap_failed", "core::option::expect_failed",
    "core::result::unwrap_failed", "core::slice::index::", "core::str::slice_error_fail",
  ]

  private static func isStandardLibrary(_ name: String) -> Bool {
    name.hasPrefix("core::") || name.hasPrefix("std::") || name.hasPrefix("alloc::")
  }
}
