import IPSDoctorSupport

/// Which files the server's tools may read. A path is resolved against the server's working
/// directory, then to its physical path (`realpath`: no symbolic link, no `.` or `..`), and that is
/// what is checked and what is read; so a link inside a root that points out of it is refused.
///
/// Invariant: with `roots` set, every file a tool reads has a physical path equal to a root or
/// below one. With `roots` `nil` (the client declared none), any path is allowed.
struct MCPFileAccess: Sendable {
  /// Where relative paths start.
  var workingDirectory: PathName
  /// The physical paths of the client's roots, or `nil` when the client declared none.
  var roots: [PathName]?

  /// The physical path of `argument`, when it exists and is allowed; otherwise why not.
  func resolve(_ argument: String) -> Result<PathName, MCPToolFailure> {
    guard !argument.isEmpty else { return .failure(MCPToolFailure("a path is empty")) }
    let given = PathName(argument)
    let absolute = given.bytes.first == UInt8(ascii: "/") ? given : workingDirectory.appending(given.bytes)
    guard let physical = POSIX.physicalPath(absolute) else {
      let reason: String
      switch POSIX.status(absolute) {
      case .failure(let error): reason = error.message
      case .success: reason = "cannot be resolved"
      }
      return .failure(MCPToolFailure("'\(given.display)': \(reason)"))
    }
    guard allows(physical) else {
      return .failure(
        MCPToolFailure(
          "'\(given.display)' is outside the roots the client declared (\(rootList)); ask the user to add its folder as a root"
        ))
    }
    return .success(physical)
  }

  /// Whether `physical` (a path from ``resolve(_:)`` or `realpath`) is inside a root.
  func allows(_ physical: PathName) -> Bool {
    guard let roots else { return true }
    return roots.contains { root in Self.contains(root, physical) }
  }

  /// Whether the physical path of the file `path` names is inside a root (for files found inside
  /// a folder, which may be symbolic links).
  func allowsFile(_ path: PathName) -> Bool {
    guard roots != nil else { return true }
    guard let physical = POSIX.physicalPath(path) else { return false }
    return allows(physical)
  }

  private var rootList: String {
    guard let roots, !roots.isEmpty else { return "none" }
    return roots.map(\.display).joined(separator: ", ")
  }

  /// Whether `path` is `root` or below it, comparing whole components.
  static func contains(_ root: PathName, _ path: PathName) -> Bool {
    let rootBytes =
      root.bytes.last == UInt8(ascii: "/") && root.bytes.count > 1 ? root.bytes.dropLast() : root.bytes[...]
    guard path.bytes.starts(with: rootBytes) else { return false }
    if path.bytes.count == rootBytes.count || rootBytes == [UInt8(ascii: "/")] { return true }
    return path.bytes[rootBytes.count] == UInt8(ascii: "/")
  }

  /// The path of a `file:` URI (`file:///Users/a/My%20App`, `file://localhost/…`), percent-decoded;
  /// `nil` for another scheme, a remote host or a malformed escape.
  static func path(fromFileURI uri: String) -> PathName? {
    let bytes = Array(uri.utf8)
    let scheme = Array("file://".utf8)
    guard bytes.count > scheme.count,
      String(decoding: bytes[..<scheme.count], as: UTF8.self).lowercased() == "file://"
    else { return nil }
    var rest = bytes[scheme.count...]
    guard let slash = rest.firstIndex(of: UInt8(ascii: "/")) else { return nil }
    let host = String(decoding: rest[..<slash], as: UTF8.self).lowercased()
    guard host.isEmpty || host == "localhost" else { return nil }
    rest = rest[slash...]
    if let end = rest.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
      rest = rest[..<end]
    }
    var decoded: [UInt8] = []
    var index = rest.startIndex
    while index < rest.endIndex {
      let byte = rest[index]
      if byte == UInt8(ascii: "%") {
        guard index + 2 < rest.endIndex, let high = hexValue(rest[index + 1]), let low = hexValue(rest[index + 2])
        else { return nil }
        let value = high << 4 | low
        guard value != 0 else { return nil }
        decoded.append(value)
        index += 3
      } else {
        decoded.append(byte)
        index += 1
      }
    }
    return PathName(bytes: decoded)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// The working directory (`getcwd`), or `/` when it cannot be named.
  static func currentDirectory() -> PathName {
    var buffer = [CChar](repeating: 0, count: POSIX.pathLimit + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return PathName("/") }
    let length = buffer.firstIndex(of: 0) ?? buffer.count
    return PathName(bytes: buffer[..<length].map { UInt8(bitPattern: $0) })
  }
}

/// Why a tool could not do what it was asked: returned to the client as a tool result with
/// `isError: true`, not as a protocol error, so the agent can read it and act on it.
struct MCPToolFailure: Error, Sendable, Equatable {
  var message: String

  init(_ message: String) {
    self.message = message
  }
}
