import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorReport
@testable import IPSDoctorSupport
@testable import IPSDoctorSymbolication

/// `Field` finds a header key from its bytes: a key is a label exactly when its bytes are the
/// label's.
struct LegacyTextFieldKeyTests {
  /// The field of `key`, found from its bytes inside a longer line.
  static func field(_ key: String) -> Field? {
    let bytes = Array(key.utf8)
    let padded = [0x20, 0x3A] + bytes + [0x3A]
    return padded.withUnsafeBufferPointer { Field($0, 2..<(2 + bytes.count)) }
  }

  @Test("Field keys: a key is the label with the same bytes")
  func byteEquality() {
    var keys: [String] = [
      "Process", "process", "Process ", "Proces", "Kernel Triage", "\u{212A}ernel Triage",
      "Exception Type", "Exception Typ\u{E9}", "Path", "Pat", "PID", "", "P\u{130}D",
      String("xxPathxx".dropFirst(2).dropLast(2)), "Date", "Date/Time", "Exception Notes", "Exception Note",
      "Hardware model", "Hardware Model", "Frontmost process PID", "Application Specific Information",
      "Application Specific Informatio", "Application Specific Informationn",
    ]
    for field in Field.allCases {
      let label = field.label.description
      keys.append(label)
      keys.append(label.lowercased())
      keys.append(label.uppercased())
      keys.append(String(label.dropLast()))
      keys.append(label + "x")
    }
    for key in keys {
      let expected = Field.allCases.first { Array($0.label.description.utf8) == Array(key.utf8) }
      #expect(Self.field(key) == expected, "\(key)")
    }
    #expect(Self.field("Kernel Triage") == .kernelTriage)
    #expect(Self.field("Hardware model") == .hardwareModelLowercase)
    #expect(Self.field("Exception Notes") == .exceptionNotes)
    // The labels are ASCII: one spelled with other code points (a Kelvin sign for the "K") is no
    // label, though it is canonically equivalent to one.
    #expect(Self.field("\u{212A}ernel Triage") == nil)
    #expect(Self.field("Exception Typ\u{E9}") == nil)
  }

  @Test("Section labels are the labels that end the termination reason lines")
  func sectionLabels() {
    let labels: Set<String> = [
      "Termination Description", "Termination Details", "Termination Signal", "Terminating Process",
      "Termination Reason", "Triggered by Thread", "Crashed Thread", "Highlighted Thread",
      "Exception Note", "Exception Notes", "Exception Type", "Exception Codes", "Exception Subtype",
      "Exception Message", "Exception Reason", "Application Specific Information",
      "Application Specific Signatures", "Kernel Triage", "VM Region Info", "VM Region Summary",
      "Filtered syslog", "External Modification Summary",
    ]
    for field in Field.allCases {
      #expect(field.isSectionLabel == labels.contains(field.label.description), "\(field)")
    }
    #expect(labels.allSatisfy { label in Field.allCases.contains { $0.label.description == label } })
  }
}
