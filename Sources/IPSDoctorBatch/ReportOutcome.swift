import IPSDoctorDiagnosis
import IPSDoctorReport
import IPSDoctorSymbolication
import IPSDoctorSupport

/// The identity of a report that every output format prints: app, OS, device and time.
package struct ReportFacts: Sendable, Equatable {
  package var kind: ReportKind
  package var format: CrashReport.Format
  /// Whose layout the report was read from.
  package var source: ReportSource = .appleIPS
  /// What it lacks of Apple's report (empty for Apple's own).
  package var missing: [MissingPart] = []
  package var bugType: String?
  package var appName: String?
  /// The process's own name when the report states one (it may differ from ``appName``, the
  /// app's display name): `--app` matches either.
  package var processName: String?
  package var bundleID: String?
  package var appVersion: String?
  package var buildVersion: String?
  package var osTrain: String?
  package var osBuild: String?
  package var device: String?
  package var cpuType: String?
  /// When the crash happened, as the report wrote it.
  package var time: String?
  package var incidentID: String?
  package var exceptionType: String?
  package var exceptionSignal: String?
  package var exceptionCodes: String?
  package var exceptionSubtype: String?

  package init(_ report: CrashReport) {
    kind = report.kind
    format = report.format
    source = report.source
    missing = report.missing
    bugType = report.bugType?.rawValue ?? report.header.bugType
    appName = report.header.appName ?? report.processName ?? report.header.name
    processName = report.processName
    bundleID = report.bundleID ?? report.header.bundleID
    appVersion = report.appVersion ?? report.header.appVersion
    buildVersion = report.buildVersion ?? report.header.buildVersion
    let os = report.osVersion ?? report.header.osVersion.map(OSVersion.init(displayString:))
    osTrain = os?.train
    osBuild = os?.build
    device = report.modelCode ?? report.jetsam?.product ?? report.panic?.product ?? report.stackshot?.product
    cpuType = report.cpuType
    time = report.captureTime ?? report.header.timestamp
    incidentID = report.incidentID ?? report.header.incidentID
    exceptionType = report.exception?.type
    exceptionSignal = report.exception?.signal
    exceptionCodes = report.exception?.codes
    exceptionSubtype = report.exception?.subtype
  }

  /// The facts as a record states them (``ReportRecord``).
  package init(
    kind: ReportKind, format: CrashReport.Format, bugType: String?, appName: String?, bundleID: String?,
    appVersion: String?, buildVersion: String?, osTrain: String?, osBuild: String?, device: String?,
    cpuType: String?, time: String?, incidentID: String?, exceptionType: String?, exceptionSignal: String?,
    exceptionCodes: String?, exceptionSubtype: String?, processName: String? = nil
  ) {
    self.processName = processName
    self.kind = kind
    self.format = format
    self.bugType = bugType
    self.appName = appName
    self.bundleID = bundleID
    self.appVersion = appVersion
    self.buildVersion = buildVersion
    self.osTrain = osTrain
    self.osBuild = osBuild
    self.device = device
    self.cpuType = cpuType
    self.time = time
    self.incidentID = incidentID
    self.exceptionType = exceptionType
    self.exceptionSignal = exceptionSignal
    self.exceptionCodes = exceptionCodes
    self.exceptionSubtype = exceptionSubtype
  }

  /// "Crashlytics console text (no registers, offsets only)" for a report that is not Apple's own;
  /// `nil` for Apple's.
  package var sourceDescription: String? {
    guard source != .appleIPS && source != .appleText else { return nil }
    let phrase = source.phrase.prefix(1).uppercased() + source.phrase.dropFirst()
    guard !missing.isEmpty else { return phrase }
    return phrase + " (" + missing.map(\.phrase).joined(separator: ", ") + ")"
  }

  /// The bug type's name ("jetsam event", "unknown (999)"), from ``bugType`` alone, so that a
  /// report and its record read back name it alike.
  package var bugTypeName: String? { bugType.map { BugType($0).name } }

  /// "ChatApp 2.4 (118)".
  package var appDescription: String? {
    guard appName != nil || appVersion != nil else { return nil }
    let name = appName ?? "unknown app"
    guard let version = versionDescription else { return name }
    return .concatenating(name, " ", version)
  }

  /// "2.4 (118)".
  package var versionDescription: String? {
    // An empty version or build (some reports write "") says nothing.
    switch (appVersion.flatMap { $0.isEmpty ? nil : $0 }, buildVersion.flatMap { $0.isEmpty ? nil : $0 }) {
    case (let version?, let build?): version == build ? version : .concatenating(version, " (", build, ")")
    case (let version?, nil): version
    case (nil, let build?): .concatenating("(", build, ")")
    case (nil, nil): nil
    }
  }

  /// "iPhone OS 26.6 (23G80)".
  package var osDescription: String? {
    let text = OSVersion(train: osTrain, build: osBuild).description
    return text.isEmpty ? nil : text
  }
}

