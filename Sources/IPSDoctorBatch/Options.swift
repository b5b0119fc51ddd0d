import IPSDoctorDiagnosis
import IPSDoctorSupport
import IPSDoctorSymbolication

/// The run configuration: what the options set, shared by every layer that reads, diagnoses and
/// writes a batch. The command line binds it (`ArgumentBinder`); tests and callers build it directly.

/// The output formats of `diagnose`. Each maps to exactly one reporter (`OutputFormat.reporter`).
public enum OutputFormat: String, Sendable, CaseIterable, Equatable {
  case text, json, jsonl, sarif, junit, github, markdown

  /// The format an `--output` file's name says: its extension (`x.sarif.json` is SARIF); `nil`
  /// when the name says none.
  public init?(forOutput path: String) {
    if path.lowercased().hasSuffix(".sarif.json") {
      self = .sarif
      return
    }
    self.init(fileExtension: PathName(path).pathExtension)
  }

  /// The format for an `--output` file name's extension; `nil` (plain text) when unknown.
  public init?(fileExtension: String) {
    switch fileExtension.lowercased() {
    case "json": self = .json
    case "jsonl", "ndjson": self = .jsonl
    case "sarif": self = .sarif
    case "xml", "junit": self = .junit
    case "md", "markdown": self = .markdown
    case "txt", "text", "log": self = .text
    default: return nil
    }
  }
}

/// Which `--color` behaviour was asked for.
public enum ColorChoice: String, Sendable, CaseIterable, Equatable {
  case auto, always, never
}

/// The threshold for a failing exit status.
public enum FailOn: String, Sendable, CaseIterable, Equatable {
  case error, warning, note, never

  /// The lowest severity that fails, or `nil` for `never`.
  package var threshold: Severity? {
    switch self {
    case .error: .error
    case .warning: .warning
    case .note: .note
    case .never: nil
    }
  }
}

/// `check --default-isolation`: what a declaration without isolation attributes is isolated to.
public enum DefaultIsolation: String, Sendable, CaseIterable, Equatable {
  case nonisolated
  case mainActor = "main-actor"
}

/// The formats of `rules` and `explain`.
public enum CatalogFormat: String, Sendable, CaseIterable, Equatable {
  case text, json, markdown
}

/// Everything the options set, with defaults.
public struct Options: Sendable, Equatable {
  public static let defaultMaxSize = 64 << 20
  /// `merge` reads each part whole: a part holds a shard's reports, so its limit is larger.
  public static let defaultMergeMaxSize = 1 << 30

  /// `--format` as written; validated against the command's formats when bound.
  public var format: OutputFormat?
  public var catalogFormat: CatalogFormat = .text
  /// Whether `--format` was given (rather than taken from the `--output` file's name).
  public var formatGiven = false
  /// Every `--output`, in order (`diagnose` writes one file each, each in the format its name
  /// says; `show`, `rules` and `explain` take one).
  public var outputs: [String] = []
  /// The first `--output`.
  public var output: String? {
    get { outputs.first }
    set { outputs = newValue.map { [$0] } ?? [] }
  }
  public var color: ColorChoice = .auto
  public var verbose = false
  public var quiet = false
  public var strict = false
  public var failOn: FailOn = .error
  public var baseline: String?
  public var writeBaseline: String?
  public var jobs: Int?
  public var maxSize: Int = Options.defaultMaxSize
  public var progress = true
  /// `--follow`: scan folders that symbolic links inside a scanned folder point to.
  public var followLinks = false
  /// `--top`: how many crash groups the text output of a batch shows in full; `nil` for all.
  public var top: Int? = 5
  /// `--summary`: the text output of a batch shows only the crash-group table.
  public var summaryOnly = false
  /// `--app`, `--app-version`, `--since`, `--rule`, `--severity`.
  public var filter = ReportFilter()
  /// `check --exclude`: glob patterns of files and folders not to scan.
  public var excludes: [String] = []
  /// `check --default-isolation`: the isolation of the checked module's declarations; `nil`
  /// when not stated (nonisolated, unless the scanned project sets MainActor somewhere).
  public var defaultIsolation: DefaultIsolation?
  /// `check --report`: a crash report whose bridge frame names the declaration to point at.
  public var report: String?
  /// `--dsym`, in order: dSYM bundles, DWARF or Mach-O files, or folders to search.
  public var dsyms: [String] = []
  /// The debug files `diagnose` symbolicates with, found once before the reports are read.
  public var debugFiles = DebugFileIndex()

  public init() {}
}
