import IPSDoctorSupport

/// A kernel panic (bug_type 210).
package struct PanicSummary: Sendable, Equatable {
  /// The full panic string.
  package var panicString: String?
  /// The first line of the panic string, e.g. "panic(cpu 4 caller 0x…): watchdog timeout: …".
  package var headline: String?
  /// e.g. "pid 0: kernel_task"
  package var panickedTask: String?
  package var panickedThread: String?
  package var product: String?
  package var build: String?

  package init() {}
}

/// A jetsam event (bug_type 298): the system killed processes to free memory.
package struct JetsamSummary: Sendable, Equatable {
  package struct Process: Sendable, Equatable {
    package var name: String?
    package var pid: Int?
    /// e.g. "per-process-limit", "vm-pageshortage", "highwater"
    package var reason: String?
    /// Resident pages.
    package var residentPages: UInt64?
    package var states: [String]

    package init(name: String? = nil) {
      self.name = name
      self.states = []
    }
  }

  package var pageSize: UInt64?
  package var largestProcess: String?
  package var processes: [Process]
  package var product: String?
  package var build: String?

  package init() {
    self.processes = []
  }

  /// The processes that were killed (those with a reason).
  package var killed: [Process] { processes.filter { $0.reason != nil } }

  /// Resident memory of `process` in bytes, when pages and the page size are known.
  package func residentBytes(_ process: Process) -> UInt64? {
    guard let pages = process.residentPages, let pageSize else { return nil }
    return pages.multipliedReportingOverflow(by: pageSize).overflow ? nil : pages * pageSize
  }
}

/// A stackshot (bug_type 288/188), usually taken for a hang or a slow event.
package struct StackshotSummary: Sendable, Equatable {
  package var reason: String?
  /// A legacy text stackshot's "Exception Code" line, e.g. "0xbaaaaaad".
  package var exceptionCode: String?
  package var product: String?
  package var build: String?
  package var processCount: Int?
  package var frontmostProcesses: [String]

  package init() {
    self.frontmostProcesses = []
  }
}

/// A resource report (CPU, disk writes, wakeups, user faults), often a text body of
/// "Key: value" lines.
package struct ResourceSummary: Sendable, Equatable {
  /// e.g. "cpu usage", "disk writes"
  package var event: String?
  /// e.g. "none"
  package var actionTaken: String?
  /// What the system measured, when the report says it in a way a reader can name (MetricKit's
  /// diagnostic lists do); `nil` otherwise.
  package var measure: Measure?
  /// Every "Key: value" line of the body's header block, in order.
  package var fields: [Field]

  package struct Field: Sendable, Equatable {
    package var key: String
    package var value: String

    package init(key: String, value: String) {
      self.key = key
      self.value = value
    }
  }

  /// A kind of resource report.
  package enum Measure: String, Sendable, Equatable {
    /// The main thread did not respond to events for a while (MetricKit's hang diagnostic).
    case hang
    /// The process used more CPU time than allowed.
    case cpu
    /// The process wrote more to storage than allowed.
    case diskWrites = "disk-writes"
    /// The app took long to launch.
    case launch

    /// The measure an event's text names, as resource reports and `show` write it: "hang (4.20
    /// sec)", "cpu usage", "CPU exception (…)", "disk writes"; `nil` for any other event.
    package init?(event: String) {
      let words = event.lowercased().split(separator: " ")
      switch words.first {
      case "hang": self = .hang
      case "cpu": self = .cpu
      case "disk" where words.dropFirst().first == "writes": self = .diskWrites
      default: return nil
      }
    }
  }

  package init() {
    self.fields = []
  }

  package subscript(key: String) -> String? {
    fields.first(where: { $0.key == key })?.value
  }
}
