import IPSDoctorSupport

/// A kernel panic (bug_type 210).
public struct PanicSummary: Sendable, Equatable {
  /// The full panic string.
  public var panicString: String?
  /// The first line of the panic string, e.g. "panic(cpu 4 caller 0x…): watchdog timeout: …".
  public var headline: String?
  /// e.g. "pid 0: kernel_task"
  public var panickedTask: String?
  public var panickedThread: String?
  public var product: String?
  public var build: String?

  public init() {}
}

/// A jetsam event (bug_type 298): the system killed processes to free memory.
public struct JetsamSummary: Sendable, Equatable {
  public struct Process: Sendable, Equatable {
    public var name: String?
    public var pid: Int?
    /// e.g. "per-process-limit", "vm-pageshortage", "highwater"
    public var reason: String?
    /// Resident pages.
    public var residentPages: UInt64?
    public var states: [String]

    public init(name: String? = nil) {
      self.name = name
      self.states = []
    }
  }

  public var pageSize: UInt64?
  public var largestProcess: String?
  public var processes: [Process]
  public var product: String?
  public var build: String?

  public init() {
    self.processes = []
  }

  /// The processes that were killed (those with a reason).
  public var killed: [Process] { processes.filter { $0.reason != nil } }

  /// Resident memory of `process` in bytes, when pages and the page size are known.
  public func residentBytes(_ process: Process) -> UInt64? {
    guard let pages = process.residentPages, let pageSize else { return nil }
    return pages.multipliedReportingOverflow(by: pageSize).overflow ? nil : pages * pageSize
  }
}

/// A stackshot (bug_type 288/188), usually taken for a hang or a slow event.
public struct StackshotSummary: Sendable, Equatable {
  public var reason: String?
  /// A legacy text stackshot's "Exception Code" line, e.g. "0xbaaaaaad".
  public var exceptionCode: String?
  public var product: String?
  public var build: String?
  public var processCount: Int?
  public var frontmostProcesses: [String]

  public init() {
    self.frontmostProcesses = []
  }
}

/// A resource report (CPU, disk writes, wakeups, user faults), often a text body of
/// "Key: value" lines.
public struct ResourceSummary: Sendable, Equatable {
  /// e.g. "cpu usage", "disk writes"
  public var event: String?
  /// e.g. "none"
  public var actionTaken: String?
  /// Every "Key: value" line of the body's header block, in order.
  public var fields: [Field]

  public struct Field: Sendable, Equatable {
    public var key: String
    public var value: String

    public init(key: String, value: String) {
      self.key = key
      self.value = value
    }
  }

  public init() {
    self.fields = []
  }

  public subscript(key: String) -> String? {
    fields.first(where: { $0.key == key })?.value
  }
}
