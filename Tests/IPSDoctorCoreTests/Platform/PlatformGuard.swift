import Foundation

/// Reads Swift sources for what would not compile, or not behave, on macOS: C functions and
/// constants that Darwin marks unavailable in Swift or does not have, Linux-only paths, and
/// platform conditionals outside `IPSDoctorSupport`. `docs/platforms.md` lists each entry with
/// the header that decides it.
enum PlatformGuard {
  /// A name Darwin refuses, and why.
  struct Entry {
    var name: String
    /// Whether it is used as a call (`name(`), rather than as a constant or a member.
    var isCall: Bool
    var darwin: String
  }

  static let forbidden: [Entry] = [
    // Marked unavailable in Swift by Apple's Libc headers.
    Entry(
      name: "popen", isCall: true, darwin: "_stdio.h: __swift_unavailable(\"Use posix_spawn APIs or NSTask instead.\")"),
    Entry(
      name: "pclose", isCall: true, darwin: "_stdio.h: __swift_unavailable(\"Use posix_spawn APIs or NSTask instead.\")"
    ),
    Entry(
      name: "system", isCall: true,
      darwin: "_stdlib.h: __swift_unavailable(\"Use posix_spawn APIs or NSTask instead.\")"),
    Entry(name: "sprintf", isCall: true, darwin: "_stdio.h: __swift_unavailable(\"Use snprintf instead.\")"),
    Entry(name: "vsprintf", isCall: true, darwin: "_stdio.h: __swift_unavailable(\"Use vsnprintf instead.\")"),
    Entry(name: "tmpnam", isCall: true, darwin: "_stdio.h: __swift_unavailable(\"Use mkstemp(3) instead.\")"),
    Entry(name: "tempnam", isCall: true, darwin: "_stdio.h: __swift_unavailable(\"Use mkstemp(3) instead.\")"),
    Entry(name: "rand", isCall: true, darwin: "_stdlib.h: __swift_unavailable(\"Use arc4random instead.\")"),
    Entry(name: "srand", isCall: true, darwin: "_stdlib.h: __swift_unavailable(\"Use arc4random instead.\")"),
    Entry(name: "random", isCall: true, darwin: "_stdlib.h: __swift_unavailable(\"Use arc4random instead.\")"),
    // Marked unavailable by the Swift overlay (stdlib/public/Platform/Platform.swift).
    Entry(
      name: "fork", isCall: true,
      darwin: "Platform.swift: @available(*, unavailable, message: \"Please use threads or posix_spawn*()\")"),
    Entry(
      name: "vfork", isCall: true,
      darwin: "Platform.swift: @available(*, unavailable, message: \"Please use threads or posix_spawn*()\")"),
    // Not exported by the Darwin module, or only from a later macOS than the package's 15.
    Entry(
      name: "_NSGetEnviron", isCall: true,
      darwin: "crt_externs.h, not part of the Darwin module; the overlay's `environ` is the portable name"),
    Entry(name: "strchrnul", isCall: true, darwin: "_string.h: __OSX_AVAILABLE(15.4), above the package's macOS 15"),
    // GNU or Linux only: no declaration in Apple's headers.
    Entry(name: "memrchr", isCall: true, darwin: "not in _string.h"),
    Entry(
      name: "strerror_r", isCall: true,
      darwin: "_string.h declares the XSI form (returns int); Glibc's GNU form returns char *"),
    Entry(name: "pipe2", isCall: true, darwin: "not in unistd.h"),
    Entry(name: "dup3", isCall: true, darwin: "not in unistd.h"),
    Entry(name: "accept4", isCall: true, darwin: "not in sys/socket.h"),
    Entry(name: "renameat2", isCall: true, darwin: "not in stdio.h (Darwin has renameatx_np)"),
    Entry(name: "getrandom", isCall: true, darwin: "not in Apple's headers (Darwin has getentropy, arc4random_buf)"),
    Entry(name: "statx", isCall: true, darwin: "not in sys/stat.h"),
    Entry(name: "sched_getaffinity", isCall: true, darwin: "not in sched.h"),
    Entry(name: "mallopt", isCall: true, darwin: "malloc.h is glibc's; Darwin's malloc/malloc.h has no mallopt"),
    Entry(name: "memfd_create", isCall: true, darwin: "not in Apple's headers"),
    Entry(name: "O_TMPFILE", isCall: false, darwin: "not in fcntl.h"),
    Entry(name: "__environ", isCall: false, darwin: "glibc's name; Darwin has no such symbol"),
    Entry(name: "st_mtim", isCall: false, darwin: "sys/stat.h names the field st_mtimespec"),
    Entry(name: "st_atim", isCall: false, darwin: "sys/stat.h names the field st_atimespec"),
    Entry(name: "st_ctim", isCall: false, darwin: "sys/stat.h names the field st_ctimespec"),
  ]

