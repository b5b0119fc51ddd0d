import IPSDoctorDiagnosis
import IPSDoctorSupport
import IPSDoctorSymbolication

/// The run configuration: what the options set, shared by every layer that reads, diagnoses and
/// writes a batch. The command line binds it (`ArgumentBinder`); tests and callers build it directly.

/// The output formats of `diagnose`. Each maps to exactly one reporter (`OutputFormat.reporter`).
package enum OutputFormat: String, Sendable, CaseIterable, Equatable {
  case text, json, jsonl, sarif, junit, github, markdown

  /// The format an `--output` file's name says: its extension (`x.sarif.json` is SARIF); `nil`
  /// when the name says none.
  package init?(forOutput path: String) {
    if path.lowercased().hasSuffix(".sarif.json") {
      self = .sarif
      return
    }
    self.init(fileExtension: PathName(path).pathExtension)
  }

  /// `FORMAT:PATH` (`sarif:results.json`) as its format and path, when the text before the first
  /// colon is a format's name; `nil` otherwise (`./sarif:x` names a file `sarif:x`).
  package static func explicit(_ output: String) -> (format: OutputFormat, path: String)? {
    guard let colon = output.firstIndex(of: ":"), let format = OutputFormat(rawValue: String(output[..<colon]))
    else { return nil }
    return (format, String(output[output.index(after: colon)...]))
  }

  /// The format for an `--output` file name's extension; `nil` (plain text) when unknown.
  package init?(fileExtension: String) {
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
package enum ColorChoice: String, Sendable, CaseIterable, Equatable {
  case auto, always, never
}

/// The threshold for a failing exit status.
package enum FailOn: String, Sendable, CaseIterable, Equatable {
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
package enum DefaultIsolation: String, Sendable, CaseIterable, Equatable {
  case nonisolated
  case mainActor = "main-actor"
}

/// The formats of `rules` and `explain`.
package enum CatalogFormat: String, Sendable, CaseIterable, Equatable {
  case text, json, markdown
}

/// Everything the options set, with defaults.
package struct Options: Sendable, Equatable {
  package static let defaultMaxSize = 64 << 20
  /// `merge` reads each part whole: a part holds a shard's reports, so its limit is larger.
  package static let defaultMergeMaxSize = 1 << 30

  /// `--format` as written; validated against the command's formats when bound.
  package var format: OutputFormat?
  package var catalogFormat: CatalogFormat = .text
  /// Whether `--format` was given (rather than taken from the `--output` file's name).
  package var formatGiven = false
  /// Every `--output`, in order (`diagnose` writes one file each, each in the format its name
  /// says; `show`, `rules` and `explain` take one).
  package var outputs: [String] = []
  /// The format an `--output` named explicitly (`-o sarif:results.json`), by the path written
  /// after the prefix; it wins over the name's extension and `--format`.
  package var outputFormats: [String: OutputFormat] = [:]
  /// The first `--output`.
  package var output: String? {
    get { outputs.first }
    set { outputs = newValue.map { [$0] } ?? [] }
  }
  package var color: ColorChoice = .auto
  package var verbose = false
  package var quiet = false
  package var strict = false
  /// `--require-symbols`: a report whose app frames have no symbols (after `debugFiles`) fails
  /// the run.
  package var requireSymbols = false
  package var failOn: FailOn = .error
  package var baseline: String?
  package var writeBaseline: String?
  package var jobs: Int?
  package var maxSize: Int = Options.defaultMaxSize
  package var progress = true
  /// `--follow`: scan folders that symbolic links inside a scanned folder point to.
  package var followLinks = false
  /// `--top`: how many crash groups the text output of a batch shows in full; `nil` for all.
  package var top: Int? = 5
  /// `--summary`: the text output of a batch shows only the crash-group table.
  package var summaryOnly = false
  /// `--app`, `--app-version`, `--since`, `--rule`, `--severity`.
  package var filter = ReportFilter()
  /// `--shard k/n`: the part of the inputs this run reads.
  package var shard: Shard?
  /// `check --exclude`: glob patterns of files and folders not to scan.
  package var excludes: [String] = []
  /// `check --default-isolation`: the isolation of the checked module's declarations; `nil`
  /// when not stated (nonisolated, unless the scanned project sets MainActor somewhere).
  package var defaultIsolation: DefaultIsolation?
  /// `check --report`: a crash report whose bridge frame names the declaration to point at.
  package var report: String?
  /// `check --fix`: rewrite the reported methods into their completion-handler form, in place.
  package var fix = false
  /// `check --diff`: print the rewrite as a unified diff instead of writing it.
  package var diff = false
  /// `check --fix-warnings`: rewrite warnings and notes too, not only errors.
  package var fixWarnings = false
  /// `--dsym`, in order: dSYM bundles, DWARF or Mach-O files, or folders to search.
  package var dsyms: [String] = []
  /// The debug files `diagnose` symbolicates with, found once before the reports are read.
  package var debugFiles = DebugFileIndex()

  package init() {}
}

/// `--shard k/n`: the k-th of n consecutive, nearly equal parts of a run's inputs, in the order the
/// whole run reads them; the n parts together are every input once.
package struct Shard: Sendable, Equatable {
  package var index: Int
  package var count: Int

  /// "2/8"; `nil` unless 1 ≤ k ≤ n ≤ 100000.
  package init?(_ text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, count <= 100_000,
      index >= 1, index <= count
    else { return nil }
    self.index = index
    self.count = count
  }

  /// The positions of this part among `total` inputs.
  package func range(of total: Int) -> Range<Int> {
    let start = total * (index - 1) / count
    let end = total * index / count
    return start..<end
  }
}
