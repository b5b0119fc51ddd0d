import IPSDoctorReport
import IPSDoctorSupport

/// dyld could not bind a symbol the app uses: the library at runtime lacks it.
package struct DyldMissingSymbolRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "dyld-missing-symbol",
    title: "Missing Symbol At Launch",
    summary: "The dynamic loader could not find a symbol the app uses in the library that provides it.",
    category: .launch,
    severity: .error,
    tier: .exact,
    outranks: [CodeSigningInvalidRule.self],
    rationale: """
      dyld binds every non-lazy symbol the app imports at launch. When the library that is \
      present at runtime does not export one ("Symbol not found: _X", "Expected in: /path"), \
      the process stops before `main` (termination namespace `DYLD`, indicator "Symbol \
      missing"). The usual causes: an API newer than the OS the app ran on, used without weak \
      linking or an availability check; or a framework at runtime older (or newer) than the one \
      the app was built against — for example two binary frameworks built against different \
      versions of a shared dependency.
      """,
    remedy: """
      - If the symbol comes from a system framework, the OS is older than the API: raise the \
        deployment target, or guard the use with `if #available(…)` so the compiler links it \
        weakly (and link the framework as **Optional** if the whole framework is newer).
      - If it comes from a framework you ship, rebuild so that the app and every embedded \
        framework use the same version of that dependency, and clean the build folder to drop \
        stale copies.
      """,
    references: ["https://developer.apple.com/documentation/xcode/addressing-missing-framework-crashes"],
    examples: [
      .triggers(
        "class missing on an older iOS",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          termination: ExampleReport.Termination(
            namespace: "DYLD", code: 4, indicator: "Symbol missing",
            reasons: [
              "Symbol not found: _OBJC_CLASS_$_UISheetPresentationController",
              "Referenced from: <8A3C5E0F-1B2D-4E6F-9A0B-1C2D3E4F5A6B> /private/var/containers/Bundle/Application/0C7E/Example.app/Example",
              "Expected in: <11111111-2222-3333-4444-555555555555> /System/Library/Frameworks/UIKit.framework/UIKit",
            ]), threads: [.main([.frame(.dyld, "__abort_with_payload")])]),
        .definite,
        summaryContains: [
          "`_OBJC_CLASS_$_UISheetPresentationController`", "`/System/Library/Frameworks/UIKit.framework/UIKit`",
          "UISheetPresentationController",
        ]),
      .triggers(
        "mangled Swift symbol from an embedded framework",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          termination: ExampleReport.Termination(
            namespace: "DYLD", code: 4,
            reasons: [
              "Symbol not found: _$s7Network6ClientC5fetchyyF",
              "Referenced from: /private/var/containers/Bundle/Application/0C7E/Example.app/Example",
              "Expected in: /private/var/containers/Bundle/Application/0C7E/Example.app/Frameworks/Network.framework/Network",
            ]), threads: [.main([.frame(.dyld, "__abort_with_payload")])]),
        .definite, summaryContains: ["Client.fetch()", "Frameworks/Network.framework/Network"]),
      .ignores(
        "missing library (dyld-missing-library)",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          termination: ExampleReport.Termination(
            namespace: "DYLD", code: 1, indicator: "Library missing",
            reasons: ["Library not loaded: @rpath/Analytics.framework/Analytics"]),
          threads: [.main([.frame(.dyld, "__abort_with_payload")])])),
    ])

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    let dyld = context.dyldError ?? DyldError(context)
    guard let symbol = dyld.missingSymbol else { return nil }
    return diagnose(context, dyld, symbol: symbol)
  }

  private func diagnose(
    _ context: DiagnosisContext, _ dyld: DyldError, symbol: (evidence: Evidence, symbol: String)
  ) -> Diagnosis? {
    var evidence = [symbol.evidence]
    var summary = "dyld could not find the symbol \(CodeSpan.markdown(symbol.symbol))"
    var stripped = symbol.symbol
    if stripped.hasPrefix("_$") { stripped.removeFirst() }
    let name = SymbolName(stripped)
    if let readable = name.full ?? (name.simplified) {
      summary += " (\(CodeSpan.markdown(readable)))"
    } else if let range = symbol.symbol.firstRange(of: "OBJC_CLASS_$_") {
      summary += " (the Objective-C class \(CodeSpan.markdown(symbol.symbol[range.upperBound...])))"
    }
    // Found once: each accessor searches the report's texts again; the lines split once for them
    // (each `DyldError` accessor splits them again).
    let lines = DyldLines(dyld)
    let expectedIn = lines.expectedIn
    if let expected = expectedIn {
      summary += " in \(CodeSpan.markdown(expected))"
      evidence.append(Evidence(lines.value(after: "Expected in: ")?.evidence.path ?? "termination.reasons", expected))
    }
    summary += ", so \(context.processDisplayName) was killed at launch"
    if let from = lines.referencedFrom { summary += "; the symbol is used by \(CodeSpan.markdown(from))" }
    summary += "."
    if let expected = expectedIn, expected.hasPrefix("/System/") || expected.hasPrefix("/usr/lib/") {
      summary += " The library is part of the OS, so the OS version the app ran on is older than the API."
    }
    var diagnosis = finding(confidence: .definite, summary: summary, evidence: evidence)
    // Which symbol, expected in which library, tells one missing symbol from another.
    diagnosis.instanceKey = symbol.symbol + (expectedIn.map { " in " + $0 } ?? "")
    return diagnosis
  }
}
