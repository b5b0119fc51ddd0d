import IPSDoctorSupport

/// The Mach exception (`exception` in JSON, "Exception Type/Codes/Subtype" in text).
public struct ExceptionInfo: Sendable, Equatable {
  /// e.g. "EXC_BAD_ACCESS"
  public var type: String?
  /// e.g. "SIGSEGV"
  public var signal: String?
  /// e.g. "0x0000000000000001, 0x0000000000000000"
  public var codes: String?
  public var rawCodes: [UInt64]
  /// e.g. "KERN_INVALID_ADDRESS at 0x0000000000000010"
  public var subtype: String?
  public var message: String?
  /// The Exception Note lines of a legacy report (EXC_CORPSE_NOTIFY, NON-FATAL CONDITION, …).
  public var notes: [String]

  // The JSON reader uses the memberwise initialiser (see ``Frame``); the public one is below.
}

extension ExceptionInfo {
  public init(type: String? = nil, signal: String? = nil) {
    self.init(type: type, signal: signal, codes: nil, rawCodes: [], subtype: nil, message: nil, notes: [])
  }

  /// The address after "at" in the subtype ("KERN_INVALID_ADDRESS at 0x10" → 0x10).
  public var faultAddress: UInt64? {
    guard let subtype, let range = subtype.prefilteredFirstRange(of: " at 0x") else { return nil }
    let digits = subtype[range.upperBound...].prefix(while: \.isHexDigit)
    return UInt64(digits, radix: 16)
  }
}

/// The language exception (`exceptionReason`), e.g. an uncaught `NSException`.
public struct ExceptionReason: Sendable, Equatable {
  /// e.g. "NSInternalInconsistencyException"
  public var name: String?
  /// e.g. "objc-exception"
  public var type: String?
  /// e.g. "NSException"
  public var className: String?
  public var composedMessage: String?
  public var formatString: String?
  public var arguments: [String]

  public init(name: String? = nil, composedMessage: String? = nil) {
    self.name = name
    self.composedMessage = composedMessage
    self.arguments = []
  }
}

/// Why the OS ended the process (`termination` in JSON, "Termination Reason" in text).
public struct Termination: Sendable, Equatable {
  /// e.g. "SIGNAL", "FRONTBOARD", "RUNNINGBOARD", "DYLD", "CODESIGNING", "TCC"
  public var namespace: String?
  /// e.g. 0x8badf00d
  public var code: UInt64?
  /// e.g. "Abort trap: 6", "Library missing"
  public var indicator: String?
  public var reasons: [String]
  public var details: [String]
  public var byProc: String?
  public var byPid: Int?
  public var flags: UInt64?

  // The JSON reader uses the memberwise initialiser (see ``Frame``); the public one is below.
}

extension Termination {
  public init(namespace: String? = nil, code: UInt64? = nil) {
    self.init(
      namespace: namespace, code: code, indicator: nil, reasons: [], details: [], byProc: nil, byPid: nil,
      flags: nil)
  }

  /// The code as Apple writes it in text reports: `0x8badf00d`.
  public var hexCode: String? {
    code.map { "0x" + String($0, radix: 16) }
  }

  /// Reasons, details and indicator together, for text matching.
  public var allText: [String] {
    reasons + details + (indicator.map { [$0] } ?? [])
  }
}

public struct ApplicationSpecificInfo: Sendable, Equatable {
  /// The image that wrote the lines (the JSON key), when known.
  public var image: String?
  public var lines: [String]

  public init(image: String?, lines: [String]) {
    self.image = image
    self.lines = lines
  }
}
