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
  /// Where the parts of the declaration are in the file, for a rewrite; `nil` when the scanner did
  /// not record them (a function without a body, or one that is not `async`).
  var layout: SwiftFunctionLayout? = nil

  /// The Swift name with labels: `userNotificationCenter(_:didReceive:)`.
  var swiftName: String {
    name + "(" + labels.map { $0 + ":" }.joined() + ")"
  }

  /// Equal when they declare the same: the ``layout`` (byte offsets) is where, not what, so the
  /// same declaration with other line endings or blanks before it is equal.
  static func == (left: Self, right: Self) -> Bool {
    var right = right
    right.layout = left.layout
    return left.name == right.name && left.labels == right.labels && left.parameterTypes == right.parameterTypes
      && left.attributes == right.attributes && left.objcSelector == right.objcSelector
      && left.modifiers == right.modifiers && left.isAsync == right.isAsync && left.returnType == right.returnType
      && left.hasBody == right.hasBody && left.line == right.line && left.column == right.column
      && left.enclosingType == right.enclosingType
  }
}

/// Byte offsets of one `async` function's parts (UTF-8 offsets into the file), read by
/// ``CompletionHandlerRewrite``. Invariant: `start <= keyword < parameterOpen < parameterClose
/// < bodyOpen < bodyClose`, all within the file.
struct SwiftFunctionLayout: Sendable, Equatable {
  /// One parameter: where its first name starts, whether a second name follows it (`_ center`,
  /// `didReceive response`), and its internal name.
  struct Parameter: Sendable, Equatable {
    var labelOffset: Int
    var labelEnd: Int
    var hasSeparateName: Bool
    var name: String
  }

  /// The first attribute or modifier of the declaration, or the `func` keyword.
  var start: Int
  var keyword: Int
  var parameterOpen: Int
  var parameterClose: Int
  /// The end of the last token before the parameter list's `)` (after a trailing comma).
  var lastParameterEnd: Int
  var parameters: [Parameter]
  /// `{` and its matching `}`; `bodyClose` is the file's end when the body never closes.
  var bodyOpen: Int
  var bodyClose: Int
  /// The line of ``bodyClose``.
  var endLine: Int
  var hasGenericParameters: Bool
  var hasWhereClause: Bool
  var throwsError: Bool
  /// The `#` names used in the body (`function`, `line`, `if`, `log`).
  var poundNames: Set<String>
  /// The text of each `@available(…)` attribute of the declaration.
  var availability: [String]
}

/// What one file declares.
struct SwiftFileDeclarations: Sendable {
  var types: [SwiftTypeDeclaration] = []
  var functions: [SwiftFunctionDeclaration] = []
  /// What the lexer or scanner skipped, as `line:column: message` (for `check -v`).
  var notes: [String] = []
  /// The line of each note.
  var noteLines: [Int] = []
  /// The calls and references in the file by Swift name with argument labels
  /// (`userNotificationCenter(_:didReceive:)` for `d.userNotificationCenter(c, didReceive: r)`).
  var calls: Set<String> = []
}
