import Testing

@testable import IPSDoctorCore

/// `FieldKey` matches header keys against case labels over the bytes when the key is ASCII; it
/// must agree with `Substring == String` for every key.
struct LegacyTextFieldKeyTests {
  static func matches(_ key: Substring, _ label: StaticString) -> Bool {
    switch FieldKey(key) {
    case label: return true
    default: return false
    }
  }

  @Test("Field keys: byte matching agrees with String equality")
  func agreesWithEquality() {
    let labels: [StaticString] = ["Process", "Kernel Triage", "Exception Type", "Path", "PID"]
    let keys: [Substring] = [
      "Process", "process", "Process ", "Proces", "Kernel Triage", "\u{212A}ernel Triage",
      "Exception Type", "Exception Typ\u{E9}", "Path", "Pat", "PID", "", "P\u{130}D",
      "xxPathxx".dropFirst(2).dropLast(2),
    ]
    for key in keys {
      for label in labels {
        #expect(Self.matches(key, label) == (key == label.description), "\(key) \(label)")
      }
    }
    #expect(Self.matches("\u{212A}ernel Triage", "Kernel Triage"))
  }
}