/// Whether a report's signature is in the `--baseline` file.
package enum BaselineState: String, Sendable, Equatable, CaseIterable {
  case new
  case known
}

/// What ips-doctor found for one input file: small, so that a batch keeps only a window of them.
package struct ReportOutcome: Sendable, Equatable {
  /// Position in the batch (the sorted input order).
  package var index: Int
  /// The path as given on the command line, printable.
  package var path: String
  /// `nil` when nothing could be read.
  package var facts: ReportFacts?
  package var result: DiagnosisResult?
  package var warnings: [ReportWarning]
  /// Why the file (or its body) could not be read; also set under `--strict` for warnings.
  package var error: ReportError?
  package var baseline: BaselineState?
  /// `--strict` turned the report's warnings into ``error``.
  package var refusedByStrict = false
  /// What symbolicating with the run's debug files did (`nil` when there were none): the images
  /// matched, and the debug files named like an image but of another UUID (never used).
  package var symbolication: SymbolicationSummary?
  /// Which report of a file that holds several (`hangDiagnostics[0]` of a MetricKit payload),
  /// written after `#` in ``path``; `nil` for a file that is one report.
  package var label: String?

  /// The file the report was read from: ``path`` without its `#label`.
  package var filePath: String {
    guard let label, path.hasSuffix("#" + label) else { return path }
    return String(path.dropLast(label.count + 1))
  }

  package init(
    index: Int, path: String, facts: ReportFacts? = nil, result: DiagnosisResult? = nil,
    warnings: [ReportWarning] = [], error: ReportError? = nil, baseline: BaselineState? = nil
  ) {
    self.index = index
    self.path = path
    self.facts = facts
    self.result = result
    self.warnings = warnings
    self.error = error
    self.baseline = baseline
  }

  package var diagnoses: [Diagnosis] { result?.diagnoses ?? [] }

  /// Whether the input counts as unreadable (exit 65): nothing could be read, its body was damaged
  /// and what was read explains nothing, or `--strict` refused its warnings.
  package var isUnreadable: Bool {
    guard let result else { return true }
    guard error != nil else { return false }
    return refusedByStrict || result.isInconclusive
  }

  /// Damaged (a body error), but what could be read was diagnosed: a diagnosed report with a note.
  package var isDamaged: Bool { error != nil && !isUnreadable }

  /// The severity the report counts at: its top diagnosis's (the alternatives never raise it); for an inconclusive report,
  /// `warning` for a crash (the app crashed, but no rule can say it was its fault) and `note` for
  /// other kinds; `note` for parse warnings. `nil` when nothing was found or the report could not
  /// be read (``isUnreadable``).
  package var severity: Severity? {
    // A report that could not be read counts once, as that, not also as an inconclusive crash.
    if isUnreadable { return nil }
    var level = diagnoses.first?.severity
    if let result, result.isInconclusive {
      let inconclusive: Severity = facts?.kind == .crash ? .warning : .note
      level = max(level ?? inconclusive, inconclusive)
    }
    if !warnings.isEmpty { level = max(level ?? .note, .note) }
    return level
  }

  /// Whether this report fails the run at `threshold` (baseline-known reports never do).
  package func fails(at threshold: Severity?) -> Bool {
    guard let threshold, let severity, baseline != .known else { return false }
    return severity >= threshold
  }
}

