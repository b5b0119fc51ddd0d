/// How much of a large text body the reader keeps (see `BodyBudget`): each list (a thread's
/// frames or registers, a backtrace, the binary images, the threads, a text block's lines) keeps
/// its first ``BodyBudget/maxArrayElements`` entries, and the lists inside threads and blocks
/// (frames, registers, lines) keep one entry per 256 bytes of the body in all. Every line is
/// still read. The report's outline (its threads and binary images) counts against its own limits
/// only, as do the crashed thread's frames; the crashed thread is always kept.
struct LegacyListBudget {
  /// A list the budget counts.
  enum List: Hashable {
    case frames(thread: Int)
    case registers(thread: Int)
    case lastExceptionBacktrace
    case applicationSpecificBacktrace
    case threads
    case images
    case lines(String)

    var label: String {
      switch self {
      case .frames(let thread): "Thread \(thread)"
      case .registers(let thread): "Thread \(thread) State"
      case .lastExceptionBacktrace: "Last Exception Backtrace"
      case .applicationSpecificBacktrace: "Application Specific Backtrace"
      case .threads: "threads"
      case .images: "Binary Images"
      case .lines(let block): block
      }
    }

    var noun: String {
      switch self {
      case .frames, .lastExceptionBacktrace, .applicationSpecificBacktrace: "frames"
      case .registers: "register lines"
      case .threads: "threads"
      case .images: "images"
      case .lines: "lines"
      }
    }
  }

  /// Entries all lists may still keep.
  var remaining: Int
  /// The lists that lost entries, in the order they first did, with how many they kept and lost.
  var omissions: [(list: List, kept: Int, omitted: Int)] = []
  var omissionPositions: [List: Int] = [:]
  /// Whether a list lost entries to the total rather than to its own limit.
  var isAbridged = false

  /// The budget for a body of `bytes` bytes, or `nil` to keep it whole.
  static func forBody(bytes: Int) -> LegacyListBudget? {
    bytes > BodyBudget.wholeBodyLimit ? LegacyListBudget(remaining: bytes / 256) : nil
  }

  /// Whether `list`, holding `count` entries, keeps one more; counts it as lost if not. A list
  /// `outsideTotal` counts against its own limit only.
  mutating func keeps(_ list: List, count: Int, outsideTotal: Bool = false) -> Bool {
    let overList = count >= BodyBudget.maxArrayElements
    if !overList && (remaining > 0 || outsideTotal) {
      if !outsideTotal { remaining -= 1 }
      return true
    }
    if !overList { isAbridged = true }
    if let position = omissionPositions[list] {
      omissions[position].omitted += 1
    } else {
      omissionPositions[list] = omissions.count
      omissions.append((list, count, 1))
    }
    return false
  }

  /// What was not kept, as warnings (see `BodyBudget.warnings(cuts:abridged:unit:)`).
  var warnings: [ReportWarning] {
    let cuts = omissions.map {
      BodyBudget.Cut(location: $0.list.label, kept: $0.kept, total: $0.kept + $0.omitted, noun: $0.list.noun)
    }
    let abridged = "the report is too large to keep whole: past its first part, lists were not kept"
    return BodyBudget.warnings(cuts: cuts, abridged: isAbridged ? abridged : nil, unit: "entries")
  }
}

extension LegacyTextReader {
  /// Whether the frame block being read keeps one more frame.
  mutating func keepsFrame() -> Bool {
    guard budget != nil else { return true }
    switch block {
    case .threadFrames(let position):
      let number = report.threads[position].index
      let crashed = report.threads[position].triggered || isNamedCrashed(number)
      return budget!.keeps(.frames(thread: number), count: report.threads[position].frames.count, outsideTotal: crashed)
    case .lastExceptionBacktrace:
      return budget!.keeps(.lastExceptionBacktrace, count: lastExceptionFrames?.count ?? 0)
    case .applicationSpecificBacktrace:
      return budget!.keeps(.applicationSpecificBacktrace, count: applicationBacktraceFrames?.count ?? 0)
    default:
      return true
    }
  }

  /// Whether the report's header names thread `number` as the crashed one.
  func isNamedCrashed(_ number: Int) -> Bool {
    triggered?.number == number || highlighted?.number == number
  }

  /// Whether `list`, holding `count` entries, keeps one more.
  mutating func keeps(_ list: LegacyListBudget.List, count: Int, outsideTotal: Bool = false) -> Bool {
    guard budget != nil else { return true }
    return budget!.keeps(list, count: count, outsideTotal: outsideTotal)
  }
}
