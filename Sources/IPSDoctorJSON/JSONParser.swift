import IPSDoctorSupport

/// A strict RFC 8259 JSON parser over raw bytes, with no Foundation in the parsing path.
///
/// - Strings are validated as UTF-8 (invalid bytes are an error, never repaired) and every escape,
///   including UTF-16 surrogate pairs, is checked.
/// - Integers keep their exact 64-bit value (see ``JSONNumber``).
/// - Nesting is capped (512 levels by default) so hostile input fails cleanly instead of exhausting
///   the stack.
/// - Errors carry the byte offset, line, column and the JSON path of the value being parsed.
///
/// The parser writes a flat tape (``JSONDocument``): one fixed-size entry per value and no
/// allocation per value. Strings are decoded, and a ``JSONValue`` tree is built, only when asked for.
package enum JSONParser {
  package static let defaultMaxDepth = 512

  /// The most bytes of a document the tape can address: its offsets and counts are 32-bit
  /// (``JSONTapeEntry``). A value that does not end within this many bytes of its start fails with
  /// ``JSONError/Reason/tooLarge(limit:)`` at that point, having read what came before.
  static let maxTapeBytes = Int(UInt32.max) - 16

  /// Parses `bytes` as exactly one JSON document (surrounding whitespace allowed).
  package static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONError)
    -> JSONValue
  {
    let result: Result<JSONValue, JSONError> = bytes.withUnsafeBufferPointer { buffer in
      Result { () throws(JSONError) -> JSONValue in try parse(buffer, maxDepth: maxDepth) }
    }
    return try result.get()
  }

  /// Parses `text` as exactly one JSON document.
  package static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONError)
    -> JSONValue
  {
    try parse(Array(text.utf8), maxDepth: maxDepth)
  }

  /// Parses `buffer` as exactly one JSON document (surrounding whitespace allowed).
  package static func parse(_ buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int = defaultMaxDepth)
    throws(JSONError) -> JSONValue
  {
    try parseDocument(buffer, maxDepth: maxDepth).value
  }

  /// Parses `buffer` as exactly one JSON document into a tape, without building a tree.
  static func parseDocument(_ buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int = defaultMaxDepth)
    throws(JSONError) -> JSONDocument
  {
    let (document, end, error) = documentPrefix(buffer, from: 0, maxDepth: maxDepth)
    if let error { throw error }
    var trailing = end
    while trailing < buffer.count, JSONTapeReader.isWhitespace(buffer[trailing]) { trailing += 1 }
    if trailing < buffer.count {
      throw JSONError(
        reason: .trailingContent, location: SourceLocation(offset: trailing, in: buffer))
    }
    guard let document else { throw JSONError(reason: .empty, location: SourceLocation(offset: end, in: buffer)) }
    return document
  }

  /// Parses one JSON value that starts at `start` (after optional whitespace) and returns it with the
  /// offset just past its last byte. Whatever follows the value is left alone.
  package static func parsePrefix(
    _ buffer: UnsafeBufferPointer<UInt8>, from start: Int, maxDepth: Int = defaultMaxDepth
  ) throws(JSONError) -> (value: JSONValue, end: Int) {
    let (document, end, error) = documentPrefix(buffer, from: start, maxDepth: maxDepth)
    if let error { throw error }
    // Without an error there is always a value.
    guard let document else { throw JSONError(reason: .empty, location: SourceLocation(offset: end, in: buffer)) }
    return (document.value, end)
  }

  /// Like ``parsePrefix(_:from:maxDepth:)``, but when the input breaks inside an array or object
  /// it also returns what was read before the break: every open container closed at that point,
  /// without the value that failed. For salvaging truncated or hand-edited reports; the error is
  /// always returned with it.
  package static func parsePrefixRecovering(
    _ buffer: UnsafeBufferPointer<UInt8>, from start: Int, maxDepth: Int = defaultMaxDepth
  ) -> (value: JSONValue?, end: Int, error: JSONError?) {
    let (document, end, error) = documentPrefix(buffer, from: start, maxDepth: maxDepth)
    return (document?.value, end, error)
  }

  /// The tape form of ``parsePrefixRecovering(_:from:maxDepth:)``: the document outlives `buffer`.
  /// Given `source`, the array whose storage `buffer` is, the document keeps it instead
  /// of a copy of its bytes. `expectedBytes`, when known, is about how long the document is (a
  /// report's header line): the tape's room is sized for it rather than for all of `buffer`.
  ///
  /// With a `budget`, the tape keeps only what the budget allows (``JSONDocument/omissions``).
  ///
  /// `maxBytes` (at most ``maxTapeBytes``) is for tests of that limit.
  package static func documentPrefix(
    _ buffer: UnsafeBufferPointer<UInt8>, from start: Int, maxDepth: Int = defaultMaxDepth,
    maxBytes: Int = maxTapeBytes, source: [UInt8]? = nil, expectedBytes: Int? = nil, budget: JSONTapeBudget? = nil
  ) -> (document: JSONDocument?, end: Int, error: JSONError?) {
    // The tape's offsets are relative to `start`; errors and `end` are reported in `buffer`.
    let from = min(start, buffer.count)
    let cap = min(maxBytes, maxTapeBytes)
    let slice = UnsafeBufferPointer(rebasing: buffer[from..<min(buffer.count, from + cap)])
    guard let base = slice.baseAddress, !slice.isEmpty else {
      let error = JSONError(reason: .empty, location: SourceLocation(offset: 0, line: 0, column: 0))
      return (nil, start, finished(error, shiftedBy: start, in: buffer))
    }
    var end = 0
    var failure: JSONError?
    // The tape is written straight into the array's storage, which never moves while the tape pass
    // runs: a document with more values than the estimate (about one value per 9 bytes in crash
    // reports) is read again into four times the room. Every entry starts at a byte of its own, so
    // `slice.count` entries (and the two a step checks room for) always suffice.
    var capacity = min(min(slice.count, expectedBytes ?? slice.count) / 8 + 16, 1 << 20)
    if let budget {
      // A capped pass holds at most `maxEntries` entries besides the open containers and their keys.
      capacity = min(min(budget.maxEntries, slice.count) + 2 * maxDepth + 16, slice.count + 2)
    }
    var tape: [JSONTapeEntry]
    var tapeCount = 0
    let budgetState = budget.map { budget in
      let state = UnsafeMutablePointer<TapeBudgetState>.allocate(capacity: 1)
      state.initialize(to: TapeBudgetState(budget: budget, maxDepth: maxDepth))
      return state
    }
    defer {
      budgetState?.deinitialize(count: 1)
      budgetState?.deallocate()
    }
    while true {
      var full = false
      failure = nil
      if let budgetState, let budget {
        budgetState.pointee = TapeBudgetState(budget: budget, maxDepth: maxDepth)
      }
      tape = [JSONTapeEntry](unsafeUninitializedCapacity: capacity) { room, initialized in
        var reader = JSONTapeReader(bytes: base, count: slice.count, maxDepth: maxDepth, tape: room)
        do throws(JSONError) {
          reader.skipWhitespace()
          guard reader.position < reader.count else {
            throw JSONTapeReader.error(.empty, at: reader.position)
          }
          if let budgetState {
            full = !(try reader.parseValue(CappedTape.self, budget: budgetState))
          } else {
            full = !(try reader.parseValue(WholeTape.self))
          }
        } catch {
          failure = error
        }
        end = reader.position
        tapeCount = reader.tapeCount
        initialized = full ? 0 : tapeCount
      }
      if !full { break }
      // At least the room a document without `expectedBytes` gets: a wrong guess costs one short
      // pass at most.
      capacity = min(max(capacity * 4, min(slice.count / 8 + 16, 1 << 20)), slice.count + 2)
    }
    var document: JSONDocument?
    if tapeCount > 0 {
      if tapeCount < tape.capacity / 2 && tape.capacity - tapeCount > 256 {
        // The room was sized for everything after `start`: a short document (a report's header
        // line read without its length, say) keeps only what it uses.
        let used = tapeCount
        tape = [JSONTapeEntry](unsafeUninitializedCapacity: used) { room, initialized in
          tape.withUnsafeBufferPointer { _ = room.initialize(fromContentsOf: $0) }
          initialized = used
        }
      }
      let copied = min(end, slice.count)
      let omissions = budgetState?.pointee.omissions.sorted { $0.index < $1.index } ?? []
      let isAbridged = budgetState?.pointee.isAbridged ?? false
      if let source {
        document = JSONDocument(
          tape: tape, source: source, byteOffset: from, byteCount: copied, omissions: omissions,
          isAbridged: isAbridged)
      } else {
        document = JSONDocument(
          tape: tape, source: Array(UnsafeBufferPointer(rebasing: slice[..<copied])), byteOffset: 0, byteCount: copied,
          omissions: omissions, isAbridged: isAbridged)
      }
    }
    guard var failure else { return (document, start + end, nil) }
    // Input that goes on past the cap did not end where the parser stopped: say what happened.
    if case .unexpectedEnd = failure.reason, failure.location.offset == slice.count, from + cap < buffer.count {
      failure.reason = .tooLarge(limit: cap)
    }
    return (document, start + end, finished(failure, shiftedBy: start, in: buffer))
  }

  /// Paths are collected innermost-first while the error unwinds; put them in reading order and
  /// compute line and column once.
  private static func finished(
    _ error: JSONError, shiftedBy start: Int, in buffer: UnsafeBufferPointer<UInt8>
  ) -> JSONError {
    var error = error
    error.path.components.reverse()
    error.location = SourceLocation(offset: error.location.offset + start, in: buffer)
    return error
  }
}

