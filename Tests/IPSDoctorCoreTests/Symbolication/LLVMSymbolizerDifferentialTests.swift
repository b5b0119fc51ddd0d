import Foundation
import Testing

@testable import IPSDoctorReport
@testable import IPSDoctorSupport
@testable import IPSDoctorSymbolication

/// Compares the DWARF and symbol-table readers with `llvm-symbolizer` (from the toolchain) over
/// every function start and addresses inside every function: of the shared dSYMs, and of Mach-O
/// objects compiled here with clang (DWARF 4 and 5, inlined code at -O2). Function, inlined chain,
/// file and line must agree. Skipped where the tools are absent.
@Suite struct LLVMSymbolizerDifferentialTests {
  static func tool(_ name: String) -> String? {
    for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
      let path = "\(folder)/\(name)"
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
  }

  /// Runs `executable` with `input` on standard input; its standard output.
  static func run(_ executable: String, _ arguments: [String], input: String = "") throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Write on another thread so a full output pipe cannot deadlock the write.
    let writer = Thread {
      stdin.fileHandleForWriting.write(Data(input.utf8))
      try? stdin.fileHandleForWriting.close()
    }
    writer.start()
    let data = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  struct Position: Equatable, CustomStringConvertible {
    var function: String
    var file: String
    var line: Int
    var description: String { "\(function) \(file):\(line)" }
  }

  /// The addresses to ask about in one slice: each function symbol's start, and up to 8
  /// addresses spread over its body.
  static func addresses(_ slice: MachOSlice) -> [UInt64] {
    let table = SymbolTable(slice)
    let text = slice.sections.first { $0.name == "__text" }
    guard let text else { return [] }
    let end = text.address + text.size
    let starts = table.symbols.map(\.address).filter { $0 >= text.address && $0 < end }
    var result: [UInt64] = []
    for (index, start) in starts.enumerated() {
      let next = index + 1 < starts.count ? starts[index + 1] : end
      result.append(start)
      let length = next - start
      guard length > 4 else { continue }
      for step in 1...8 { result.append(start + (length * UInt64(step) / 9) & ~3) }
    }
    return Array(Set(result)).sorted()
  }

  /// Compares every address of every slice of `path`; (compared, agreed, first disagreements).
  static func compare(path: String, symbolizer: String, swift: String) throws -> (Int, Int, [String]) {
    guard let file = MappedFile(path: PathName(path)) else { return (0, 0, ["cannot map \(path)"]) }
    var compared = 0
    var agreed = 0
    var differences: [String] = []
    for slice in MachOReader.slices(file.bytes) {
      let image = DebugImage(file: file, slice: slice, path: path)
      let addresses = addresses(slice)
      guard !addresses.isEmpty else { continue }
      let output = try run(
        symbolizer, ["--obj=\(path)", "--default-arch=\(slice.arch)", "--inlining", "--functions=linkage"],
        input: addresses.map { "0x" + String($0, radix: 16) }.joined(separator: "\n") + "\n")
      // `swift demangle` rather than `swift-demangle`: the driver finds the demangler in its own
      // toolchain, on Linux and in Xcode alike (`/usr/bin/swift` on macOS is a shim).
      let demangled = try run(swift, ["demangle", "--simplified"], input: output)
      let blocks = demangled.components(separatedBy: "\n\n").filter {
        !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
      }
      guard blocks.count == addresses.count else {
        differences.append("\(path) \(slice.arch): \(blocks.count) answers for \(addresses.count) addresses")
        continue
      }
      for (address, block) in zip(addresses, blocks) {
        let lines = block.split(separator: "\n").map(String.init)
        var expected: [Position] = []
        var index = 0
        while index + 1 < lines.count {
          let location = lines[index + 1].split(separator: ":")
          let file = location.count >= 3 ? location.dropLast(2).joined(separator: ":") : "??"
          let line = location.count >= 3 ? Int(location[location.count - 2]) ?? 0 : 0
          expected.append(Position(function: lines[index], file: Symbolicator.lastComponent(file), line: line))
          index += 2
        }
        let found =
          image.lookup(fileAddress: address)?.frames.map { frame in
            Position(
              function: SwiftSymbolDisplay.simplified(frame.function),
              file: frame.file.map(Symbolicator.lastComponent) ?? "??", line: frame.line ?? 0)
          } ?? [Position(function: "??", file: "??", line: 0)]
        compared += 1
        if found == expected {
          agreed += 1
        } else if differences.count < 20 {
          differences.append("\(path) \(slice.arch) 0x\(String(address, radix: 16)): ours \(found), llvm \(expected)")
        }
      }
    }
    return (compared, agreed, differences)
  }

