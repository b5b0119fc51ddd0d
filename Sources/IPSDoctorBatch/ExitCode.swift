import IPSDoctorSupport

/// The process exit status, following `man sysexits` where a code applies.
///
/// When several apply in one batch, the most serious wins, in this order: `software` (70),
/// `cannotCreate` (73), `noInput` (66), `findings` (1), `dataError` (65), `success` (0): a new
/// crash is never hidden by an unreadable file. Usage errors (64) stop before any input is read.
/// `--fail-on never` turns off both 1 and 65; what remains are the command's own failures.
package enum ExitCode: Int32, Sendable, CaseIterable, Comparable {
  /// Nothing at or above `--fail-on` (and every input read).
  case success = 0
  /// Diagnoses at or above `--fail-on` that are not in the baseline.
  case findings = 1
  /// `EX_USAGE`: bad arguments.
  case usage = 64
  /// `EX_DATAERR`: some input yielded no report to diagnose (or had parse warnings under
  /// `--strict`); a damaged report that was still diagnosed is not one.
  case dataError = 65
  /// `EX_NOINPUT`: a named path does not exist, or no crash report was found.
  case noInput = 66
  /// `EX_SOFTWARE`: an internal error.
  case software = 70
  /// `EX_CANTCREAT`: the `--output` or `--write-baseline` file could not be written.
  case cannotCreate = 73

  var precedence: Int {
    switch self {
    case .success: 0
    case .dataError: 1
    case .findings: 2
    case .noInput: 3
    case .usage: 4
    case .cannotCreate: 5
    case .software: 6
    }
  }

  package static func < (lhs: ExitCode, rhs: ExitCode) -> Bool { lhs.precedence < rhs.precedence }
}