  /// Paths that exist on Linux only, refused in string literals.
  static let linuxPaths = [
    ("/proc/", "no procfs on macOS"),
    ("/dev/full", "no /dev/full on macOS"),
  ]

  struct Violation: Equatable, CustomStringConvertible {
    var file: String
    var line: Int
    var what: String
    var description: String { "\(file):\(line): \(what)" }
  }

  /// The violations in `source`, a Swift file named `file`. `allowsConditionals` is true for the
  /// files of `IPSDoctorSupport` (and tests), where platform conditionals belong.
  static func check(_ source: String, file: String, allowsConditionals: Bool) -> [Violation] {
    var violations: [Violation] = []
    let lexed = SwiftLexed(source)
    // Each line's branch: whether it is inside a branch that only Linux compiles.
    var branches: [(linuxOnly: Bool, linuxCondition: Bool)] = []
    for (index, code) in lexed.code.enumerated() {
      let line = index + 1
      let trimmed = code.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("#if ") || trimmed.hasPrefix("#elseif ") || trimmed == "#else" || trimmed.hasPrefix("#else ")
      {
        if !allowsConditionals && mentionsPlatform(trimmed) {
          violations.append(
            Violation(file: file, line: line, what: "platform conditional outside IPSDoctorSupport: \(trimmed)"))
        }
        let isLinux = linuxOnlyCondition(trimmed)
        if trimmed.hasPrefix("#if ") {
          branches.append((isLinux, isLinux))
        } else if !branches.isEmpty {
          // An #elseif or #else after a Linux-only condition is a branch Linux does not take.
          let last = branches.removeLast()
          branches.append((trimmed.hasPrefix("#elseif ") ? isLinux : false, last.linuxCondition))
        }
        continue
      }
      if trimmed.hasPrefix("#endif") {
        if !branches.isEmpty { branches.removeLast() }
        continue
      }
      if !allowsConditionals, let module = importedPlatformModule(trimmed) {
        violations.append(Violation(file: file, line: line, what: "imports \(module) outside IPSDoctorSupport"))
      }
      if branches.contains(where: \.linuxOnly) { continue }
      for entry in forbidden where uses(entry, in: code) {
        violations.append(Violation(file: file, line: line, what: "\(entry.name) (\(entry.darwin))"))
      }
      for literal in lexed.literals[index] {
        for (path, why) in linuxPaths where literal.contains(path) {
          violations.append(Violation(file: file, line: line, what: "\"\(path)\" (\(why))"))
        }
      }
    }
    return violations
  }

  static func mentionsPlatform(_ directive: String) -> Bool {
    ["os(", "canImport(Glibc)", "canImport(Darwin)", "canImport(Musl)", "arch(", "targetEnvironment("]
      .contains { directive.contains($0) }
  }

  static func linuxOnlyCondition(_ directive: String) -> Bool {
    let linux = ["os(Linux)", "canImport(Glibc)", "canImport(Musl)"]
    return linux.contains { directive.contains($0) } && !directive.contains("!") && !directive.contains("||")
  }

  static func importedPlatformModule(_ line: String) -> String? {
    for module in ["Glibc", "Darwin", "Musl"] where line == "import \(module)" || line.hasSuffix(" import \(module)") {
      return module
    }
    return nil
  }