extension ReportOutcome {
  /// Reads, parses and diagnoses one input. Returns `nil` for a file found in a folder that turns
  /// out not to be a crash report, and a `skipped` reason for one that is not a regular file.
  static func make(
    item: InputItem, index: Int, standardInput: Result<[UInt8], FileError>?, options: Options,
    baseline: KnownSignatures?, texts: SharedTexts? = nil
  ) -> (outcomes: [ReportOutcome], skipped: InputNotice?) {
    let bytes: [UInt8]
    switch item.source {
    case .standardInput:
      switch standardInput ?? .failure(FileError(.other, "standard input was not read")) {
      case .success(let read): bytes = read
      case .failure(let error):
        return ([ReportOutcome(index: index, path: item.display, error: ReportError(message: error.message))], nil)
      }
    case .file(let path) where item.isStream:
      switch POSIX.readStream(path, limit: options.maxSize) {
      case .success(let read): bytes = read
      case .failure(let error):
        return ([ReportOutcome(index: index, path: item.display, error: ReportError(message: error.message))], nil)
      }
    case .file(let path):
      if item.mustSniff {
        switch POSIX.readFile(path, limit: options.maxSize, prefixOnly: 4096) {
        case .success(let prefix):
          if !InputDiscovery.looksLikeReport(prefix) { return ([], nil) }
        case .failure(let error):
          if error.reason == .notRegularFile { return ([], nil) }
          // Unreadable and not named like a report: we cannot tell it is one, so say nothing.
          return ([], nil)
        }
      }
      switch POSIX.readFile(path, limit: options.maxSize) {
      case .success(let read): bytes = read
      case .failure(let error):
        if error.reason == .notRegularFile {
          return ([], InputNotice(kind: .skipped, path: item.display, message: error.message))
        }
        return ([ReportOutcome(index: index, path: item.display, error: ReportError(message: error.message))], nil)
      }
    }
    if let foreign = ForeignInput.identify(bytes) {
      // Found in a folder, it is passed over (and counted); named, it is an error.
      if item.inFolder { return ([], InputNotice(kind: .notAReport, path: item.display, message: foreign)) }
      return (
        [
          ReportOutcome(
            index: index, path: item.display, error: ReportError(message: "not an Apple crash report: \(foreign)"))
        ],
        nil
      )
    }
    var outcomes = diagnoseAll(
      bytes: bytes, index: index, path: item.display, options: options, baseline: baseline, texts: texts)
    let outcome = outcomes.removeFirst()
    // A note or log found in a folder whose first lines looked like crash text but that holds no
    // report: passed over (and counted), as another tool's file is.
    if item.mustSniff, outcome.facts == nil, outcome.error != nil {
      let message = outcome.error?.notACrash ?? "text that holds no crash report"
      return ([], InputNotice(kind: .notAReport, path: item.display, message: message))
    }
    if item.inFolder, outcome.facts == nil, let kind = outcome.error?.notACrash {
      return ([], InputNotice(kind: .notAReport, path: item.display, message: kind))
    }
    return ([outcome] + outcomes, nil)
  }

  /// Parses and diagnoses bytes already in memory: one outcome for most files, one per diagnostic
  /// of a MetricKit payload (its path followed by `#` and the diagnostic's label), never none.
  static func diagnoseAll(
    bytes: [UInt8], index: Int, path: String, options: Options, baseline: KnownSignatures?,
    texts: SharedTexts? = nil
  ) -> [ReportOutcome] {
    let reports: [(label: String?, report: CrashReport)]
    do throws(ReportError) {
      reports = try ReportReader.readAll(bytes, texts: texts)
    } catch {
      return [ReportOutcome(index: index, path: path, error: error)]
    }
    if reports.count == 1, reports[0].label == nil {
      return [diagnose(report: reports[0].report, index: index, path: path, options: options, baseline: baseline)]
    }
    return reports.map { entry in
      var outcome = diagnose(
        report: entry.report, index: index, path: path + (entry.label.map { "#" + $0 } ?? ""), options: options,
        baseline: baseline)
      outcome.label = entry.label
      return outcome
    }
  }

  /// Parses and diagnoses bytes already in memory.
  static func diagnose(
    bytes: [UInt8], index: Int, path: String, options: Options, baseline: KnownSignatures?,
    texts: SharedTexts? = nil
  ) -> ReportOutcome {
    let report: CrashReport
    do throws(ReportError) {
      report = try ReportReader.read(bytes, texts: texts)
    } catch {
      return ReportOutcome(index: index, path: path, error: error)
    }
    return diagnose(report: report, index: index, path: path, options: options, baseline: baseline)
  }

  /// Diagnoses a report already read.
  static func diagnose(
    report read: consuming CrashReport, index: Int, path: String, options: Options, baseline: KnownSignatures?
  ) -> ReportOutcome {
    var report = read
    // Diagnose the symbolicated frames (Xcode's view of a device report).
    var symbolication: SymbolicationSummary?
    if !options.debugFiles.isEmpty {
      (report, symbolication) = options.debugFiles.symbolicate(report)
      // A report that came without symbols (MetricKit's) may have them now.
      if report.missing.contains(.symbols),
        report.threads.contains(where: { $0.frames.contains(where: \.hasSymbolText) })
      {
        report.missing.removeAll { $0 == .symbols }
      }
    }
    // What the outcome keeps of the report first, so that the diagnosis takes the report itself
    // rather than a copy.
    let facts = ReportFacts(report)
    let warnings = report.warnings
    let bodyError = report.bodyError
    let result = Doctor.diagnose(consume report)
    var outcome = ReportOutcome(
      index: index, path: path, facts: facts, result: result, warnings: warnings, error: bodyError)
    outcome.symbolication = symbolication
    if outcome.error == nil, options.strict, let first = warnings.first {
      let count = warnings.count
      outcome.error = ReportError(
        message:
          "--strict: the report has \(count) warning\(count == 1 ? "" : "s"), the first: \(first.location): \(first.message)"
      )
      outcome.refusedByStrict = true
    }
    if let baseline, !outcome.isUnreadable {
      outcome.baseline = baseline.knows(result.signature) ? .known : .new
    }
    return outcome
  }
}
