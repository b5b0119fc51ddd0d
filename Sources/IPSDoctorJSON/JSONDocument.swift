import IPSDoctorSupport

/// A parsed JSON document kept as a flat tape: one fixed-size entry per value, in source order,
/// over a copy of the document's bytes.
///
/// Strings stay undecoded and numbers keep their exact value in the entry. Readers walk the tape
/// with ``JSONNode``s (keys compared as bytes) and decode only the values they use; ``value``
/// builds the ``JSONValue`` tree on demand.
///
/// A worked example: `{"a":[1,"x"],"b":null}` (bytes 0 to 21) is the tape
///
///     index  kind    start  end  containerEnd
///     0      object  0      2    7              two members; entries 1..<7 are inside
///     1      string  2      3                   the key "a" (bytes 2..<3, quotes excluded)
///     2      array   5      2    5              two elements; entries 3..<5 are inside
///     3      number  6      7                   1, held exactly in the entry
///     4      string  9      10                  "x"
///     5      string  14     15                  the key "b"
///     6      null    17     0
///
/// Invariants: a container's members follow it, each object member as a key entry then its
/// value; `indexAfter(i)` skips a whole value (`containerEnd` for a container, `i + 1` otherwise),
/// so a member is found by stepping from key to key without reading the values between.
@usableFromInline package struct JSONDocument: Sendable, Equatable {
  /// The tape: one entry per value, in source order.
  @usableFromInline let tape: [JSONTapeEntry]
  /// Holds the document's bytes at `byteOffset..<byteOffset + byteCount`: the array the document was
  /// read from when the reader has one (a report's file, as the batch and the benchmark read it),
  /// else a copy of the document's bytes. Keeping the reader's array spares copying every body.
  @usableFromInline let source: [UInt8]
  @usableFromInline let byteOffset: Int
  @usableFromInline let byteCount: Int
  /// The containers that lost values to the ``JSONTapeBudget`` the document was read with, in tape
  /// order; empty when every value was kept.
  package let omissions: [JSONOmission]
  /// Whether the budget cut more than the tails of long arrays: values after its outline or total
  /// limit were not kept, so a member that the document has may be missing from the tape.
  package let isAbridged: Bool

  /// The tape and where its bytes are, as ``JSONParser`` makes them.
  init(
    tape: [JSONTapeEntry], source: [UInt8], byteOffset: Int, byteCount: Int, omissions: [JSONOmission] = [],
    isAbridged: Bool = false
  ) {
    self.tape = tape
    self.source = source
    self.byteOffset = byteOffset
    self.byteCount = byteCount
    self.omissions = omissions
    self.isAbridged = isAbridged
  }

  init(bytes: [UInt8], entries: [JSONTapeEntry]) {
    self.init(tape: entries, source: bytes, byteOffset: 0, byteCount: bytes.count)
  }

  /// The path from the root to the value at tape index `index` (empty for the root, and for an
  /// index that no value starts at).
  package func path(to index: Int) -> JSONPath {
    withView { view in
      let entries = view.entries
      var path = JSONPath()
      var container = 0
      search: while container != index, container < entries.count {
        let entry = entries[container]
        guard entry.kind == .array || entry.kind == .object else { break }
        let isObject = entry.kind == .object
        var child = container + 1
        var position = 0
        while child < entry.containerEnd {
          let value = isObject ? child + 1 : child
          let next = entries[value].indexAfter(value)
          if index >= value && index < next {
            path =
              isObject
              ? path.appending(JSONTapeEntry.decodedString(entries[child], in: view.bytes))
              : path.appending(position)
            container = value
            continue search
          }
          child = next
          position += 1
        }
        return JSONPath()
      }
      return path
    }
  }

  /// The value at tape index `index` read again alone from the document's bytes (which the new
  /// document shares), with `budget`: what a budget cut from it when the whole document was read
  /// may fit when it is read alone. `nil` for an index past the tape.
  package func reread(at index: Int, budget: JSONTapeBudget?) -> JSONDocument? {
    guard index < tape.count else { return nil }
    let start = byteOffset + tape[index].start
    return source.withUnsafeBufferPointer { all in
      let (document, _, error) = JSONParser.documentPrefix(all, from: start, source: source, budget: budget)
      return error == nil ? document : nil
    }
  }

  /// A copy of the document's bytes, made on every call. Readers use ``withView(_:)``; this is a
  /// method, not a property that looks like stored storage, so that the copy shows at the call.
  package func copiedBytes() -> [UInt8] { withView { Array($0.bytes) } }

  /// A copy of the tape (see ``copiedBytes()``).
  func copiedEntries() -> [JSONTapeEntry] { withView { Array($0.entries) } }

  /// The document as a tree (built on every call).
  package var value: JSONValue {
    withRoot { $0.value }
  }

  /// Calls `body` with views of the tape and the bytes; they must not escape `body`.
  @inlinable @inline(__always)
  package func withView<Result>(_ body: (JSONView) -> Result) -> Result {
    tape.withUnsafeBufferPointer { entries in
      source.withUnsafeBufferPointer { bytes in
        let own = UnsafeBufferPointer(rebasing: bytes[byteOffset..<byteOffset + byteCount])
        return body(JSONView(bytes: own, entries: entries))
      }
    }
  }

  /// Calls `body` with the root value. Nodes are views into this document: they must not escape
  /// `body`.
  @inlinable @inline(__always)
  package func withRoot<Result>(_ body: (JSONNode) -> Result) -> Result {
    withView { body(JSONNode(view: $0, index: 0)) }
  }

  /// Two documents are equal when their values are (formatting and key order within the source
  /// aside, exactly as ``JSONValue`` compares).
  @usableFromInline package static func == (lhs: JSONDocument, rhs: JSONDocument) -> Bool {
    (lhs.tape == rhs.tape && lhs.withView { left in rhs.withView { right in left.bytes.elementsEqual(right.bytes) } })
      || lhs.value == rhs.value
  }
}

