import IPSDoctorSupport

/// A header key the text reader models.
///
/// A key is found from its bytes: by its length, then a byte comparison with the few labels of
/// that length, where a `switch` of `String` patterns tried some sixty labels one after another on
/// every header line. The labels are ASCII and a key is one exactly when its bytes are the label's:
/// a key spelled with other code points ("\u{212A}ernel Triage", with a Kelvin sign) is no label.
enum Field: CaseIterable {
  case incidentIdentifier, hardwareModel, hardwareModelLowercase, process, command, pid, powerstatsFor, path
  case identifier, version, codeType, parentProcess, dateTime, date, launchTime, osVersion, releaseType
  case exceptionType, exceptionCodes, exceptionSubtype, exceptionMessage, exceptionNote, exceptionNotes
  case exceptionReason, terminationReason, terminationDescription, terminationDetails, terminationSignal
  case terminatingProcess, triggeredByThread, crashedThread, highlightedThread, applicationSpecificInformation
  case kernelTriage, vmRegionInfo, vmRegionSummary, dyldErrorMessage, filteredSyslog, externalModificationSummary
  case translatedCodeInformation, systemProfile, applicationSpecificSignatures, logicalCPU, errorCode, trapNumber
  case event, actionTaken, reason, exceptionCode, frontmostProcessPID

  var label: StaticString {
    switch self {
    case .incidentIdentifier: "Incident Identifier"
    case .hardwareModel: "Hardware Model"
    case .hardwareModelLowercase: "Hardware model"
    case .process: "Process"
    case .command: "Command"
    case .pid: "PID"
    case .powerstatsFor: "Powerstats for"
    case .path: "Path"
    case .identifier: "Identifier"
    case .version: "Version"
    case .codeType: "Code Type"
    case .parentProcess: "Parent Process"
    case .dateTime: "Date/Time"
    case .date: "Date"
    case .launchTime: "Launch Time"
    case .osVersion: "OS Version"
    case .releaseType: "Release Type"
    case .exceptionType: "Exception Type"
    case .exceptionCodes: "Exception Codes"
    case .exceptionSubtype: "Exception Subtype"
    case .exceptionMessage: "Exception Message"
    case .exceptionNote: "Exception Note"
    case .exceptionNotes: "Exception Notes"
    case .exceptionReason: "Exception Reason"
    case .terminationReason: "Termination Reason"
    case .terminationDescription: "Termination Description"
    case .terminationDetails: "Termination Details"
    case .terminationSignal: "Termination Signal"
    case .terminatingProcess: "Terminating Process"
    case .triggeredByThread: "Triggered by Thread"
    case .crashedThread: "Crashed Thread"
    case .highlightedThread: "Highlighted Thread"
    case .applicationSpecificInformation: "Application Specific Information"
    case .kernelTriage: "Kernel Triage"
    case .vmRegionInfo: "VM Region Info"
    case .vmRegionSummary: "VM Region Summary"
    case .dyldErrorMessage: "Dyld Error Message"
    case .filteredSyslog: "Filtered syslog"
    case .externalModificationSummary: "External Modification Summary"
    case .translatedCodeInformation: "Translated Code Information"
    case .systemProfile: "System Profile"
    case .applicationSpecificSignatures: "Application Specific Signatures"
    case .logicalCPU: "Logical CPU"
    case .errorCode: "Error Code"
    case .trapNumber: "Trap Number"
    case .event: "Event"
    case .actionTaken: "Action taken"
    case .reason: "Reason"
    case .exceptionCode: "Exception Code"
    case .frontmostProcessPID: "Frontmost process PID"
    }
  }

  /// Whether the key ends the continuation lines of "Termination Reason".
  var isSectionLabel: Bool {
    switch self {
    case .terminationDescription, .terminationDetails, .terminationSignal, .terminatingProcess, .terminationReason,
      .triggeredByThread, .crashedThread, .highlightedThread, .exceptionNote, .exceptionNotes, .exceptionType,
      .exceptionCodes, .exceptionSubtype, .exceptionMessage, .exceptionReason, .applicationSpecificInformation,
      .applicationSpecificSignatures, .kernelTriage, .vmRegionInfo, .vmRegionSummary, .filteredSyslog,
      .externalModificationSummary:
      true
    default:
      false
    }
  }

  /// The fields by the length of their label.
  static let byLength: [[Field]] = {
    var table: [[Field]] = []
    for field in allCases {
      let count = field.label.utf8CodeUnitCount
      while table.count <= count { table.append([]) }
      table[count].append(field)
    }
    return table
  }()

  /// The field whose label is the key `bytes[key]`, or `nil`.
  init?(_ bytes: UnsafeBufferPointer<UInt8>, _ key: Range<Int>) {
    let table = Self.byLength
    guard key.count < table.count, let base = bytes.baseAddress else { return nil }
    for field in table[key.count] where memcmp(base + key.lowerBound, field.label.utf8Start, key.count) == 0 {
      self = field
      return
    }
    return nil
  }
}
