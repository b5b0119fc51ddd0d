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

  /// The declarations named by the bridge frame of `reportBytes`: empty when the report has no
  /// bridge frame or no scanned type declares the method. `nil` when it is not a crash report.
  package static func links(reportBytes: [UInt8], sources: [SourceChecker.Source]) -> (
    frame: String?, links: [CrashDeclarationLink]
  )? {
    guard let report = try? ReportReader.read(reportBytes) else { return nil }
    let context = DiagnosisContext(report: report)
    guard let bridge = MainThreadAssertion.bridgeFrame(in: context) else { return (nil, []) }
    let typeName = bridge.typeName.split(separator: ".").last.map(String.init) ?? bridge.typeName
    var links: [CrashDeclarationLink] = []
    for source in sources {
      let file = SwiftDeclarationScanner.scan(source.bytes)
      for function in file.functions where function.swiftName == bridge.method {
        guard let type = function.enclosingType, file.types[type].simpleName == typeName[...] else { continue }
        links.append(
          CrashDeclarationLink(
            file: source.display, line: function.line, column: function.column, frame: bridge.qualifiedName))
      }
    }
    return (bridge.qualifiedName, links)
  }
}
