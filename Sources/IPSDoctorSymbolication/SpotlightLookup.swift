import IPSDoctorSupport

/// Asks Spotlight for the dSYMs of image UUIDs, as Xcode does: `mdfind` with the query
/// `com_apple_xcode_dsym_uuids == <UUID>`, each answer a path to a `.dSYM` bundle. A report's
/// missing UUIDs go in one query (`… == A || … == B`); each UUID is asked once per run, whichever
/// thread asks first, and a run makes at most ``queryLimit`` queries.
///
/// On macOS the program is `mdfind`; elsewhere there is none. `IPS_DOCTOR_MDFIND` names another
/// program on any platform (a wrapper, or a test's stand-in); set empty, it turns the lookup off.
/// The program is started without a shell and gets the query as its one argument.
package final class SpotlightLookup: @unchecked Sendable {
  /// The program asked (`mdfind`).
  let program: String
  /// How many queries a run may make: the reports of one app share a few UUIDs, and each query
  /// may take a while on a busy index.
  let queryLimit: Int
  /// UUIDs asked in one query at most, so that its argument stays far below the system's limit.
  static let uuidsPerQuery = 256
  /// How long one query may take, in milliseconds.
  static let queryTimeout = 10_000

  private let monitor = Monitor(conditions: 1)
  /// The Mach-O files found for each UUID asked so far (normalised), empty when none was.
  private var answers: [String: [PathName]] = [:]
  /// The UUIDs a query is out for: another thread that needs one waits for that query.
  private var asking: Set<String> = []
  /// The queries made so far.
  private var queries = 0

  init(program: String, queryLimit: Int = 16) {
    self.program = program
    self.queryLimit = queryLimit
  }

  /// The lookup for a run in `environment`, or `nil` where there is none.
  package static func forRun(environment: [String: String]) -> SpotlightLookup? {
    if let program = environment["IPS_DOCTOR_MDFIND"] {
      return program.isEmpty ? nil : SpotlightLookup(program: program)
    }
    return Platform.hasSpotlight ? SpotlightLookup(program: "mdfind") : nil
  }

  /// How many queries this lookup has made.
  var queryCount: Int { monitor.locked { queries } }

  /// The Mach-O files of the dSYMs Spotlight knows for each of `uuids`, by normalised UUID. A
  /// UUID that is not 32 hexadecimal digits (with dashes) is never asked, so nothing but digits
  /// reaches the query.
  func files(for uuids: [String]) -> [String: [PathName]] {
    var wanted: [String] = []
    for uuid in uuids {
      guard let key = Self.queryKey(uuid), !wanted.contains(key) else { continue }
      wanted.append(key)
    }
    guard !wanted.isEmpty else { return [:] }

    // Under the lock only to share answers: the query itself runs without it.
    let toAsk: [String] = monitor.locked {
      while wanted.contains(where: asking.contains) { monitor.wait(0) }
      let unknown = wanted.filter { answers[$0] == nil }
      let chunks = (unknown.count + Self.uuidsPerQuery - 1) / Self.uuidsPerQuery
      guard !unknown.isEmpty, queries + chunks <= queryLimit else { return [] }
      queries += chunks
      asking.formUnion(unknown)
      return unknown
    }
    let found = toAsk.isEmpty ? [:] : ask(toAsk)
    return monitor.locked {
      for key in toAsk { answers[key] = found[key] ?? [] }
      asking.subtract(toAsk)
      if !toAsk.isEmpty { monitor.broadcast(0) }
      var result: [String: [PathName]] = [:]
      for key in wanted { result[key] = answers[key] }
      return result
    }
  }

  /// The Mach-O files Spotlight names for `keys`, by the UUID each file holds.
  private func ask(_ keys: [String]) -> [String: [PathName]] {
    var found: [String: [PathName]] = [:]
    var start = 0
    while start < keys.count {
      let chunk = keys[start..<min(keys.count, start + Self.uuidsPerQuery)]
      start += chunk.count
      let query = chunk.map { "com_apple_xcode_dsym_uuids == \($0.uppercased())" }.joined(separator: " || ")
      guard let output = Subprocess.run(program, arguments: [query], limit: 1 << 20, timeout: Self.queryTimeout)
      else { continue }
      let bundles = output.lines.map { PathName($0) }
      for file in DebugImageLocator.machOFiles(in: bundles) {
        for image in DebugImage.load(path: file) {
          guard let uuid = image.uuid.map(Symbolicator.normalized), chunk.contains(uuid) else { continue }
          if !found[uuid, default: []].contains(file) { found[uuid, default: []].append(file) }
        }
      }
    }
    return found
  }

  /// `uuid` normalised (lowercase, dashed), when it is 32 hexadecimal digits with dashes between
  /// them (`String.isUUIDText`).
  static func queryKey(_ uuid: String) -> String? {
    uuid.isUUIDText ? Symbolicator.normalized(uuid) : nil
  }
}
