import Testing

@testable import IPSDoctorSupport

/// `PathName`'s parts, as the dSYM search beside a report takes them.
@Suite("Path names")
struct PathNameTests {
  @Test(
    "The directory of a path: everything before its last slash, \"/\" at the root, \".\" without one",
    arguments: [
      ("crashes/app/x.ips", "crashes/app"), ("x.ips", "."), ("/x.ips", "/"), ("/var/x.ips", "/var"),
      ("a//x.ips", "a/"), ("a/b/", "a/b"), ("", "."),
    ])
  func directory(path: String, expected: String) {
    #expect(PathName(path).directory == PathName(expected))
  }

  @Test(
    "The last component, trailing slashes aside",
    arguments: [("crashes/x.ips", "x.ips"), ("x.ips", "x.ips"), ("a/b/", "b"), ("/", ""), ("", "")])
  func lastComponent(path: String, expected: String) {
    #expect(String(decoding: PathName(path).lastComponent, as: UTF8.self) == expected)
  }
}
