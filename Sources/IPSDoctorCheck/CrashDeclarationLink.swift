import IPSDoctorDiagnosis
import IPSDoctorReport
import IPSDoctorSupport

/// `check --report crash.ips`: from the crash's bridge frame (`@objc closure #1 in T.m(…)`) to
/// the declaration of `T.m` in the scanned sources.
package struct CrashDeclarationLink: Sendable, Equatable {
  package var file: String
  package var line: Int
  package var column: Int
  /// `T.m(…)` as the frame names it.
  var frame: String

  /// The declarations named by the bridge frame of `reportBytes` among the files `checker` has
  /// scanned: empty when the report has no bridge frame or no scanned type declares the method as
  /// an `async` method with a body (the bridge is the thunk of one). `nil` when it is not a crash
  /// report.
  package static func links(reportBytes: [UInt8], in checker: SourceChecker) -> (
    frame: String?, links: [CrashDeclarationLink]
  )? {
    guard let report = try? ReportReader.read(reportBytes) else { return nil }
    let context = DiagnosisContext(report: report)
    guard let bridge = MainThreadAssertion.bridgeFrame(in: context) else { return (nil, []) }
    let typeName = bridge.typeName.split(separator: ".").last.map(String.init) ?? bridge.typeName
    var links: [CrashDeclarationLink] = []
    for (display, file) in checker.files {
      for function in file.functions where function.swiftName == bridge.method {
        guard let type = function.enclosingType, file.types[type].simpleName == typeName[...] else { continue }
        links.append(
          CrashDeclarationLink(
            file: display, line: function.line, column: function.column, frame: bridge.qualifiedName))
      }
    }
    return (bridge.qualifiedName, links)
  }
}