  static let cSource = """
    static inline __attribute__((always_inline)) int add(int a, int b) {
      return a * 3 + b;
    }
    static inline __attribute__((always_inline)) int twice(int a) {
      return add(a, a) * 2;
    }
    int swifty(int x) __asm__("_$s4Test6swiftyyS2iF");
    int swifty(int x) {
      return twice(x) + 1;
    }
    int compute(int x) {
      int total = 0;
      for (int i = 0; i < x; i++) total += twice(i);
      return total;
    }
    struct Pair { int a, b; };
    static int helper(struct Pair *pair) { return pair->a - pair->b; }
    int main(int argc, char **argv) {
      struct Pair pair = { argc, 2 };
      return compute(argc) + swifty(argc) + helper(&pair);
    }
    """

  @Test func agreesWithLLVMSymbolizer() throws {
    guard let symbolizer = Self.tool("llvm-symbolizer"), let swift = Self.tool("swift") else { return }
    var paths: [String] = []
    if let folder = SharedReportSymbolicationTests.folder {
      for name in [
        "iOSCrashingTest.app.dSYM", "CrashingTest.dSYM", "CrashingInAnotherTargetTest.dSYM",
        "AnotherTarget.framework.dSYM",
      ] {
        let dwarf = folder.appendingPathComponent(name).appendingPathComponent("Contents/Resources/DWARF")
        for file in (try? FileManager.default.contentsOfDirectory(atPath: dwarf.path)) ?? [] {
          paths.append(dwarf.appendingPathComponent(file).path)
        }
      }
    }
    if let clang = Self.tool("clang") {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ips-doctor-dwarf-\(getpid())")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      let source = folder.appendingPathComponent("test.c")
      try Self.cSource.write(to: source, atomically: true, encoding: .utf8)
      let variants: [(String, [String])] = [
        ("g", ["-g"]), ("dwarf4", ["-gdwarf-4"]), ("dwarf5", ["-gdwarf-5"]),
        ("dwarf4-O2", ["-gdwarf-4", "-O2"]), ("dwarf5-O2", ["-gdwarf-5", "-O2"]),
        ("x86-dwarf5-O2", ["-gdwarf-5", "-O2", "-target", "x86_64-apple-macos14"]),
      ]
      for (name, flags) in variants {
        let object = folder.appendingPathComponent("\(name).o").path
        let target = flags.contains("-target") ? [] : ["-target", "arm64-apple-ios17.0"]
        _ = try Self.run(clang, target + flags + ["-c", source.path, "-o", object])
        if FileManager.default.fileExists(atPath: object) { paths.append(object) }
      }
      var total = (compared: 0, agreed: 0)
      var differences: [String] = []
      for path in paths {
        let (compared, agreed, found) = try Self.compare(
          path: path, symbolizer: symbolizer, swift: swift)
        total.compared += compared
        total.agreed += agreed
        differences += found
      }
      print(
        "llvm-symbolizer differential: \(total.agreed) of \(total.compared) addresses agree over \(paths.count) files")
      for difference in differences.prefix(20) { print("  " + difference) }
      #expect(total.compared > 0)
      #expect(total.agreed == total.compared)
    }
  }
}
