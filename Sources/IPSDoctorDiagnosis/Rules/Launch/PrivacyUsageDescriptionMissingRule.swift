import IPSDoctorReport
import IPSDoctorSupport

/// TCC killed the app because it accessed privacy-protected data without the Info.plist
/// purpose string (`NS…UsageDescription`).
package struct PrivacyUsageDescriptionMissingRule: DiagnosisRule {
  package init() {}

  static let crashFrame = "__TCC_CRASHING_DUE_TO_PRIVACY_VIOLATION__"

  /// APIs on the stack and the key they need, for reports that do not name the key.
  static let apiKeys: [(fragment: String, key: String)] = [
    ("AVCaptureDevice", "NSCameraUsageDescription"),
    ("AVCaptureSession", "NSCameraUsageDescription"),
    ("requestRecordPermission", "NSMicrophoneUsageDescription"),
    ("AVAudioRecorder", "NSMicrophoneUsageDescription"),
    ("CLLocationManager", "NSLocationWhenInUseUsageDescription"),
    ("PHPhotoLibrary", "NSPhotoLibraryUsageDescription"),
    ("PHAsset", "NSPhotoLibraryUsageDescription"),
    ("CNContactStore", "NSContactsUsageDescription"),
    ("EKEventStore", "NSCalendarsUsageDescription"),
    ("CBCentralManager", "NSBluetoothAlwaysUsageDescription"),
    ("CBPeripheralManager", "NSBluetoothAlwaysUsageDescription"),
    ("SFSpeechRecognizer", "NSSpeechRecognitionUsageDescription"),
    ("CMMotionActivityManager", "NSMotionUsageDescription"),
    ("CMPedometer", "NSMotionUsageDescription"),
    ("HKHealthStore", "NSHealthShareUsageDescription"),
    ("MPMediaLibrary", "NSAppleMusicUsageDescription"),
    ("LAContext", "NSFaceIDUsageDescription"),
    ("ATTrackingManager", "NSUserTrackingUsageDescription"),
    ("NFCReaderSession", "NFCReaderUsageDescription"),
    ("HMHomeManager", "NSHomeKitUsageDescription"),
  ]

  package static let description = RuleDescription(
    id: "privacy-usage-description-missing",
    title: "Missing Privacy Usage Description",
    summary: "The app accessed privacy-protected data without the required NS…UsageDescription key in its Info.plist.",
    category: .launch,
    severity: .error,
    tier: .exact,
    rationale: """
      Access to the camera, microphone, photos, contacts, location, Bluetooth and other \
      protected resources requires a purpose string in the app's Info.plist. When the key is \
      missing, the privacy subsystem (TCC) kills the app the moment it asks: termination \
      namespace `TCC`, a crashed thread in `__TCC_CRASHING_DUE_TO_PRIVACY_VIOLATION__`, and a \
      description such as "This app has crashed because it attempted to access \
      privacy-sensitive data without a usage description. The app's Info.plist must contain an \
      NSCameraUsageDescription key …". It happens on first use, so it is easy to miss when the \
      developer's device already granted access in an earlier build.
      """,
    remedy: """
      Add the key named in the report to the Info.plist of the target that makes the request \
      (the app, or the extension if an extension asks), with a sentence that tells the user why \
      the app needs the data:

      ```xml
      <key>NSCameraUsageDescription</key>
      <string>Scan documents with the camera.</string>
      ```

      In Xcode: target → Info → Custom iOS Target Properties, or the `INFOPLIST_KEY_…` build \
      setting when the Info.plist is generated.
      """,
    references: [
      "https://developer.apple.com/documentation/bundleresources/information-property-list/protected-resources",
      "https://developer.apple.com/documentation/xcode/examining-the-fields-in-a-crash-report",
    ],
    examples: [
      .triggers(
        "iOS 15+ TCC termination with details",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          termination: ExampleReport.Termination(
            namespace: "TCC", code: 0,
            details: [
              "This app has crashed because it attempted to access privacy-sensitive data without a usage description.  The app's Info.plist must contain an NSCameraUsageDescription key with a string value explaining to the user how the app uses this data."
            ]),
          threads: [
            .main(ExampleReport.idleMainThread),
            ExampleReport.Thread([
              .frame(.libsystemKernel, "__abort_with_payload"),
              .frame(.tcc, "__TCC_CRASHING_DUE_TO_PRIVACY_VIOLATION__"),
              .frame(.tcc, "__TCCAccessRequest_block_invoke"),
            ]),
          ], crashedThread: 1),
        .definite, summaryContains: ["`NSCameraUsageDescription`", "threads[1].frames[1]"]),
      .triggers(
        "legacy report: namespace TCC, key inferred from frames",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          termination: ExampleReport.Termination(namespace: "TCC", code: 0),
          threads: [
            .main([
              .frame(.libsystemKernel, "mach_msg_trap"),
              .frame(.avfCapture, "+[AVCaptureDevice requestAccessForMediaType:completionHandler:]"),
              .frame(.app, "ScannerViewController.viewDidAppear(_:)"),
            ]),
            ExampleReport.Thread([
              .frame(.libsystemKernel, "__abort_with_payload"),
              .frame(.tcc, "__TCC_CRASHING_DUE_TO_PRIVACY_VIOLATION__"),
            ]),
          ], crashedThread: 1),
        .likely, summaryContains: ["`NSCameraUsageDescription`", "AVCaptureDevice"]),
      .ignores(
        "an abort in a TCC-adjacent frame without the privacy crash",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          asi: ["libsystem_c.dylib": ["abort() called"]],
          threads: [
            .main([
              .frame(.libsystemKernel, "__pthread_kill"), .frame(.libsystemC, "abort"),
              .frame(.tcc, "TCCAccessPreflight"),
            ])
          ])),
    ])

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    var evidence: [Evidence] = []
    let namespaceIsTCC =
      context.report.termination?.namespace == "TCC"
      || context.report.termination?.reasons.contains(where: { $0.contains("Namespace TCC") }) == true
    if namespaceIsTCC { evidence.append(Evidence("termination.namespace", "TCC")) }
    var frame: Evidence?
    if let backtrace = context.crashedBacktrace {
      frame = context.firstFrame(in: backtrace, containing: Self.crashFrame)?.evidence
    }
    if frame == nil && namespaceIsTCC { frame = context.firstFrameInAnyThread(containing: [Self.crashFrame]) }
    if let frame { evidence.append(frame) }
    // Otherwise only a text saying "privacy-sensitive" makes this fire.
    if !namespaceIsTCC && frame == nil && context.terminationText(containing: "privacy-sensitive") == nil {
      return nil
    }
    let text =
      context.terminationText(containing: "UsageDescription")
      ?? context.terminationText(containing: "without a usage description")
    if let text { evidence.append(text) }
    guard namespaceIsTCC || frame != nil || text?.detail.contains("privacy-sensitive") == true else {
      return nil
    }

    var summary =
      "The privacy system (TCC) killed \(context.processDisplayName) because it accessed privacy-protected data without a purpose string in its Info.plist."
    var key = text.flatMap { Self.usageKey(in: $0.detail) }
    var confidence = Confidence.definite
    if let key {
      summary += " The report names the missing key: \(CodeSpan.markdown(key))."
    } else if let (api, inferred) = Self.inferKey(context) {
      key = inferred
      summary +=
        " The report does not name the key; the stack calls \(CodeSpan.markdown(api.detail)) (\(api.path)), which needs \(CodeSpan.markdown(inferred))."
      evidence.append(api)
      confidence = .likely
    } else {
      summary += " The report does not name the key; find the protected API the app called just before the crash."
      confidence = namespaceIsTCC && frame != nil ? .definite : .likely
    }
    if let frame { summary += " The crashed thread is in \(CodeSpan.markdown(Self.crashFrame)) (\(frame.path))." }
    var remedy = Self.description.remedy
    if let key {
      remedy = """
        Add \(CodeSpan.markdown(key)) to the Info.plist of the target that makes the request, with a sentence that \
        tells the user why the app needs access:

        ```xml
        <key>\(key)</key>
        <string>Explain here why the app needs this access.</string>
        ```

        With a generated Info.plist, set the build setting `INFOPLIST_KEY_\(key)` instead.
        """
    }
    var diagnosis = finding(confidence: confidence, summary: summary, evidence: evidence, remedy: remedy)
    // Which usage description is missing tells one such crash from another.
    diagnosis.instanceKey = key
    return diagnosis
  }

  /// The first `NS…UsageDescription` (or `…UsageDescription`) token in `text`.
  static func usageKey(in text: String) -> String? {
    guard let range = text.firstRange(of: "UsageDescription") else { return nil }
    if let word = asciiLettersAndDigits(before: range.lowerBound, in: text) {
      return word.isEmpty ? nil : word + "UsageDescription"
    }
    let before = text[..<range.lowerBound].reversed().prefix(while: { $0.isLetter || $0.isNumber })
    guard !before.isEmpty else { return nil }
    return String(before.reversed()) + "UsageDescription"
  }

  /// The ASCII letters and digits just before `end`, when every byte before it is ASCII and none
  /// is a carriage return (then each byte is one `Character`, and `isLetter`/`isNumber` are the
  /// ASCII tests), without walking `Character`s backwards; `nil` otherwise.
  static func asciiLettersAndDigits(before end: String.Index, in text: String) -> String? {
    let prefix = text.utf8[..<end]
    guard prefix.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "\r") }) else { return nil }
    var start = prefix.endIndex
    while start > prefix.startIndex {
      let byte = prefix[prefix.index(before: start)]
      let isLetterOrDigit =
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
        || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
      guard isLetterOrDigit else { break }
      start = prefix.index(before: start)
    }
    return String(text[start..<end])
  }

  static func inferKey(_ context: DiagnosisContext) -> (Evidence, String)? {
    // The first API any frame calls, in `apiKeys` order.
    guard let found = context.firstFrameInAnyThread(containingFirstOf: apiFragments) else {
      return nil
    }
    return (found.evidence, apiKeys[found.fragment].key)
  }

  static let apiFragments = apiKeys.map(\.fragment)
}
