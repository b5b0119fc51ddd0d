import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// Standard library code compiled into the app's image is the app's by image only: libc++'s
/// templates and assertion messages, Rust's panic machinery. The first frame below it is what the
/// app did.
@Suite("Standard library frames in the app's image")
struct LinkedLibraryFrameTests {
  @Test(
    "Which names are library code",
    arguments: [
      ("std::__1::vector<Stop, std::__1::allocator<Stop>>::operator[][abi:se180100](unsigned long)", true),
      ("*/usr/include/c++/v1/vector:1393: assertion __n < size() failed: vector[] index out of bounds\\n", true),
      ("std::__libcpp_verbose_abort(char const*, ...)", true),
      ("core::panicking::panic_bounds_check::h0123456789abcdef", true),
      ("std::panicking::begin_panic_handler::{{closure}}", true),
      ("transitLib::Pathfinder::getPathBetweenStops(Stop const&, Stop const&)", false),
      ("std::thread::spawn::{{closure}}", false),
      ("Router.route(to:)", false),
      ("closure #1 in Store.load()", false),
    ] as [(String, Bool)])
  func library(name: String, expected: Bool) {
    #expect(LinkedLibraryFrame.contains(name) == expected)
  }

  static func report(caller: String) -> String {
    ExampleReport(
      exception: ExampleReport.Exception("EXC_BREAKPOINT", signal: "SIGTRAP"),
      threads: [
        .main([
          .frame(.app, "*/c++/v1/vector:1393: assertion __n < size() failed: vector[] index out of bounds"),
          .frame(.app, "std::__1::vector<Stop, std::__1::allocator<Stop>>::operator[](unsigned long)"),
          .frame(.app, caller), .frame(.app, "main"),
        ])
      ]
    ).rendered
  }

  @Test("Index errors at two call sites through vector::operator[] are two groups, led by the caller")
  func grouping() throws {
    let first = Doctor.diagnose(try ReportReader.read(Self.report(caller: "Pathfinder::getPath(Stop const&)")))
    let again = Doctor.diagnose(try ReportReader.read(Self.report(caller: "Pathfinder::getPath(Stop const&)")))
    let other = Doctor.diagnose(try ReportReader.read(Self.report(caller: "Timetable::load(Feed&)")))
    #expect(first.signature == again.signature)
    #expect(first.signature != other.signature)
    #expect(first.summary.firstAppFrame?.contains("Pathfinder::getPath(Stop const&)") == true)
  }
}