// MARK: - Reader

@usableFromInline package enum ASCII {
  static let quote: UInt8 = 0x22
  @inlinable package static var backslash: UInt8 { 0x5C }
  static let slash: UInt8 = 0x2F
  static let comma: UInt8 = 0x2C
  static let colon: UInt8 = 0x3A
  static let openBracket: UInt8 = 0x5B
  static let closeBracket: UInt8 = 0x5D
  static let openBrace: UInt8 = 0x7B
  static let closeBrace: UInt8 = 0x7D
  static let minus: UInt8 = 0x2D
  static let plus: UInt8 = 0x2B
  static let dot: UInt8 = 0x2E
  static let zero: UInt8 = 0x30
  static let nine: UInt8 = 0x39
  static let space: UInt8 = 0x20
}

/// A capped tape pass's budget, and what it has not kept so far.
struct TapeBudgetState {
  let budget: JSONTapeBudget
  /// How many values the open container at each depth (1 for the root) has not kept so far.
  var omittedAtDepth: [Int]
  /// The containers closed so far that did not keep all their values, in the order they closed.
  /// Those inside a value that is later dropped are always the last ones.
  var omissions: [JSONOmission] = []
  /// Whether a value was dropped for the outline or total limit.
  var isAbridged = false
  /// How many marked elements were kept past their array's limit.
  var markedKept = 0

