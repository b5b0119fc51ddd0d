import IPSDoctorSupport

// Reports that are not crashes: jetsam events, panics, stackshots, watchdog and resource reports.
// Each builder names what such a report is about and writes the body its reader reads
// (`CrashReport.apply(jetsamBody:…)`, `apply(panicBody:…)`, `apply(stackshotBody:…)`,
// `apply(genericBody:…)`, and the legacy text reader for resource reports' "Key: value" lines).

extension ExampleReport {
  /// One process of a jetsam event report: its resident pages, why jetsam killed it (`nil` when it
  /// did not) and its states ("frontmost", "suspended", "daemon", …).
  package struct JetsamProcess: Sendable {
    package var name: String
    package var pid: Int
    package var residentPages: Int
    package var reason: String?
    package var states: [String]?

    package init(_ name: String, pid: Int, residentPages: Int, reason: String? = nil, states: [String]? = nil) {
      self.name = name
      self.pid = pid
      self.residentPages = residentPages
      self.reason = reason
      self.states = states
    }
  }

  /// A jetsam event report (bug_type 298) with the memory page size, the largest process and
  /// `processes`.
  package static func jetsam(pageSize: Int, largestProcess: String, processes: [JetsamProcess]) -> ExampleReport {
    let entries = processes.map { process in
      var fields = [
        #""name":"# + quoted(process.name), #""pid":\#(process.pid)"#, #""rpages":\#(process.residentPages)"#,
      ]
      if let reason = process.reason { fields.append(#""reason":"# + quoted(reason)) }
      if let states = process.states { fields.append(#""states":"# + quotedList(states)) }
      return "{" + fields.joined(separator: ",") + "}"
    }
    return ExampleReport(
      .jetsam,
      payload: #"{"memoryStatus":{"pageSize":\#(pageSize)},"largestProcess":"# + quoted(largestProcess)
        + #","processes":["# + entries.joined(separator: ",") + "]}")
  }

  /// A kernel panic report (bug_type 210) whose panic string is `panicString` (its first line the
  /// "panic(cpu …): …" headline), from the device `product` running `build`.
  package static func panic(_ panicString: String, product: String? = nil, build: String? = nil) -> ExampleReport {
    panicReport(.panic, stringKey: "panicString", panicString, product: product, build: build)
  }

  /// A full panic log (bug_type 151): a panic report that names its panic string `string`.
  package static func fullPanic(_ panicString: String, product: String? = nil, build: String? = nil)
    -> ExampleReport
  {
    panicReport(.fullPanic, stringKey: "string", panicString, product: product, build: build)
  }

  private static func panicReport(
    _ kind: Kind, stringKey: String, _ panicString: String, product: String?, build: String?
  ) -> ExampleReport {
    var fields: [String] = []
    if let build { fields.append(#""build":"# + quoted(build)) }
    if let product { fields.append(#""product":"# + quoted(product)) }
    fields.append(quoted(stringKey) + ":" + quoted(panicString))
    return ExampleReport(kind, payload: "{" + fields.joined(separator: ",") + "}")
  }

  /// A stackshot (bug_type 288) taken for `reason` on the device `product`, of `processes` (names
  /// by pid), with the pids of the frontmost processes.
  package static func stackshot(
    reason: String?, product: String? = nil, processes: [Int: String] = [:], frontmost: [Int] = []
  ) -> ExampleReport {
    var fields: [String] = []
    if let reason { fields.append(#""reason":"# + quoted(reason)) }
    if let product { fields.append(#""product":"# + quoted(product)) }
    if !frontmost.isEmpty {
      fields.append(#""frontmostPids":["# + frontmost.map { "\($0)" }.joined(separator: ",") + "]")
    }
    let entries = processes.sorted { $0.key < $1.key }.map { pid, name in
      #""\#(pid)":{"procname":"# + quoted(name) + "}"
    }
    fields.append(#""processByPid":{"# + entries.joined(separator: ",") + "}")
    return ExampleReport(.stackshot, payload: "{" + fields.joined(separator: ",") + "}")
  }

  /// A system watchdog report (bug_type 409) about the system process `process`: the watchdog's
  /// `event` and its `reason`.
  package static func systemWatchdog(process: String, event: String? = nil, reason: String? = nil) -> ExampleReport {
    var fields = [#""procName":"# + quoted(process)]
    if let event { fields.append(#""event":"# + quoted(event)) }
    if let reason { fields.append(#""reason":"# + quoted(reason)) }
    return ExampleReport(.systemWatchdog, payload: "{" + fields.joined(separator: ",") + "}")
  }

  /// How a resource report writes its body.
  package enum ResourceFormat: Sendable {
    /// "Key: value" lines, as microstackshot reports write them: "Command:", "Event:",
    /// "Action taken:", then each measure under its own name ("CPU:", "Writes:", …).
    case text
    /// A JSON object: `procName`, `event`, `action`, then each measure under its lowercased name.
    case json
  }

  /// A resource report of `kind` about the example app: the system measured `event` ("cpu usage",
  /// "disk writes", "wakeups") and took `action` ("none", "Process killed"); `measures` are what it
  /// measured, by name ("CPU", "Writes", "Wakeups", "Limit"), in order.
  package static func resource(
    _ kind: Kind, event: String, action: String?, measures: KeyValuePairs<String, String> = [:],
    format: ResourceFormat = .text
  ) -> ExampleReport {
    switch format {
    case .text:
      var lines = [("Command", "Example"), ("Event", event)]
      if let action { lines.append(("Action taken", action)) }
      lines += measures.map { ($0.key, $0.value) }
      // Values start at column 18, as in the reports the system writes.
      let body = lines.map { key, value in
        let label = key + ":"
        return label + String(repeating: " ", count: max(1, 17 - label.count)) + value + "\n"
      }
      return ExampleReport(kind, payload: body.joined())
    case .json:
      var fields = [#""event":"# + quoted(event)]
      if let action { fields.append(#""action":"# + quoted(action)) }
      fields.append(#""procName":"Example""#)
      fields += measures.map { quoted($0.key.lowercased()) + ":" + quoted($0.value) }
      return ExampleReport(kind, payload: "{" + fields.joined(separator: ",") + "}")
    }
  }

  /// A "cpu usage" resource report (bug_type 202) that measured `cpu` ("90 seconds cpu time over
  /// 151 seconds (60% cpu average), …") and took `action`.
  package static func cpuUsage(cpu: String? = nil, action: String = "none") -> ExampleReport {
    resource(.cpuResource, event: "cpu usage", action: action, measures: cpu.map { ["CPU": $0] } ?? [:])
  }

  /// A "disk writes" resource report (bug_type 145) that measured `writes` ("1073.74 MB of file
  /// backed memory dirtied over 8588 seconds, …") and took `action`.
  package static func diskWrites(writes: String? = nil, action: String = "none", format: ResourceFormat = .text)
    -> ExampleReport
  {
    resource(
      .diskWritesResource, event: "disk writes", action: action, measures: writes.map { ["Writes": $0] } ?? [:],
      format: format)
  }
}
