struct MarkdownReporter: Reporter {
  init(context: ReporterContext) {}
  mutating func begin(_ out: TextOutput) {}
  mutating func report(_ outcome: ReportOutcome, _ out: TextOutput) {}
  mutating func finish(_ run: RunSummary, _ out: TextOutput) {}
}
