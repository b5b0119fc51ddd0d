import IPSDoctorSupport

/// A location inside a JSON document, such as `threads[3].frames[12].imageIndex`.
package struct JSONPath: Sendable, Hashable, CustomStringConvertible, ExpressibleByArrayLiteral {
  package enum Component: Sendable, Hashable {
    case key(String)
    case index(Int)
  }

  package var components: [Component]

  package init(_ components: [Component] = []) {
    self.components = components
  }

  package init(arrayLiteral elements: Component...) {
    self.components = elements
  }

  package static let root = JSONPath()

  package func appending(_ key: String) -> JSONPath {
    JSONPath(components + [.key(key)])
  }

  package func appending(_ index: Int) -> JSONPath {
    JSONPath(components + [.index(index)])
  }

  package var isRoot: Bool { components.isEmpty }

  /// The path in JavaScript-like notation; the root is `$`.
  package var description: String {
    if components.isEmpty { return "$" }
    var text = ""
    for component in components {
      switch component {
      case .key(let key):
        if Self.isPlainIdentifier(key) {
          if !text.isEmpty { text += "." }
          text += key
        } else {
          text += "[\"" + Self.escaped(key) + "\"]"
        }
      case .index(let index):
        text += "[\(index)]"
      }
    }
    return text
  }

  private static func isPlainIdentifier(_ key: String) -> Bool {
    guard let first = key.utf8.first, !(first >= 0x30 && first <= 0x39) else { return false }
    return key.utf8.allSatisfy { byte in
      (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
        || byte == 0x5F
    }
  }

  private static func escaped(_ key: String) -> String {
    var result = ""
    for scalar in key.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          result += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }
}
