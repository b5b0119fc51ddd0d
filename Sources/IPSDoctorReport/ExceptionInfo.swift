import IPSDoctorSupport

/// The Mach exception (`exception` in JSON, "Exception Type/Codes/Subtype" in text).
package struct ExceptionInfo: Sendable, Equatable {
  /// e.g. "EXC_BAD_ACCESS"
  package var type: String?
  /// e.g. "SIGSEGV"
  package var signal: String?
  /// e.g. "0x0000000000000001, 0x0000000000000000"
  package var codes: String?
  package var rawCodes: [UInt64]
  /// e.g. "KERN_INVALID_ADDRESS at 0x0000000000000010"
  package var subtype: String?
  package var message: String?
  /// The Exception Note lines of a legacy report (EXC_CORPSE_NOTIFY, NON-FATAL CONDITION, …).
  package var notes: [String]

  // The JSON reader uses the memberwise initialiser (see ``Frame``); the public one is below.
}

extension ExceptionInfo {
  package init(type: String? = nil, signal: String? = nil) {
    self.init(type: type, signal: signal, codes: nil, rawCodes: [], subtype: nil, message: nil, notes: [])
  }

  /// The address after "at" in the subtype ("KERN_INVALID_ADDRESS at 0x10" → 0x10).
  package var faultAddress: UInt64? {
    guard let subtype, let range = subtype.prefilteredFirstRange(of: " at 0x") else { return nil }
    let digits = subtype[range.upperBound...].prefix(while: \.isHexDigit)
    return UInt64(digits, radix: 16)
  }
}

/// The language exception (`exceptionReason`), e.g. an uncaught `NSException`.
package struct ExceptionReason: Sendable, Equatable {
  /// e.g. "NSInternalInconsistencyException"
  package var name: String?
  /// e.g. "objc-exception"
  package var type: String?
  /// e.g. "NSException"
  package var className: String?
  package var composedMessage: String?
  package var formatString: String?
  package var arguments: [String]

  package init(name: String? = nil, composedMessage: String? = nil) {
    self.name = name
    self.composedMessage = composedMessage
    self.arguments = []
  }
}

/// Why the OS ended the process (`termination` in JSON, "Termination Reason" in text).
package struct Termination: Sendable, Equatable {
  /// e.g. "SIGNAL", "FRONTBOARD", "RUNNINGBOARD", "DYLD", "CODESIGNING", "TCC"
  package var namespace: String?
  /// e.g. 0x8badf00d
  package var code: UInt64?
  /// e.g. "Abort trap: 6", "Library missing"
  package var indicator: String?
  package var reasons: [String]
  package var details: [String]
  package var byProc: String?
  package var byPid: Int?
  package var flags: UInt64?

  // The JSON reader uses the memberwise initialiser (see ``Frame``); the public one is below.
}

extension Termination {
  package init(namespace: String? = nil, code: UInt64? = nil) {
    self.init(
      namespace: namespace, code: code, indicator: nil, reasons: [], details: [], byProc: nil, byPid: nil,
      flags: nil)
  }

  /// The code as Apple writes it in text reports: `0x8badf00d`.
  package var hexCode: String? {
    code.map { "0x" + String($0, radix: 16) }
  }

  /// Reasons, details and indicator together, for text matching.
  package var allText: [String] {
    reasons + details + (indicator.map { [$0] } ?? [])
  }
}

package struct ApplicationSpecificInfo: Sendable, Equatable {
  /// The image that wrote the lines (the JSON key), when known.
  package var image: String?
  package var lines: [String]

  package init(image: String?, lines: [String]) {
    self.image = image
    self.lines = lines
  }
}
