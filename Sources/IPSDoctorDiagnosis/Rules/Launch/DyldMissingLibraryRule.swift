import IPSDoctorReport
import IPSDoctorSupport

/// dyld could not find a library or framework the app links against, so the app died at launch.
package struct DyldMissingLibraryRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "dyld-missing-library",
    title: "Missing Library At Launch",
    summary: "The dynamic loader could not find a framework or library the app links, so it died at launch.",
    category: .launch,
    severity: .error,
    tier: .exact,
    outranks: [CodeSigningInvalidRule.self],
    rationale: """
      Before `main` runs, dyld loads every library the executable links. When one is missing — \
      a framework that was linked but not embedded in the app bundle, a runpath search path \
      that does not point at the bundle's `Frameworks` folder, a Homebrew dylib that exists only \
      on the developer's Mac, or a system framework that does not exist on an older OS — dyld \
      stops the process: `EXC_CRASH (SIGABRT)`, termination namespace `DYLD`, indicator "Library \
      missing", with reasons "Library not loaded: …", "Referenced from: …" and "Reason: tried: \
      …". The backtrace is meaningless ("terminated at launch; ignore backtrace"). Older \
      reports say "Dyld Error Message: Library not loaded" or "dependent dylib '…' not found".
      """,
    remedy: """
      Embed the library in the app and make sure dyld searches where it is:

      1. In the app target's **General → Frameworks, Libraries, and Embedded Content**, set the \
         framework to **Embed & Sign** (dynamic frameworks from Swift packages, CocoaPods' \
         "[CP] Embed Pods Frameworks" phase and Carthage's copy phase must run for every \
         configuration).
      2. Check **Runpath Search Paths** (`LD_RUNPATH_SEARCH_PATHS`): `@executable_path/Frameworks` \
         for iOS apps, `@executable_path/../Frameworks` for macOS apps, \
         `@executable_path/../../Frameworks` for app extensions.
      3. Inspect the built product: `otool -L` on the executable shows each install name, and the \
         library must exist at one of the paths dyld tried.
      """,
    references: [
      "https://developer.apple.com/documentation/xcode/addressing-missing-framework-crashes"
    ],
    examples: examples)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    let dyld = context.dyldError ?? DyldError(context)
    let library = dyld.missingLibrary
    let indicatorSaysMissing = dyld.namespaceIsDYLD && (dyld.code == 1 || dyld.indicator == "Library missing")
    guard library != nil || indicatorSaysMissing else { return nil }
    if library == nil, dyld.missingSymbol != nil { return nil }
    // The lines split once for the accessors below (each `DyldError` accessor splits them again).
    let lines = DyldLines(dyld)

    var evidence: [Evidence] = []
    if dyld.namespaceIsDYLD, let termination = context.report.termination {
      evidence.append(
        Evidence(
          "termination.namespace",
          "DYLD" + (termination.code.map { " code \($0)" } ?? "")
            + (termination.indicator.map { " (\($0))" } ?? "")))
    }
    var summary: String
    if let library {
      evidence.append(library.evidence)
      summary =
        "dyld could not load \(CodeSpan.markdown(library.path)), so \(context.processDisplayName) was killed at launch before `main` ran."
    } else {
      summary =
        "dyld stopped \(context.processDisplayName) at launch because a library is missing (termination namespace `DYLD`, \"Library missing\"); the report does not name the library."
    }
    // Found once: each accessor searches the report's texts again.
    let referencedFrom = lines.referencedFrom
    if let from = referencedFrom { summary += " It is referenced from \(CodeSpan.markdown(from))." }
    let tried = lines.triedPaths
    if !tried.isEmpty {
      let shown = tried.prefix(3).map { "\(CodeSpan.markdown($0))" }.joined(separator: ", ")
      summary += " dyld tried \(shown)" + (tried.count > 3 ? " and \(tried.count - 3) more" : "") + "."
    }
    summary += " The backtrace is irrelevant: the process never reached the app's code."
    var diagnosis = finding(
      confidence: .definite, summary: summary, evidence: evidence,
      remedy: library.map { Self.remedy(for: $0.path, referencedFrom: referencedFrom) } ?? Self.description.remedy,
      verification: [
        "Run `otool -L` on the built executable and check that every non-system install name resolves inside the app bundle."
      ])
    // Which library is missing, and for whom, tells one missing library from another.
    diagnosis.instanceKey = (library?.path ?? "?") + (referencedFrom.map { " from " + $0 } ?? "")
    return diagnosis
  }

  static func remedy(for path: String, referencedFrom: String?) -> String {
    let name = DyldError.frameworkName(path)
    if path.hasPrefix("@rpath/libswift") || path.hasPrefix("/usr/lib/swift/") {
      return """
        \(CodeSpan.markdown(name)) is part of the Swift runtime. The OS the app ran on does not ship it, so the app \
        must: raise the deployment target to an OS that includes it, or (for older OS versions) \
        make sure Xcode embeds the back-deployment copy — set **Always Embed Swift Standard \
        Libraries** (`ALWAYS_EMBED_SWIFT_STANDARD_LIBRARIES = YES`) on the app target and check \
        that no build script strips `Frameworks/\(name)`.
        """
    }
    if path.hasPrefix("/System/") || path.hasPrefix("/usr/lib/") {
      return """
        \(CodeSpan.markdown(path)) is a system library that does not exist on the OS version the app ran on. \
        Either raise the deployment target, or link it weakly so the app can launch without it: \
        set the framework to **Optional** in **Link Binary With Libraries** (or pass \
        `-weak_framework \(name)`) and guard every use with `if #available(…)`.
        """
    }
    if path.hasPrefix("@rpath/") || path.hasPrefix("@executable_path/") || path.hasPrefix("@loader_path/") {
      var text = """
        Embed \(CodeSpan.markdown(name)) in the app: in the app target's **General → Frameworks, Libraries, and \
        Embedded Content**, set `\(name)\(path.contains(".framework") ? ".framework" : "")` to \
        **Embed & Sign**. If it is already embedded, check **Runpath Search Paths** \
        (`LD_RUNPATH_SEARCH_PATHS`): it must contain `@executable_path/Frameworks` for an iOS app, \
        `@executable_path/../Frameworks` for a macOS app, or `@executable_path/../../Frameworks` \
        for an app extension.
        """
      if let referencedFrom, referencedFrom.contains(".appex/") {
        text +=
          "\n\nThe library is referenced from an app extension: embed it in the containing app and give the extension the `@executable_path/../../Frameworks` runpath."
      }
      text +=
        "\n\nFor CocoaPods or Carthage, make sure the embed/copy build phase runs for this configuration; for a Swift package that vends a dynamic library, add the product to the app target's embedded content."
      return text
    }
    return """
      The app links \(CodeSpan.markdown(path)) by an absolute path that exists on the build machine (for example \
      a Homebrew install) but not on the machine that ran the app. Ship the library inside the \
      app bundle and refer to it through `@rpath`:

      ```sh
      cp \(path) MyApp.app/Contents/Frameworks/
      install_name_tool -id @rpath/\(name) MyApp.app/Contents/Frameworks/\(name)
      install_name_tool -change \(path) @rpath/\(name) MyApp.app/Contents/MacOS/<executable>
      codesign --force --sign - MyApp.app/Contents/Frameworks/\(name)
      ```

      Add `@executable_path/../Frameworks` to the executable's runpath search paths, or link the \
      library statically instead.
      """
  }

  static let examples: [RuleExample] = [
    .triggers(
      "framework not embedded (iOS 15+ reasons)",
      ExampleReport(
        exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
        termination: ExampleReport.Termination(
          namespace: "DYLD", code: 1, indicator: "Library missing",
          reasons: [
            "Library not loaded: @rpath/Analytics.framework/Analytics",
            "Referenced from: <8A3C5E0F-1B2D-4E6F-9A0B-1C2D3E4F5A6B> /private/var/containers/Bundle/Application/0C7E/Example.app/Example",
            "Reason: tried: '/usr/lib/swift/Analytics.framework/Analytics' (no such file), '/private/var/containers/Bundle/Application/0C7E/Example.app/Frameworks/Analytics.framework/Analytics' (no such file)",
          ], details: ["(terminated at launch; ignore backtrace)"]),
        threads: [
          .main([
            .frame(.dyld, "__abort_with_payload"), .frame(.dyld, "abort_with_payload_wrapper_internal"),
            .frame(.dyld, "dyld4::halt(char const*, dyld4::StructuredError const*)"),
          ])
        ]),
      .definite,
      summaryContains: [
        "`@rpath/Analytics.framework/Analytics`", "Example.app/Example`", "Frameworks/Analytics.framework/Analytics`",
      ]),
    .triggers(
      "legacy Termination Description text",
      ExampleReport(
        exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
        termination: ExampleReport.Termination(
          namespace: "DYLD", code: 1,
          details: [
            "DYLD, dependent dylib '@rpath/Alamofire.framework/Alamofire' not found for '/private/var/containers/Bundle/Application/0C7E/Example.app/Example', tried but didn't find: '/usr/lib/swift/Alamofire.framework/Alamofire'"
          ]), threads: [.main([.frame(.dyld, "__abort_with_payload")])]),
      .definite, summaryContains: ["`@rpath/Alamofire.framework/Alamofire`"]),
    .triggers(
      "asi dyld lines only",
      ExampleReport(
        exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
        asi: [
          "dyld": [
            "dyld: Library not loaded: /usr/local/opt/openssl/lib/libssl.1.1.dylib",
            "Referenced from: /Applications/Example.app/Contents/MacOS/Example", "Reason: image not found",
          ]
        ], threads: [.main([.frame(.dyld, "__abort_with_payload")])]),
      .definite, summaryContains: ["libssl.1.1.dylib", "/Applications/Example.app/Contents/MacOS/Example"]),
    .ignores(
      "missing symbol (dyld-missing-symbol)",
      ExampleReport(
        exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
        termination: ExampleReport.Termination(
          namespace: "DYLD", code: 4, indicator: "Symbol missing",
          reasons: [
            "Symbol not found: _OBJC_CLASS_$_UISheetPresentationController",
            "Referenced from: /private/var/containers/Bundle/Application/0C7E/Example.app/Example",
            "Expected in: /System/Library/Frameworks/UIKit.framework/UIKit",
          ]), threads: [.main([.frame(.dyld, "__abort_with_payload")])])),
    .ignores(
      "an abort that mentions dyld only as a mode",
      ExampleReport(
        exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
        asi: ["dyld": ["dyld4 config: DYLD_LIBRARY_PATH=/usr/lib/system/introspection"]],
        threads: [.main(ExampleReport.abortFrames())])),
  ]
}
