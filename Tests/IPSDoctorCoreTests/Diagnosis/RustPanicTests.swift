import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// A Rust binary links its standard library in: the panic machinery is in the app's image, the
/// same in every panic. The panic's location is the frame below the standard library's panic
/// function, and that is what names the crash and keys its group.
@Suite("Rust panics")
struct RustPanicTests {
  static let machinery = [
    "std::sys::pal::unix::abort_internal::hb2eff0c11ee55adc", "std::process::abort::h4aa5c6a95b45c783",
    "std::panicking::panic_with_hook::h9d9f4b295fd289e2",
    "std::sys::backtrace::__rust_end_short_backtrace::h2bd50c9fdd80557b",
    "_RNvCsbgTEAFGLn1v_7___rustc17rust_begin_unwind", "core::panicking::panic_nounwind_fmt::h6d33e9447de094e9",
  ]

  static func frames(_ names: [String]) -> [Frame] {
    names.map { Frame(imageOffset: 0x1000, symbol: $0) }
  }

  @Test(
    "The panic function and its caller below the machinery",
    arguments: [
      (
        machinery + ["core::panicking::panic_null_pointer_dereference::hc6", "tao::app::send_event::hee", "main"],
        6, 7
      ),
      (machinery + ["core::option::unwrap_failed::h1", "core::ops::function::FnOnce::call_once", "app::run"], 6, 8),
      (machinery + ["app::render::h1", "main"], 5, 6),
      (machinery, nil, nil),
      (["app::render::h1", "main"], nil, nil),
    ] as [([String], Int?, Int?)])
  func find(names: [String], function: Int?, location: Int?) {
    let found = RustPanic.find(in: Self.frames(names), from: 0, name: \.symbol)
    #expect(found?.panicFunction == function)
    #expect(found?.location == location)
  }

  static func report(location: String) -> String {
    let frames: [ExampleReport.Frame] =
      [.frame(.libsystemC, "abort")] + machinery.map { .frame(.app, $0) } + [
        .frame(.app, "core::panicking::panic_null_pointer_dereference::hc6531458ea594ca3"), .frame(.app, location),
        .frame(.appKit, "-[NSApplication run]"),
      ]
    return ExampleReport(
      exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"), threads: [.main(frames)]
    ).rendered
  }

  static func diagnose(_ text: String) throws -> DiagnosisResult {
    Doctor.diagnose(try ReportReader.read(text))
  }

  @Test("Panics at different places are different groups; the same panic is one")
  func grouping() throws {
    let sendEvent = try Self.diagnose(Self.report(location: "tao::app::send_event::hee0c284e9de7c1e2"))
    let again = try Self.diagnose(Self.report(location: "tao::app::send_event::hee0c284e9de7c1e2"))
    let draw = try Self.diagnose(Self.report(location: "renderer::draw_frame::h0123456789abcdef"))
    #expect(sendEvent.signature == again.signature)
    #expect(sendEvent.signature != draw.signature)
    #expect(sendEvent.summary.firstAppFrame?.contains("tao::app::send_event") == true)
  }
}
