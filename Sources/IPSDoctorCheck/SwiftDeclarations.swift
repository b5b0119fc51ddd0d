import IPSDoctorSupport

/// A type declaration or extension found by ``SwiftDeclarationScanner``.
struct SwiftTypeDeclaration: Sendable, Equatable {
  package enum Kind: String, Sendable, Equatable {
    case `class`, `struct`, `enum`, actor, `extension`, `protocol`
  }

  /// One entry of the inheritance clause: `@MainActor UNUserNotificationCenterDelegate` has the
  /// name `UNUserNotificationCenterDelegate` and the attribute `MainActor`.
  struct Inherited: Sendable, Equatable {
    /// The type's name as written, without generic arguments (`UIKit.UIResponder`).
    var name: String
    var attributes: [String]

    /// The last component of ``name`` (`UIResponder`).
    var simpleName: Substring {
      name.split(separator: ".").last ?? Substring(name)
    }
  }

  var kind: Kind
  /// The name, qualified by the enclosing types (`Outer.Inner`); for an extension, as written.
  var name: String
  /// Attribute names without `@` or arguments (`MainActor`, `preconcurrency`, `objc`).
  var attributes: [String]
  /// Declaration modifiers (`final`, `public`, `nonisolated`).
  var modifiers: [String]
  var inherited: [Inherited]
  var line: Int
  var column: Int

  /// The last component of ``name``.
  var simpleName: Substring {
    name.split(separator: ".").last ?? Substring(name)
  }
}

/// A `func` declaration found by ``SwiftDeclarationScanner``.
struct SwiftFunctionDeclaration: Sendable, Equatable {
  var name: String
  /// The argument labels, `_` for none.
  var labels: [String]
  /// Each parameter's type as written, whitespace collapsed.
  var parameterTypes: [String]
  /// Attribute names without `@` or arguments.
  var attributes: [String]
  /// The selector of `@objc(selector)`, when the declaration names one.
  var objcSelector: String? = nil
  var modifiers: [String]
  var isAsync: Bool
  /// The return type as written, whitespace collapsed; `nil` when there is none.
  var returnType: String?
  /// Whether the declaration has a body (a protocol requirement has none).
  var hasBody: Bool
  /// The line and column of the `func` keyword.
  var line: Int
  var column: Int
  /// The index in ``SwiftFileDeclarations/types`` of the type or extension whose body holds this
  /// function directly; `nil` for a global or local function.
  var enclosingType: Int?

  /// The Swift name with labels: `userNotificationCenter(_:didReceive:)`.
  var swiftName: String {
    name + "(" + labels.map { $0 + ":" }.joined() + ")"
  }
}

/// What one file declares.
struct SwiftFileDeclarations: Sendable {
  var types: [SwiftTypeDeclaration] = []
  var functions: [SwiftFunctionDeclaration] = []
  /// What the lexer or scanner skipped, as `line:column: message` (for `check -v`).
  var notes: [String] = []
}
