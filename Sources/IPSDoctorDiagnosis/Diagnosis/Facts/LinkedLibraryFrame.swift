import IPSDoctorSupport

/// Frames of a language's standard library that the compiler placed in the app's own image: Rust's
/// panic machinery and failing checks, libc++'s templates, and libc++'s assertion messages (a
/// hardened libc++ names an inlined frame after the failed check, e.g.
/// `…/c++/v1/vector:1393: assertion __n < size() failed: vector[] index out of bounds`). They are
/// the app's by image and the library's by code, shared by every crash that passes through them:
/// what the app did is the first frame below them, which leads the summary and keys the group.
enum LinkedLibraryFrame {
  static func contains(_ name: String) -> Bool {
    RustPanic.isLibraryFrame(name) || isLibcxx(name)
  }

  /// libc++'s versioned namespaces and helpers, and its assertion messages.
  static func isLibcxx(_ name: String) -> Bool {
    name.hasPrefix("std::__1::") || name.hasPrefix("std::__2::") || name.hasPrefix("std::__libcpp_")
      || isAssertionMessage(name)
  }

  static func isAssertionMessage(_ name: String) -> Bool {
    name.utf8Contains(": assertion ") && name.utf8Contains(" failed")
  }
}
