import IPSDoctorSupport

/// Recognises a build setting that makes a module's default isolation the main actor (SE-0466):
/// `.defaultIsolation(MainActor.self)` in a SwiftPM manifest, or
/// `SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor` in an Xcode project (Xcode 26 sets it in new app
/// projects). Textual: a setting inside a comment counts too, which only lowers severities.
enum DefaultIsolationSetting {
  static func setsMainActor(_ bytes: [UInt8]) -> Bool {
    let text = String(decoding: bytes, as: UTF8.self)
    let compact = String(text.unicodeScalars.filter { $0 != " " && $0 != "\t" && $0 != "\n" && $0 != "\r" })
    return compact.contains("defaultIsolation(MainActor.self)")
      || compact.contains("SWIFT_DEFAULT_ACTOR_ISOLATION=MainActor")
  }
}
