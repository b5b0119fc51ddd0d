import IPSDoctorSupport

/// One abbreviation declaration of `.debug_abbrev`.
struct DWARFAbbreviation {
  struct Attribute {
    var name: UInt64
    var form: UInt64
    /// `DW_FORM_implicit_const`'s value, stored in the declaration.
    var implicitConstant: Int64
  }

  var tag: UInt64
  var hasChildren: Bool
  var attributes: [Attribute]
}

/// The abbreviation table of one unit, by code.
struct DWARFAbbreviations {
  static let maxDeclarations = 1 << 16
  static let maxAttributes = 256

  private var byCode: [UInt64: DWARFAbbreviation] = [:]
  /// How many declarations and attributes the table holds (what it costs to keep).
  private(set) var attributeCount = 0
  var declarationCount: Int { byCode.count }

  /// An empty table.
  init() {}

  /// Reads the table at `offset`; a damaged table ends early with what was read.
  init(_ section: UnsafeRawBufferPointer, offset: UInt64) {
    guard offset < UInt64(section.count) else { return }
    var cursor = ByteCursor(section, offset: Int(offset))
    for _ in 0..<Self.maxDeclarations {
      guard let code = cursor.uleb(), code != 0, let tag = cursor.uleb(), let children = cursor.u8() else { return }
      var attributes: [DWARFAbbreviation.Attribute] = []
      while true {
        guard let name = cursor.uleb(), let form = cursor.uleb() else { return }
        if name == 0 && form == 0 { break }
        let constant = form == DWARFForm.implicitConst ? (cursor.sleb() ?? 0) : 0
        if attributes.count < Self.maxAttributes {
          attributes.append(.init(name: name, form: form, implicitConstant: constant))
        }
      }
      if byCode[code] == nil {
        byCode[code] = DWARFAbbreviation(tag: tag, hasChildren: children != 0, attributes: attributes)
        attributeCount += attributes.count
      }
    }
  }

  subscript(code: UInt64) -> DWARFAbbreviation? { byCode[code] }
}
