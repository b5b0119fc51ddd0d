import IPSDoctorSupport

/// SwiftUI's fatal error for an `@EnvironmentObject` / `@Environment(Type.self)` with nothing
/// injected: "No ObservableObject of type X found" / "No Observable object of type X found".
package struct SwiftUIMissingEnvironmentObjectRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "swiftui-missing-environment-object",
    title: "SwiftUI Environment Object Missing",
    summary: "A SwiftUI view read an environment object that no ancestor view provided.",
    category: .frameworks,
    severity: .error,
    tier: .exact,
    rationale: """
      `@EnvironmentObject var store: Store` (and, with Observation, `@Environment(Store.self)`) \
      reads an object that an ancestor must inject with `.environmentObject(store)` / \
      `.environment(store)`. When the view's body runs and none is found, SwiftUI stops the app: \
      "Fatal error: No ObservableObject of type Store found. A View.environmentObject(_:) for Store \
      may be missing as an ancestor of this view." (or "No Observable object of type Store found").

      It typically happens in views presented in a new hierarchy — `.sheet`, `.fullScreenCover`, \
      `.popover`, a new `WindowGroup`/scene, a `UIHostingController` created in UIKit code, an \
      `NSHostingView`, previews — where the environment of the presenting view is not inherited, or \
      after a refactor that moved the injection below the reader.
      """,
    remedy: """
      Inject the object above every view that reads it, including each separately presented \
      hierarchy (sheets, covers, new windows, hosting controllers) and previews.
      """,
    references: [
      "https://developer.apple.com/documentation/swiftui/environmentobject",
      "https://developer.apple.com/documentation/swiftui/view/environment(_:)",
    ],
    examples: Examples.all)

  static let markers = ["No ObservableObject of type ", "No Observable object of type "]

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let reason = context.reasonText(containingAny: Self.markers)
    else { return nil }
    let isObservation = reason.detail.contains(Self.markers[1])
    let marker = isObservation ? Self.markers[1] : Self.markers[0]
    let typeName = SymbolText.between(reason.detail, marker, " found")
    var evidence = [reason]
    // The view whose body read it: the first app frame on the crashed thread.
    var reader: DiagnosisContext.AppFrame?
    if let backtrace = context.crashedBacktrace {
      reader = context.appFrame(in: backtrace)
    }
    if let reader { evidence.append(reader.evidence) }

    let type = typeName ?? "the object"
    var summary =
      "SwiftUI stopped the app because no \(CodeSpan.markdown(type)) was in the environment "
      + "(\"\(marker)\(type) found\", \(reason.path))."
    if let reader {
      if let name = reader.name, let body = name.firstRange(of: ".body"),
        let view = name[..<body.lowerBound].split(separator: " ").last?.split(separator: ".").last
      {
        summary +=
          " The view \(CodeSpan.markdown(view)) read it in its body (\(CodeSpan.markdown(name)), \(reader.evidence.path))."
      } else {
        summary += " It was read by \(reader.quotedName) (\(reader.evidence.path))."
      }
    }
    summary +=
      isObservation
      ? " An ancestor must call `.environment(\(lowerFirst(type)))`."
      : " An ancestor must call `.environmentObject(\(lowerFirst(type)))`."
    return finding(
      confidence: .definite, summary: summary, evidence: evidence,
      remedy: remedy(type: typeName, reader: reader?.name, observation: isObservation),
      verification: [
        "Open every path to the reading view (including sheets, covers and new windows) and its previews; each must have the object injected above it."
      ])
  }

  private func lowerFirst(_ name: String) -> String {
    guard let first = name.first, first.isUppercase else { return name.isEmpty ? "object" : name }
    return first.lowercased() + name.dropFirst()
  }

  private func remedy(type: String?, reader: String?, observation: Bool) -> String {
    let type = type ?? "Store"
    let variable = lowerFirst(type)
    let view =
      reader.flatMap { name in
        name.firstRange(of: ".body").flatMap { body in
          name[..<body.lowerBound].split(separator: " ").last?.split(separator: ".").last.map(String.init)
        }
      } ?? "ProfileView"
    var text = Self.description.remedy + "\n\n```swift\n"
    if observation {
      text += """
        @main
        struct MyApp: App {
          @State private var \(variable) = \(type)()
          var body: some Scene {
            WindowGroup {
              RootView()
                .environment(\(variable))  // every view below can read @Environment(\(type).self)
            }
          }
        }

        // A sheet is a new hierarchy: inject again.
        .sheet(isPresented: $showProfile) {
          \(view)().environment(\(variable))
        }
        """
    } else {
      text += """
        @main
        struct MyApp: App {
          @StateObject private var \(variable) = \(type)()
          var body: some Scene {
            WindowGroup {
              RootView()
                .environmentObject(\(variable))  // every view below can read @EnvironmentObject
            }
          }
        }

        // A sheet is a new hierarchy: inject again.
        .sheet(isPresented: $showProfile) {
          \(view)().environmentObject(\(variable))
        }

        #Preview { \(view)().environmentObject(\(type)()) }
        """
    }
    text += "\n```"
    return text
  }
}

extension SwiftUIMissingEnvironmentObjectRule {
  enum Examples {
    static func report(_ message: String) -> ExampleReport {
      ExampleReport.swiftFatalError(
        message, from: "EnvironmentObject.error()", in: .swiftUICore, calledBy: "SettingsView.body.getter")
    }

    static let all: [RuleExample] = [
      .triggers(
        "@EnvironmentObject without an injected object",
        report(
          "SwiftUI/EnvironmentObject.swift:92: Fatal error: No ObservableObject of type SessionStore found. A View.environmentObject(_:) for SessionStore may be missing as an ancestor of this view."
        ),
        .definite,
        summaryContains: [
          "`SessionStore`", "The view `SettingsView` read it", "SettingsView.body.getter",
          "threads[0].frames[2]", ".environmentObject(sessionStore)",
        ]),
      .triggers(
        "@Environment(Type.self) with Observation",
        report(
          "SwiftUI/Environment+Objects.swift:34: Fatal error: No Observable object of type AppModel found. A View.environmentObject(_:) for AppModel may be missing as an ancestor of this view."
        ),
        .definite, summaryContains: ["`AppModel`", ".environment(appModel)"]),
      RuleExample(
        "fixture: profile view without its SessionStore",
        .fixture("reports/swiftui-missing-environment-object.ips"),
        .triggers(.definite, summaryContains: ["`SessionStore`", "ProfileView.body.getter"])),
      .ignores(
        "an ordinary fatal error in a view body",
        report("Fatal error: Unexpectedly found nil while unwrapping an Optional value")),
    ]
  }
}
