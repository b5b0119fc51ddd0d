import IPSDoctorSupport

public struct CrashThread: Sendable, Equatable {
  /// Position in the report's thread list ("Thread N").
  package var index: Int
  /// The kernel thread id.
  package var id: UInt64?
  package var name: String?
  /// The dispatch queue label, e.g. "com.apple.main-thread".
  package var queue: String?
  package var triggered: Bool
  package var frames: [Frame]
  package var state: ThreadState?

  // The JSON reader uses the memberwise initialiser (see ``Frame``); the public one is below.
}

extension CrashThread {
  package init(index: Int, frames: [Frame] = []) {
    self.init(index: index, id: nil, name: nil, queue: nil, triggered: false, frames: frames, state: nil)
  }

  package var isMainThread: Bool {
    queue == "com.apple.main-thread" || name == "com.apple.main-thread"
      || (index == 0 && queue == nil && name == nil)
  }

  /// Whether the thread was running a job of the Swift concurrency cooperative pool.
  package var isOnCooperativeQueue: Bool {
    queue?.hasSuffix(".cooperative") ?? false
  }
}

/// Registers of the crashed thread. Values are exact 64-bit numbers.
package struct ThreadState: Sendable, Equatable {
  package struct Register: Sendable, Equatable {
    package var name: String
    package var value: UInt64
    package var symbol: String?

    package init(name: String, value: UInt64, symbol: String? = nil) {
      self.name = name
      self.value = value
      self.symbol = symbol
    }
  }

  /// e.g. "ARM_THREAD_STATE64", "x86_THREAD_STATE"
  package var flavor: String?
  package var registers: [Register]
  /// The exception syndrome's description on ARM, e.g. "(Data Abort) byte read Translation fault".
  package var esrDescription: String?

  package init(flavor: String? = nil, registers: [Register] = []) {
    self.flavor = flavor
    self.registers = registers
  }

  package subscript(name: String) -> UInt64? {
    registers.first(where: { $0.name == name })?.value
  }
}

/// One stack frame (`threads[].frames[]` or `lastExceptionBacktrace[]`).
package struct Frame: Sendable, Equatable {
  package var imageIndex: Int?
  /// pc − image base
  package var imageOffset: UInt64?
  /// The symbol exactly as the report wrote it (simplified demangled, full, or mangled).
  package var symbol: String?
  /// Offset from the symbol's start ("+ N").
  package var symbolLocation: UInt64?
  package var sourceFile: String?
  package var sourceLine: Int?
  package var isInline: Bool
  /// The image's name, resolved from ``imageIndex`` (JSON) or read from the line (text).
  package var imageName: String?
  /// The absolute address: image base + offset, or as written in a text report.
  package var address: UInt64?

  // The readers make a frame whole, with the memberwise initialiser; the public one is in an
  // extension so that the memberwise one stays (docs/performance-history.md, 'Structs built
  // whole, not field by field').
}

extension Frame {
  package init(
    imageIndex: Int? = nil, imageOffset: UInt64? = nil, symbol: String? = nil,
    symbolLocation: UInt64? = nil, imageName: String? = nil, address: UInt64? = nil
  ) {
    self.init(
      imageIndex: imageIndex, imageOffset: imageOffset, symbol: symbol, symbolLocation: symbolLocation,
      sourceFile: nil, sourceLine: nil, isInline: false, imageName: imageName, address: address)
  }

  /// Whether the frame has a symbol other than empty or `???`, i.e. whether `symbolName` is not
  /// `nil`, without making it (and demangling it) to find out.
  package var hasSymbolText: Bool {
    guard let symbol else { return false }
    return !symbol.isEmpty && symbol != "???"
  }
}