  /// Whether `code` (a line without comments or string contents) uses `entry`: as a free call
  /// (`popen(`, not `x.system(`, `func system(` or `case system(`), or as a word.
  static func uses(_ entry: Entry, in code: String) -> Bool {
    var searchStart = code.startIndex
    while let range = code.range(of: entry.name, range: searchStart..<code.endIndex) {
      searchStart = range.upperBound
      let before = code[..<range.lowerBound]
      let after = code[range.upperBound...]
      if let previous = before.last, previous.isLetter || previous.isNumber || previous == "_" { continue }
      // A member (`x.system(`) is another function of that name; a field is named after a dot.
      if entry.isCall && before.last == "." { continue }
      if let next = after.first, next.isLetter || next.isNumber || next == "_" { continue }
      if entry.isCall {
        guard after.drop(while: { $0 == " " }).first == "(" else { continue }
        let word = before.trimmingCharacters(in: .whitespaces).split(separator: " ").last
        if word == "func" || word == "case" || word == "var" || word == "let" { continue }
      }
      return true
    }
    return false
  }
}

/// A Swift file split into each line's code, with comments removed and string literals' contents
/// blanked, and each line's string literal contents: enough to tell a call from a mention.
struct SwiftLexed {
  var code: [String] = []
  var literals: [[String]] = []

  init(_ source: String) {
    let bytes = Array(source.utf8)
    var codeLine: [UInt8] = []
    var lineLiterals: [String] = []
    var literal: [UInt8] = []
    enum State { case code, lineComment, blockComment(depth: Int), string(hashes: Int, multiline: Bool) }
    var state = State.code
    var index = 0
    let quote = UInt8(ascii: "\""), hash = UInt8(ascii: "#"), newline = UInt8(ascii: "\n")
    func endLine() {
      code.append(String(decoding: codeLine, as: UTF8.self))
      literals.append(lineLiterals)
      codeLine = []
      lineLiterals = []
    }
    func starts(_ text: String, at position: Int) -> Bool {
      let pattern = Array(text.utf8)
      guard position + pattern.count <= bytes.count else { return false }
      return bytes[position..<position + pattern.count].elementsEqual(pattern)
    }
    while index < bytes.count {
      let byte = bytes[index]
      switch state {
      case .code:
        if starts("//", at: index) {
          state = .lineComment
          index += 2
          continue
        }
        if starts("/*", at: index) {
          state = .blockComment(depth: 1)
          index += 2
          continue
        }
        // A string literal: `#…#"`, `"`, or `"""`.
        var hashes = 0
        while index + hashes < bytes.count && bytes[index + hashes] == hash { hashes += 1 }
        if index + hashes < bytes.count && bytes[index + hashes] == quote {
          let multiline = starts("\"\"\"", at: index + hashes)
          index += hashes + (multiline ? 3 : 1)
          codeLine.append(quote)
          literal = []
          state = .string(hashes: hashes, multiline: multiline)
          continue
        }
        if byte == newline { endLine() } else { codeLine.append(byte) }
        index += 1
      case .lineComment:
        if byte == newline {
          endLine()
          state = .code
        }
        index += 1
      case .blockComment(let depth):
        if starts("*/", at: index) {
          state = depth == 1 ? .code : .blockComment(depth: depth - 1)
          index += 2
        } else if starts("/*", at: index) {
          state = .blockComment(depth: depth + 1)
          index += 2
        } else {
          if byte == newline { endLine() }
          index += 1
        }
      case .string(let hashes, let multiline):
        let close = (multiline ? "\"\"\"" : "\"") + String(repeating: "#", count: hashes)
        if hashes == 0 && byte == UInt8(ascii: "\\") && index + 1 < bytes.count {
          literal.append(bytes[index + 1])
          index += 2
          continue
        }
        if starts(close, at: index) {
          lineLiterals.append(String(decoding: literal, as: UTF8.self))
          codeLine.append(quote)
          state = .code
          index += close.utf8.count
          continue
        }
        if byte == newline {
          lineLiterals.append(String(decoding: literal, as: UTF8.self))
          literal = []
          endLine()
        } else {
          literal.append(byte)
        }
        index += 1
      }
    }
    endLine()
  }
}
