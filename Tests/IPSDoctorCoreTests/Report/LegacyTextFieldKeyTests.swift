import Testing

@testable import IPSDoctorCore

/// `Field` finds header keys over the bytes when the key is ASCII; it must agree with
/// `Substring == String` for every key and label.
struct LegacyTextFieldKeyTests {
  /// The field an ASCII key finds from its bytes, or a key of other text by `String` equality.
  static func field(_ key: Substring) -> Field? {
    let bytes = Array(key.utf8)
    guard bytes.allSatisfy({ $0 < 0x80 }) else { return Field(key) }
    let padded = [0x20, 0x3A] + bytes + [0x3A]
    return padded.withUnsafeBufferPointer { Field($0, 2..<(2 + bytes.count)) }
  }

  @Test("Field keys: byte matching agrees with String equality")
  func agreesWithEquality() {
    var keys: [Substring] = [
      "Process", "process", "Process ", "Proces", "Kernel Triage", "\u{212A}ernel Triage",
      "Exception Type", "Exception Typ\u{E9}", "Path", "Pat", "PID", "", "P\u{130}D",
      "xxPathxx".dropFirst(2).dropLast(2), "Date", "Date/Time", "Exception Notes", "Exception Note",
      "Hardware model", "Hardware Model", "Frontmost process PID", "Application Specific Information",
      "Application Specific Informatio", "Application Specific Informationn",
    ]
    for field in Field.allCases {
      let label = field.label.description
      keys.append(Substring(label))
      keys.append(Substring(label.lowercased()))
      keys.append(Substring(label.uppercased()))
      keys.append(Substring(label.dropLast()))
      keys.append(Substring(label + "x"))
    }
    for key in keys {
      let found = Self.field(key)
      for field in Field.allCases {
        #expect((found == field) == (key == field.label.description), "\(key) \(field)")
      }
      #expect((found == nil) == !Field.allCases.contains { key == $0.label.description }, "\(key)")
    }
    #expect(Self.field("\u{212A}ernel Triage") == .kernelTriage)
  }

  @Test("Section labels are the labels that end the termination reason lines")
  func sectionLabels() {
    for field in Field.allCases {
      #expect(field.isSectionLabel == LegacyTextReader.sectionLabels.contains(Substring(field.label.description)))
    }
    #expect(
      LegacyTextReader.sectionLabels.allSatisfy { label in Field.allCases.contains { $0.label.description == label } })
  }
}
