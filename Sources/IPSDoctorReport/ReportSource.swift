/// Where a report came from: which writer's layout the reader found. Every source becomes the same
/// ``CrashReport``; the source only says how much of Apple's report it can hold.
package enum ReportSource: String, Sendable, Equatable, CaseIterable {
  /// A Firebase Crashlytics console trace, copied from the console or pasted into an issue.
  case crashlyticsText = "crashlytics-text"
  /// A Sentry event (JSON).
  case sentryEvent = "sentry-event"
  /// The text of a stack trace copied from Sentry's issue page (its "Raw" view).
  case sentryText = "sentry-text"
  /// A KSCrash JSON report or one of its forks (SentryCrash, Embrace).
  case kscrash
  /// A Bugsnag event payload or Bugsnag's KSCrash report.
  case bugsnag
  /// A MetricKit diagnostic.
  case metrickit
  /// Apple's JSON report (`.ips`).
  case appleIPS = "apple-ips"
  /// Apple's text report (`.crash`, or an `.ips` with a text body).
  case appleText = "apple-text"
  /// Part of Apple's text report, pasted without the rest (from `Exception Type:` or a thread on).
  case excerpt

  /// The source as a phrase for a report's header ("Crashlytics console text").
  package var phrase: String {
    switch self {
    case .crashlyticsText: "Crashlytics console text"
    case .sentryEvent: "a Sentry event"
    case .sentryText: "Sentry's raw stack trace text"
    case .kscrash: "a KSCrash report"
    case .bugsnag: "a Bugsnag event"
    case .metrickit: "a MetricKit diagnostic"
    case .appleIPS: "Apple's JSON report"
    case .appleText: "Apple's text report"
    case .excerpt: "an excerpt of Apple's text report"
    }
  }
}

/// A part of Apple's report that a report from another source (or an excerpt) does not have. Rules
/// that need the fact find nothing to match; outputs name the parts so that an inconclusive
/// result is read as "not enough to go on", not as "nothing wrong".
package enum MissingPart: String, Sendable, Equatable, CaseIterable, Comparable {
  /// Process, app version, OS and device.
  case header
  /// The Mach exception, signal and termination reason.
  case exception
  /// The crashed thread's registers.
  case registers
  /// The list of binary images (paths, load addresses, UUIDs).
  case images
  /// Frames give offsets into their images, not addresses in the process.
  case addresses
  /// The threads other than the crashed one.
  case otherThreads = "other-threads"
  /// Frames name no functions: they need symbolicating.
  case symbols

  package var phrase: String {
    switch self {
    case .header: "no process, OS or device header"
    case .exception: "no exception type or signal"
    case .registers: "no registers"
    case .images: "no binary images"
    case .addresses: "offsets only"
    case .otherThreads: "one thread only"
    case .symbols: "no symbols"
    }
  }

  package static func < (lhs: MissingPart, rhs: MissingPart) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}

extension CrashReport {
  /// What a crash read from a source other than Apple's full report lacks, found from what the
  /// report holds (the reader adds what only it knows, such as ``MissingPart/addresses``).
  package func missingParts(adding known: [MissingPart] = []) -> [MissingPart] {
    var parts = Set(known)
    if processName == nil && bundleID == nil && osVersion == nil && modelCode == nil { parts.insert(.header) }
    if exception == nil && termination == nil { parts.insert(.exception) }
    if !threads.contains(where: { $0.state != nil }) { parts.insert(.registers) }
    if images.allSatisfy({ $0.base == nil && $0.uuid == nil }) { parts.insert(.images) }
    if threads.count <= 1 { parts.insert(.otherThreads) }
    let frames = threads.flatMap(\.frames) + (lastExceptionBacktrace ?? [])
    if !frames.isEmpty && !frames.contains(where: \.hasSymbolText) { parts.insert(.symbols) }
    return parts.sorted()
  }
}