/// One value on the tape: 16 bytes.
///
/// Offsets and counts are 32-bit (``JSONParser`` reads at most ``JSONParser/maxTapeBytes`` bytes
/// of a document); `start`, `end` and `payload` are computed from the packed fields.
@usableFromInline package struct JSONTapeEntry: Sendable, Equatable {
  @usableFromInline package enum Kind: UInt8, Sendable {
    case null, `false`, `true`, number, string, array, object
  }

  @usableFromInline package var kind: Kind
  /// Strings: ``stringHasEscapes``. Numbers: how ``payload`` holds the value.
  @usableFromInline package var flags: UInt8 = 0
  /// Numbers whose exact value ``word`` holds (``numberUnsigned``, ``numberNegative``): the length
  /// of their text, never 0. Everything else: 0.
  @usableFromInline var numberLength: UInt16 = 0
  /// ``start``.
  @usableFromInline var offset: UInt32
  /// Numbers with ``numberLength``: the value. Everything else: ``end`` in the low 32 bits and, for
  /// arrays and objects, ``payload`` in the high 32 bits (0 for the others).
  @usableFromInline package var word: UInt64 = 0

  /// Offset of the value's first byte (for strings, the first byte after the opening quote).
  @inlinable @inline(__always)
  package var start: Int { Int(offset) }

  /// Strings and numbers: offset just past the text (for strings, the closing quote). Arrays and
  /// objects: the number of elements or members. `true`, `false`, `null`: 0.
  @inlinable @inline(__always)
  package var end: Int {
    numberLength != 0 ? Int(offset) &+ Int(numberLength) : Int(UInt32(truncatingIfNeeded: word))
  }

  /// Numbers: the value (see `flags`; 0 for ``numberOther``). Arrays and objects: the index of the
  /// entry after the last one inside them. Anything else: 0.
  @inlinable @inline(__always)
  var payload: UInt64 { numberLength != 0 ? word : word &>> 32 }

  /// Strings: ``end`` without looking at the kind.
  @inlinable @inline(__always)
  package var stringEnd: Int { Int(UInt32(truncatingIfNeeded: word)) }

  /// Arrays and objects: ``payload`` without looking at the kind.
  @inlinable @inline(__always)
  package var containerEnd: Int { Int(truncatingIfNeeded: word &>> 32) }

  /// The index of the entry after the value this entry, at `index`, starts (and everything inside
  /// it): the tape walks that look members up by index step with it.
  @inlinable @inline(__always)
  package func indexAfter(_ index: Int) -> Int { kind == .array || kind == .object ? containerEnd : index + 1 }

  @inlinable package static var stringHasEscapes: UInt8 { 1 }
  @inlinable package static var numberUnsigned: UInt8 { 0 }
  @inlinable static var numberNegative: UInt8 { 1 }
  @inlinable static var numberOther: UInt8 { 2 }

  /// An entry whose `payload` is 0 (before a container's is set). `start` and `end` fit in 32 bits.
  @inlinable @inline(__always)
  init(kind: Kind, flags: UInt8 = 0, start: Int, end: Int = 0) {
    self.kind = kind
    self.flags = flags
    self.offset = UInt32(truncatingIfNeeded: start)
    self.word = UInt64(UInt32(truncatingIfNeeded: end))
  }

  /// A number whose exact value is `value` (`flags` is ``numberUnsigned`` or ``numberNegative``),
  /// its text `start..<end` (1 to 65,535 bytes; the parser's are at most 20).
  @inlinable @inline(__always)
  init(exactNumber value: UInt64, flags: UInt8, start: Int, end: Int) {
    self.kind = .number
    self.flags = flags
    self.numberLength = UInt16(truncatingIfNeeded: end &- start)
    self.offset = UInt32(truncatingIfNeeded: start)
    self.word = value
  }

  static func hexDigit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: byte - 0x30
    case 0x41...0x46: byte - 0x41 + 10
    case 0x61...0x66: byte - 0x61 + 10
    default: nil
    }
  }

  /// `bytes`, valid UTF-8, as a string. Up to 15 bytes, the string is built in place, the ASCII test
  /// two words wide: `String(decoding:)` validated them again byte by byte, and most texts a report
  /// holds are that short (register and thread names, exception types, small symbols).
  @inlinable @inline(__always)
  package static func text(validUTF8 bytes: UnsafeBufferPointer<UInt8>) -> String {
    guard bytes.count <= 15 else { return String(decoding: bytes, as: UTF8.self) }
    return String(unsafeUninitializedCapacity: bytes.count) { room in
      if let from = bytes.baseAddress, let to = room.baseAddress {
        UnsafeMutableRawPointer(to).copyMemory(from: from, byteCount: bytes.count)
      }
      return bytes.count
    }
  }

  /// The text of a string entry the parser has validated.
  @usableFromInline package static func decodedString(_ entry: JSONTapeEntry, in buffer: UnsafeBufferPointer<UInt8>)
    -> String
  {
    let raw = UnsafeBufferPointer(rebasing: buffer[entry.start..<entry.stringEnd])
    guard entry.flags & stringHasEscapes != 0 else { return text(validUTF8: raw) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(raw.count)
    var index = 0
    func hex4(_ at: Int) -> UInt32 {
      var value: UInt32 = 0
      for offset in 0..<4 { value = value << 4 | UInt32(hexDigit(raw[at + offset]) ?? 0) }
      return value
    }
    while index < raw.count {
      let byte = raw[index]
      guard byte == ASCII.backslash, index + 1 < raw.count else {
        bytes.append(byte)
        index += 1
        continue
      }
      let escape = raw[index + 1]
      index += 2
      switch escape {
      case UInt8(ascii: "b"): bytes.append(0x08)
      case UInt8(ascii: "f"): bytes.append(0x0C)
      case UInt8(ascii: "n"): bytes.append(0x0A)
      case UInt8(ascii: "r"): bytes.append(0x0D)
      case UInt8(ascii: "t"): bytes.append(0x09)
      case UInt8(ascii: "u"):
        guard index + 4 <= raw.count else { break }
        var scalarValue = hex4(index)
        index += 4
        if scalarValue >= 0xD800 && scalarValue <= 0xDBFF && index + 6 <= raw.count {
          let low = hex4(index + 2)
          scalarValue = 0x10000 + ((scalarValue - 0xD800) << 10) + (low &- 0xDC00)
          index += 6
        }
        // The parser rejected lone surrogates; U+FFFD only guards against misuse.
        bytes.append(contentsOf: UTF8.encode(Unicode.Scalar(scalarValue) ?? "\u{FFFD}")!)
      default: bytes.append(escape)  // \" \\ \/
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// Unsafe views of a document's bytes and tape, valid inside ``JSONDocument/withRoot(_:)``.
@usableFromInline package struct JSONView {
  @usableFromInline package let bytes: UnsafeBufferPointer<UInt8>
  @usableFromInline package let entries: UnsafeBufferPointer<JSONTapeEntry>

  @inlinable init(bytes: UnsafeBufferPointer<UInt8>, entries: UnsafeBufferPointer<JSONTapeEntry>) {
    self.bytes = bytes
    self.entries = entries
  }
}

/// A value inside a ``JSONDocument``, read in place.
@usableFromInline package struct JSONNode {
  @usableFromInline package let view: JSONView
  @usableFromInline package let index: Int

  @inlinable @inline(__always)
  package init(view: JSONView, index: Int) {
    self.view = view
    self.index = index
  }

  @inlinable @inline(__always)
  package var entry: JSONTapeEntry { view.entries[index] }

  @inlinable @inline(__always)
  package var kind: JSONTapeEntry.Kind { view.entries[index].kind }

  @inlinable var isNull: Bool { kind == .null }

  /// The index of the entry after this value (and everything inside it).
  @inlinable @inline(__always)
  var nextIndex: Int { view.entries[index].indexAfter(index) }

  /// A string's bytes as the document has them, when it has no escapes (they are then its text);
  /// `nil` for any other value. Valid as long as the document is.
  @inlinable @inline(__always)
  package var unescapedStringBytes: UnsafeRawBufferPointer? {
    let entry = view.entries[index]
    guard entry.kind == .string, entry.flags & JSONTapeEntry.stringHasEscapes == 0 else { return nil }
    return UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: view.bytes[entry.start..<entry.stringEnd]))
  }

  /// The name of this value's JSON type, as used in diagnostics ("object", "string", …).
  package var typeName: String {
    switch kind {
    case .null: "null"
    case .false, .true: "boolean"
    case .number: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }

  package var string: String? {
    guard kind == .string else { return nil }
    return JSONTapeEntry.decodedString(entry, in: view.bytes)
  }

  var bool: Bool? {
    switch kind {
    case .true: true
    case .false: false
    default: nil
    }
  }

  package var number: JSONNumber? {
    let entry = entry
    guard entry.kind == .number else { return nil }
    switch entry.flags {
    case JSONTapeEntry.numberUnsigned: return .unsigned(entry.word)
    case JSONTapeEntry.numberNegative: return .negative(Int64(bitPattern: entry.word))
    default:
      return .other(
        String(decoding: UnsafeBufferPointer(rebasing: view.bytes[entry.start..<entry.end]), as: UTF8.self))
    }
  }

  /// Elements of an array or members of an object.
  @inlinable @inline(__always)
  package var count: Int {
    let entry = entry
    return entry.kind == .array || entry.kind == .object ? entry.end : 0
  }

  /// The elements of an array (none for anything else).
  @inlinable package var elements: Elements { Elements(node: self) }

  /// The members of an object in source order, duplicates included (none for anything else).
  @inlinable package var members: Members { Members(node: self) }

  /// The value of the last member named `key` when this is an object.
  package subscript(key: StaticString) -> JSONNode? {
    member(UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
  }

  /// The value of the last member named `key` when this is an object.
  package subscript(key: String) -> JSONNode? {
    key.withBorrowedUTF8 { member(UnsafeRawBufferPointer($0)) }
  }

  private func member(_ key: UnsafeRawBufferPointer) -> JSONNode? {
    guard kind == .object else { return nil }
    var found: JSONNode?
    for (name, value) in members where name.keyEquals(key) { found = value }
    return found
  }

  /// The length of this string in UTF-8 bytes, a quick filter before ``keyEquals(_:)`` (keys with
  /// escapes are rare and are decoded for it).
  var keyLength: Int {
    let entry = entry
    if entry.flags & JSONTapeEntry.stringHasEscapes != 0 {
      return JSONTapeEntry.decodedString(entry, in: view.bytes).utf8.count
    }
    return entry.stringEnd - entry.start
  }

  /// Whether this string is `key`, compared as UTF-8 after decoding escapes.
  @inlinable @inline(__always)
  func keyEquals(_ key: UnsafeRawBufferPointer) -> Bool {
    let entry = entry
    let count = key.count
    if entry.flags & JSONTapeEntry.stringHasEscapes != 0 {
      return Array(JSONTapeEntry.decodedString(entry, in: view.bytes).utf8).elementsEqual(key)
    }
    guard entry.stringEnd - entry.start == count else { return false }
    guard let base = view.bytes.baseAddress, let other = key.baseAddress else { return count == 0 }
    let mine = UnsafeRawPointer(base + entry.start)
    if count >= 8 {
      // Two overlapping 8-byte loads cover keys of 8 to 16 bytes, the usual report key.
      guard mine.loadUnaligned(as: UInt64.self) == other.loadUnaligned(as: UInt64.self) else { return false }
      if count <= 16 {
        return mine.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
          == other.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
      }
    }
    return memcmp(mine, other, count) == 0
  }

  @inlinable @inline(__always)
  package func keyEquals(_ key: StaticString) -> Bool {
    keyEquals(UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
  }

  /// This value and everything inside it as a tree. Built without recursion, like the parse, so
  /// the deepest document the parser accepts fits on a small thread stack.
  package var value: JSONValue {
    enum Open {
      case array([JSONValue], end: Int)
      case object([JSONObject.Member], key: String?, end: Int)
    }
    let entries = view.entries
    var stack: [Open] = []
    var position = index
    while true {
      if case .object(let members, nil, let end)? = stack.last {
        // The next entry is a member's key.
        stack[stack.count - 1] = .object(
          members, key: JSONTapeEntry.decodedString(entries[position], in: view.bytes), end: end)
        position += 1
      }
      let entry = entries[position]
      var produced: JSONValue
      switch entry.kind {
      case .null: produced = .null
      case .false: produced = .bool(false)
      case .true: produced = .bool(true)
      case .number: produced = .number(JSONNode(view: view, index: position).number!)
      case .string: produced = .string(JSONTapeEntry.decodedString(entry, in: view.bytes))
      case .array, .object:
        let end = entry.containerEnd
        if end > position + 1 {
          var open: Open = .array([], end: end)
          if entry.kind == .object { open = .object([], key: nil, end: end) }
          stack.append(open)
          position += 1
          continue
        }
        produced = entry.kind == .array ? .array([]) : .object(JSONObject())
      }
      position = JSONNode(view: view, index: position).nextIndex
      // Attach the value to the open containers, closing as many as end here.
      while true {
        guard !stack.isEmpty else { return produced }
        // Switch on the popped container itself, so its storage stays uniquely referenced.
        switch stack.removeLast() {
        case .array(var values, let end):
          values.append(produced)
          if position < end {
            stack.append(.array(values, end: end))
          } else {
            produced = .array(values)
            continue
          }
        case .object(var members, let key, let end):
          members.append(JSONObject.Member(key: key ?? "", value: produced))
          if position < end {
            stack.append(.object(members, key: nil, end: end))
          } else {
            produced = .object(JSONObject(members))
            continue
          }
        }
        break
      }
    }
  }

  /// The object value as a tree, or `nil` when this is not an object.
  package var objectValue: JSONObject? {
    guard kind == .object, case .object(let object) = value else { return nil }
    return object
  }

  @usableFromInline package struct Elements: Sequence {
    @usableFromInline let node: JSONNode

    @inlinable init(node: JSONNode) { self.node = node }

    @usableFromInline package struct Iterator: IteratorProtocol {
      @usableFromInline let view: JSONView
      @usableFromInline var index: Int
      @usableFromInline let end: Int

      @inlinable init(view: JSONView, index: Int, end: Int) {
        self.view = view
        self.index = index
        self.end = end
      }

      @inlinable @inline(__always)
      package mutating func next() -> JSONNode? {
        guard index < end else { return nil }
        let element = JSONNode(view: view, index: index)
        index = element.nextIndex
        return element
      }
    }

    // Inlined, as `next()` is, so that the iterator's state stays in registers through the
    // decoders' loops instead of being stored and loaded around every element and member.
    @inlinable @inline(__always)
    package func makeIterator() -> Iterator {
      guard node.kind == .array else { return Iterator(view: node.view, index: 0, end: 0) }
      return Iterator(view: node.view, index: node.index + 1, end: node.nextIndex)
    }

    @inlinable package var underestimatedCount: Int { node.kind == .array ? node.count : 0 }
  }

  @usableFromInline package struct Members: Sequence {
    @usableFromInline let node: JSONNode

    @inlinable init(node: JSONNode) { self.node = node }

    @usableFromInline package struct Iterator: IteratorProtocol {
      @usableFromInline let view: JSONView
      @usableFromInline var index: Int
      @usableFromInline let end: Int

      @inlinable init(view: JSONView, index: Int, end: Int) {
        self.view = view
        self.index = index
        self.end = end
      }

      @inlinable @inline(__always)
      package mutating func next() -> (key: JSONNode, value: JSONNode)? {
        guard index + 1 < end else { return nil }
        let key = JSONNode(view: view, index: index)
        let value = JSONNode(view: view, index: index + 1)
        index = value.nextIndex
        return (key, value)
      }
    }

    @inlinable @inline(__always)
    package func makeIterator() -> Iterator {
      guard node.kind == .object else { return Iterator(view: node.view, index: 0, end: 0) }
      return Iterator(view: node.view, index: node.index + 1, end: node.nextIndex)
    }

    @inlinable package var underestimatedCount: Int { node.kind == .object ? node.count : 0 }
  }
}
