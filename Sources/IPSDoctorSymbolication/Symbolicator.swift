import IPSDoctorReport
import IPSDoctorSupport

/// One symbolicated position as a report shows it: Apple's simplified Swift names (as `atos`
/// prints them), the offset from the function's start, and the file's last path component.
package struct FrameSymbol: Sendable, Equatable {
  package var symbol: String
  package var symbolLocation: UInt64
  package var sourceFile: String?
  package var sourceLine: Int?
}

/// How a report's image relates to the debug images at hand.
package enum ImageMatch {
  case matched(DebugImage)
  /// Debug files with the image's name exist but none has its UUID: reported, never used.
  /// Each is described as "path (arch uuid)".
  case mismatch(found: [String])
  case none
}

/// Matches a report's images to debug images by UUID and turns frame addresses into symbols.
/// An image is symbolicated only with the debug image of its exact UUID.
package final class Symbolicator {
  package let images: [DebugImage]
  private var byUUID: [String: DebugImage] = [:]
  /// Debug files not loaded, by name, for the mismatch message.
  private let otherNames: [String: [String]]

  package init(images: [DebugImage], otherNames: [String: [String]] = [:]) {
    self.images = images
    self.otherNames = otherNames
    for image in images {
      guard let uuid = image.uuid else { continue }
      // The first one found wins: `--dsym` order, then the default places.
      if byUUID[uuid] == nil { byUUID[uuid] = image }
    }
  }

  package func match(_ image: BinaryImage) -> ImageMatch {
    if let uuid = image.uuid.map(Self.normalized), let found = byUUID[uuid] { return .matched(found) }
    guard let name = image.name, !name.isEmpty else { return .none }
    let sameName = images.filter { Self.lastComponent($0.path) == name }.map(\.summary) + otherNames[name, default: []]
    return sameName.isEmpty ? .none : .mismatch(found: sameName)
  }

  /// The report's images that have the debug image of their UUID here, by name (or "image N").
  package func matchedImageNames(of report: CrashReport) -> [String] {
    report.images.enumerated().compactMap { index, image in
      guard case .matched = match(image) else { return nil }
      return image.name ?? "image \(index)"
    }
  }

  /// The debug images whose DWARF was given up for needing more memory than its budget, each
  /// with the budget in bytes: their later frames have symbol-table names only, or none.
  package var imagesOverBudget: [(summary: String, limit: Int)] {
    images.filter(\.exceededBudget).map { ($0.summary, $0.budgetLimit) }
  }

  /// The symbols of the address `imageOffset` bytes past the image's load address, innermost
  /// first (the last is the function whose code it is), or `nil` when unknown.
  package func symbols(imageOffset: UInt64, in debug: DebugImage) -> [FrameSymbol]? {
    let fileAddress = debug.textAddress &+ imageOffset
    guard let found = debug.lookup(fileAddress: fileAddress), !found.frames.isEmpty else { return nil }
    let location = fileAddress >= found.functionStart ? fileAddress - found.functionStart : 0
    return found.frames.map { frame in
      FrameSymbol(
        symbol: debug.displayName(of: frame.function), symbolLocation: location,
        sourceFile: frame.file.map(Self.lastComponent), sourceLine: frame.line)
    }
  }

  /// "82D13D98-219E-…" and "82d13d98219e…" alike: lowercase with dashes. Any other text (not 32
  /// ASCII hex digits with separators) is only lowercased.
  static func normalized(_ uuid: String) -> String {
    var text = uuid
    return text.withUTF8 { bytes in
      guard bytes.count(where: \.isASCIIHexDigit) == 32 else { return uuid.lowercased() }
      return String(unsafeUninitializedCapacity: 36) { output in
        var written = 0
        var digits = 0
        for byte in bytes where byte.isASCIIHexDigit {
          if digits == 8 || digits == 12 || digits == 16 || digits == 20 {
            output[written] = UInt8(ascii: "-")
            written += 1
          }
          // Letters to lowercase; digits have the 0x20 bit already.
          output[written] = byte | 0x20
          written += 1
          digits += 1
        }
        return written
      }
    }
  }

  static func lastComponent(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
  }
}