  init(budget: JSONTapeBudget, maxDepth: Int) {
    self.budget = budget
    omittedAtDepth = [Int](repeating: 0, count: maxDepth + 2)
  }
}

/// Whether a tape pass can drop values (see ``JSONTapeReader/parseValue(_:budget:)``): a type, not a
/// flag, so that the pass that keeps every value is compiled without the budget's checks.
protocol TapeMode {
  static var drops: Bool { get }
}

/// A pass that keeps every value.
enum WholeTape: TapeMode {
  static var drops: Bool { false }
}

/// A pass that keeps what the reader's ``JSONTapeBudget`` allows.
enum CappedTape: TapeMode {
  static var drops: Bool { true }
}

/// The tape pass. Everything on the hot path is inlined into ``parseValue(_:budget:)``; errors are built by
/// `@inline(never)` functions so the loop stays small, and the rare cases (escapes, non-ASCII
/// text, negative or non-integral numbers) leave the fast paths for the general code.
///
/// Memory safety: `bytes` points at `count` readable bytes for the reader's whole life, and every
/// read below is at an offset checked against `count` first (the checks are next to the reads).
struct JSONTapeReader {
  let bytes: UnsafePointer<UInt8>
  let count: Int
  let maxDepth: Int
  var position = 0
  /// The tape, in source order, in the caller's buffer: `Array.append` would check capacity and
  /// uniqueness on every entry, the tape pass checks room once per step (``hasRoom``) and stops
  /// when the buffer is full. Entries `0..<tapeCount` are initialized. After an error it holds
  /// what was read before the break, with every open container closed there (see
  /// ``JSONParser/parsePrefixRecovering(_:from:maxDepth:)``).
  ///
  /// While an array or object is open, its entry's `end` (the low half of its `word`) counts the
  /// values read so far and the high half holds the entry of the container around it plus one (0
  /// at the top, see ``parent(of:)``), so the open containers need no stack of their own.
  let tape: UnsafeMutablePointer<JSONTapeEntry>
  var tapeCount = 0
  let tapeCapacity: Int

  /// `tape` is uninitialized storage with room for at least 2 entries.
  init(
    bytes: UnsafePointer<UInt8>, count: Int, maxDepth: Int, tape: UnsafeMutableBufferPointer<JSONTapeEntry>
  ) {
    self.bytes = bytes
    self.count = count
    self.maxDepth = maxDepth
    self.tape = tape.baseAddress!
    tapeCapacity = tape.count
  }

  var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: bytes, count: count) }

  /// Whether the tape has room for the two entries (a key and its value) the main loop may add
  /// per step, so adding them needs no check of its own.
  @inline(__always)
  var hasRoom: Bool { tapeCapacity &- tapeCount >= 2 }

  /// Writes `entry` just past the tape's last entry without counting it (a key counts once its
  /// colon has been read). Strings and numbers are written where they are read, so their fields
  /// need not stay in registers across the rest of the step. In bounds: each step starts with room
  /// for its two entries (``hasRoom``).
  @inline(__always)
  func place(_ entry: JSONTapeEntry) {
    (tape + tapeCount).initialize(to: entry)
  }

  /// The container around the open container at `index`, or -1.
  @inline(__always)
  func parent(of index: Int) -> Int {
    Int(truncatingIfNeeded: tape[index].word &>> 32) &- 1
  }

  /// Closes the open container at `index`: its `payload` becomes the tape's count.
  @inline(__always)
  func close(_ index: Int) {
    tape[index].word = tape[index].word & 0xFFFF_FFFF | UInt64(truncatingIfNeeded: tapeCount) &<< 32
  }

  @inline(__always)
  mutating func append(_ entry: JSONTapeEntry) {
    place(entry)
    tapeCount &+= 1
  }

  /// The eight bytes at `offset`, first byte lowest; the caller checks `offset + 8 <= count`.
  @inline(__always)
  func word(at offset: Int) -> UInt64 {
    UInt64(littleEndian: UnsafeRawPointer(bytes + offset).loadUnaligned(as: UInt64.self))
  }

  // MARK: Errors (out of line: built once per document at most)

  /// Line and column are filled in once, when the error leaves the parser.
  @inline(never)
  static func error(_ reason: JSONError.Reason, at offset: Int) -> JSONError {
    JSONError(reason: reason, location: SourceLocation(offset: offset, line: 0, column: 0))
  }

  @inline(never)
  static func unexpected(_ expected: String, at position: Int, in bytes: UnsafePointer<UInt8>, count: Int)
    -> JSONError
  {
    if position >= count {
      return error(.unexpectedEnd(expected: expected), at: position)
    }
    return error(.unexpectedByte(bytes[position], expected: expected), at: position)
  }

  @inline(__always)
  func unexpected(_ expected: String) -> JSONError {
    Self.unexpected(expected, at: position, in: bytes, count: count)
  }

  // MARK: Whitespace

  @inline(__always)
  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  /// Runs of spaces (pretty-printed indentation) after a whitespace byte are skipped eight bytes
  /// at a time.
  @inline(__always)
  mutating func skipWhitespace() {
    while position < count {
      let byte = bytes[position]
      // Every token starts above the space, so most calls end here.
      if byte > ASCII.space || !Self.isWhitespace(byte) { return }
      position &+= 1
      while position &+ 8 <= count {
        // Not-a-space bits; the lowest set one ends the run.
        let others = word(at: position) ^ 0x2020_2020_2020_2020
        if others != 0 {
          position &+= others.trailingZeroBitCount &>> 3
          break
        }
        position &+= 8
      }
    }
  }

  // MARK: Values

  /// Parses one value without recursion: the open containers are linked through their tape
  /// entries, so the depth limit, not the thread's stack size, bounds nesting. Returns false,
  /// having read part of it, when the tape is full. `Mode` is ``CappedTape`` for a pass that keeps
  /// what `budget` allows, ``WholeTape`` for one that keeps every value (and has no budget checks).
  /// The budget is a parameter, not a field, so that the reader the loop keeps in registers is no
  /// larger for it.
  mutating func parseValue<Mode: TapeMode>(
    _ mode: Mode.Type = WholeTape.self, budget: UnsafeMutablePointer<TapeBudgetState>? = nil
  ) throws(JSONError) -> Bool {
    // The loop works on a local copy, which the optimizer keeps in registers as long as its
    // address is never passed to a function that is not inlined (slow paths run on copies of
    // their own, see `onCopy`); it is written back once at the end.
    var r = self
    /// The innermost open container's entry, or -1.
    var open = -1
    var openIsObject = false
    var depth = 0
    /// Whether a member's key comes next.
    var readKey = false
    /// Whether the key is being read. The error handling tells from this which state the innermost
    /// container was in: reading its first key (count 0), a later key, or a member's value (whose
    /// key is then the tape's last entry).
    var inKey = false
    // Set when an error is about the innermost container itself (a missing ',' say), so its path
    // stops at the container rather than naming the next member.
    var atContainer = false
    /// Capped passes: the tape index of the value just completed.
    var completed = 0
    do throws(JSONError) {
      document: while true {
        guard r.hasRoom else {
          self = r
          return false
        }
        if readKey {
          // `"key" :`; the key goes on the tape once the colon is there.
          inKey = true
          r.skipWhitespace()
          guard r.position < r.count, r.bytes[r.position] == ASCII.quote else {
            throw r.unexpected(r.tape[open].word & 0xFFFF_FFFF == 0 ? "a string key or '}'" : "a string key")
          }
          try r.placeString()
          if r.position < r.count && r.bytes[r.position] == ASCII.colon {
            r.position &+= 1  // compact: `"key":value`
          } else if r.position &+ 4 <= r.count
            && UnsafeRawPointer(r.bytes + r.position).loadUnaligned(as: UInt32.self)
              & UInt32(littleEndian: 0x00FF_FFFF) == UInt32(littleEndian: 0x0020_3A20)
          {
            r.position &+= 3  // pretty-printed: `"key" : value`
          } else {
            r.skipWhitespace()
            guard r.position < r.count, r.bytes[r.position] == ASCII.colon else {
              throw Self.missingColon(after: r.tape[r.tapeCount], at: r.position, in: r.bytes, count: r.count)
            }
            r.position &+= 1
          }
          r.skipWhitespace()
          r.tapeCount &+= 1
          inKey = false
        }
        // Read a value: a scalar, an empty container, or the opening of a non-empty one. The
        // position is past any whitespace here.
        guard r.position < r.count else { throw r.unexpected("a value") }
        switch r.bytes[r.position] {
        case ASCII.quote:
          try r.placeString()
          if Mode.drops { completed = r.tapeCount }
          r.tapeCount &+= 1
        case ASCII.zero...ASCII.nine, ASCII.minus:
          try r.placeNumber()
          if Mode.drops { completed = r.tapeCount }
          r.tapeCount &+= 1
        case ASCII.openBrace, ASCII.openBracket:
          if depth >= r.maxDepth { throw Self.error(.tooDeep(limit: r.maxDepth), at: r.position) }
          let isObject = r.bytes[r.position] == ASCII.openBrace
          let index = r.tapeCount
          if Mode.drops { completed = index }
          r.append(JSONTapeEntry(kind: isObject ? .object : .array, start: r.position))
          r.position &+= 1
          r.skipWhitespace()
          let close = isObject ? ASCII.closeBrace : ASCII.closeBracket
          if r.position < r.count && r.bytes[r.position] == close {
            r.position &+= 1
            r.close(index)
          } else {
            r.tape[index].word = UInt64(truncatingIfNeeded: open &+ 1) &<< 32
            open = index
            openIsObject = isObject
            depth &+= 1
            if Mode.drops { budget!.pointee.omittedAtDepth[depth] = 0 }
            readKey = isObject
            continue
          }
        case UInt8(ascii: "t"):
          try r.expectLiteral("true", word: 0x6575_7274)
          if Mode.drops { completed = r.tapeCount }
          r.append(JSONTapeEntry(kind: .true, start: r.position - 4))
        case UInt8(ascii: "f"):
          // "alse", after the "f" the dispatch has seen.
          try r.expectLiteral("false", word: 0x6573_6C61, at: 1)
          if Mode.drops { completed = r.tapeCount }
          r.append(JSONTapeEntry(kind: .false, start: r.position - 5))
        case UInt8(ascii: "n"):
          try r.expectLiteral("null", word: 0x6C6C_756E)
          if Mode.drops { completed = r.tapeCount }
          r.append(JSONTapeEntry(kind: .null, start: r.position - 4))
        default:
          throw r.unexpected("a value")
        }

        // A value is complete: count it in its container, closing as many containers as end here.
        while true {
          guard open >= 0 else { break document }
          if !Mode.drops || !r.drop(completed, in: open, isObject: openIsObject, depth: depth, budget: budget!) {
            r.tape[open].word &+= 1  // its `end`
          }
          r.skipWhitespace()
          guard r.position < r.count else {
            atContainer = true
            throw r.unexpected(Self.afterValue(inObject: openIsObject))
          }
          let byte = r.bytes[r.position]
          if byte == ASCII.comma {
            r.position &+= 1
            readKey = openIsObject
            if !openIsObject { r.skipWhitespace() }
            break
          }
          if byte == (openIsObject ? ASCII.closeBrace : ASCII.closeBracket) {
            r.position &+= 1
            let parent = r.parent(of: open)
            r.close(open)
            if Mode.drops {
              Self.recordOmissions(of: open, depth: depth, budget: budget!)
              completed = open
            }
            open = parent
            openIsObject = parent >= 0 && r.tape[parent].kind == .object
            depth &-= 1
            continue
          }
          atContainer = true
          throw r.unexpected(Self.afterValue(inObject: openIsObject))
        }
      }
    } catch {
      self = r
      var pendingKey = !inKey && !atContainer && openIsObject
      if inKey && tape[open].word & 0xFFFF_FFFF == 0 {
        // The object whose first key failed is not part of what was read; its container was
        // reading it as a value.
        tapeCount = open
        open = parent(of: open)
        pendingKey = open >= 0 && tape[open].kind == .object
      }
      throw failed(error, open: open, depth: depth, pendingKey: pendingKey, atContainer: atContainer, budget: budget)
    }
    self = r
    return true
  }

  /// What may follow a value inside an open container, for errors.
  static func afterValue(inObject: Bool) -> String {
    inObject ? "',' or '}' after object member" : "',' or ']' after array element"
  }

  /// Runs a slow path on a copy of the reader and takes back its position (the only state slow
  /// paths change), so the caller's copy never has its address taken.
  @inline(__always)
  mutating func onCopy<Result>(
    _ body: (inout JSONTapeReader) throws(JSONError) -> Result
  ) throws(JSONError) -> Result {
    var copy = self
    defer { position = copy.position }
    return try body(&copy)
  }

  /// Adds the open containers to the error's path (innermost first; JSONParser reverses it once)
  /// and closes them, dropping the member or element that was being read when the input broke.
  @inline(never)
  mutating func failed(
    _ error: JSONError, open: Int, depth: Int, pendingKey: Bool, atContainer: Bool,
    budget: UnsafeMutablePointer<TapeBudgetState>?
  ) -> JSONError {
    var failure = error
    var container = open
    var inner = -1
    while container >= 0 {
      let entry = tape[container]
      if entry.kind == .array {
        if inner >= 0 || !atContainer {
          failure.path.components.append(.index(Int(truncatingIfNeeded: entry.word & 0xFFFF_FFFF)))
        }
      } else if inner >= 0 {
        // An enclosing object's pending key is the entry just before the container inside it.
        failure.path.components.append(.key(JSONTapeEntry.decodedString(tape[inner - 1], in: buffer)))
      } else if pendingKey && !atContainer {
        failure.path.components.append(.key(JSONTapeEntry.decodedString(tape[tapeCount - 1], in: buffer)))
      }
      inner = container
      container = parent(of: container)
    }
    if pendingKey { tapeCount -= 1 }  // a key whose value failed
    container = open
    inner = -1
    var containerDepth = depth
    while container >= 0 {
      let parent = parent(of: container)
      // The container closed just before this one counts as one of its values.
      tape[container].word += inner >= 0 ? 1 : 0
      close(container)
      if let budget { Self.recordOmissions(of: container, depth: containerDepth, budget: budget) }
      inner = container
      container = parent
      containerDepth -= 1
    }
    return failure
  }

  // MARK: Budget (capped passes only)

  /// Drops the value just completed at tape index `index`, the newest value of the open container
  /// `container` at `depth`, when the budget does not keep it: the tape goes back to where the
  /// value (in an object, its key) started. Returns whether it was dropped.
  @inline(__always)
  mutating func drop(
    _ index: Int, in container: Int, isObject: Bool, depth: Int, budget state: UnsafeMutablePointer<TapeBudgetState>
  ) -> Bool {
    let budget = state.pointee.budget
    let overTotal = tapeCount > budget.maxEntries
    let overOutline = !isObject && depth >= budget.outlineDepth && tapeCount > budget.outlineEntries
    let overArray = !isObject && Int(truncatingIfNeeded: tape[container].word & 0xFFFF_FFFF) >= budget.maxArrayElements
    guard overTotal || overOutline || overArray else { return false }
    if !overTotal && !overOutline && state.pointee.markedKept < budget.maxMarked && isMarked(index, budget.marker) {
      state.pointee.markedKept += 1
      return false
    }
    let start = isObject ? index - 1 : index
    while let last = state.pointee.omissions.last, last.index >= start { state.pointee.omissions.removeLast() }
    tapeCount = start
    state.pointee.omittedAtDepth[depth] += 1
    if overTotal || (overOutline && !overArray) { state.pointee.isAbridged = true }
    return true
  }

  /// Whether the value at tape index `index` is an object with a member `marker` that is `true`.
  func isMarked(_ index: Int, _ marker: [UInt8]) -> Bool {
    guard tape[index].kind == .object, !marker.isEmpty else { return false }
    var key = index + 1
    let end = tape[index].containerEnd
    while key + 1 < end {
      let name = tape[key]
      if tape[key + 1].kind == .true && name.stringEnd - name.start == marker.count
        && UnsafeBufferPointer(start: bytes + name.start, count: marker.count).elementsEqual(marker)
      {
        return true
      }
      key = tape[key + 1].indexAfter(key + 1)
    }
    return false
  }

  /// Records, as the container at `index` and `depth` closes, how many values it did not keep.
  @inline(__always)
  static func recordOmissions(of index: Int, depth: Int, budget state: UnsafeMutablePointer<TapeBudgetState>) {
    guard depth < state.pointee.omittedAtDepth.count else { return }
    let omitted = state.pointee.omittedAtDepth[depth]
    guard omitted > 0 else { return }
    state.pointee.omissions.append(JSONOmission(index: index, count: omitted))
    state.pointee.omittedAtDepth[depth] = 0
  }

  @inline(never)
  static func missingColon(
    after key: JSONTapeEntry, at position: Int, in bytes: UnsafePointer<UInt8>, count: Int
  ) -> JSONError {
    var failure = unexpected("':' after object key", at: position, in: bytes, count: count)
    let name = JSONTapeEntry.decodedString(key, in: UnsafeBufferPointer(start: bytes, count: count))
    failure.path.components.append(.key(name))
    return failure
  }

  /// Checks the literal at the position, its bytes from `skip` on being `word` (little-endian).
  @inline(__always)
  mutating func expectLiteral(_ literal: StaticString, word: UInt32, at skip: Int = 0) throws(JSONError) {
    let length = literal.utf8CodeUnitCount
    if position + length <= count
      && UnsafeRawPointer(bytes + position + skip).loadUnaligned(as: UInt32.self)
        == UInt32(littleEndian: word)
    {
      position += length
    } else {
      try onCopy { (copy: inout JSONTapeReader) throws(JSONError) in try copy.expectLiteralSlowly(literal) }
    }
  }

  /// The byte-by-byte check, for its precise error (and position).
  @inline(never)
  mutating func expectLiteralSlowly(_ literal: StaticString) throws(JSONError) {
    let start = position
    let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
    for byte in expected {
      guard position < count else {
        throw Self.error(.unexpectedEnd(expected: "'\(literal)'"), at: position)
      }
      guard bytes[position] == byte else {
        throw Self.error(.unexpectedByte(bytes[position], expected: "'\(literal)'"), at: start)
      }
      position += 1
    }
  }
}
