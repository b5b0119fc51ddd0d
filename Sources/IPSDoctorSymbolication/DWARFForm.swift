import IPSDoctorSupport

/// DWARF form codes, and reading one attribute value of any form.
enum DWARFForm {
  static let addr: UInt64 = 0x01, block2: UInt64 = 0x03, block4: UInt64 = 0x04, data2: UInt64 = 0x05
  static let data4: UInt64 = 0x06, data8: UInt64 = 0x07, string: UInt64 = 0x08, block: UInt64 = 0x09
  static let block1: UInt64 = 0x0A, data1: UInt64 = 0x0B, flag: UInt64 = 0x0C, sdata: UInt64 = 0x0D
  static let strp: UInt64 = 0x0E, udata: UInt64 = 0x0F, refAddr: UInt64 = 0x10, ref1: UInt64 = 0x11
  static let ref2: UInt64 = 0x12, ref4: UInt64 = 0x13, ref8: UInt64 = 0x14, refUdata: UInt64 = 0x15
  static let indirect: UInt64 = 0x16, secOffset: UInt64 = 0x17, exprloc: UInt64 = 0x18
  static let flagPresent: UInt64 = 0x19, strx: UInt64 = 0x1A, addrx: UInt64 = 0x1B, refSup4: UInt64 = 0x1C
  static let strpSup: UInt64 = 0x1D, data16: UInt64 = 0x1E, lineStrp: UInt64 = 0x1F, refSig8: UInt64 = 0x20
  static let implicitConst: UInt64 = 0x21, loclistx: UInt64 = 0x22, rnglistx: UInt64 = 0x23
  static let refSup8: UInt64 = 0x24, strx1: UInt64 = 0x25, strx4: UInt64 = 0x28, addrx1: UInt64 = 0x29
  static let addrx4: UInt64 = 0x2C, gnuAddrIndex: UInt64 = 0x1F01, gnuStrIndex: UInt64 = 0x1F02
  static let gnuRefAlt: UInt64 = 0x1F20, gnuStrpAlt: UInt64 = 0x1F21
}

/// One attribute value, before the unit's bases (`DW_AT_str_offsets_base`, `DW_AT_addr_base`,
/// `DW_AT_rnglists_base`) resolve the indexed forms.
enum DWARFValue {
  case address(UInt64)
  case addressIndex(UInt64)
  case unsigned(UInt64)
  case signed(Int64)
  case string(String)
  /// An offset into `.debug_str` (`strp`) or `.debug_line_str` (`line_strp`).
  case stringOffset(UInt64, lineSection: Bool)
  case stringIndex(UInt64)
  /// An offset into `.debug_info` from its start.
  case reference(UInt64)
  case sectionOffset(UInt64)
  case rangeListIndex(UInt64)
  case flag(Bool)
  case other

  /// The value as an unsigned number when it is a constant or an offset.
  var number: UInt64? {
    switch self {
    case .unsigned(let value), .sectionOffset(let value): value
    case .signed(let value): UInt64(bitPattern: value)
    default: nil
    }
  }

  /// Whether `DW_AT_high_pc` of this form is an offset from `low_pc` (DWARF 4's constant class).
  var isConstant: Bool {
    switch self {
    case .unsigned, .signed: true
    default: false
    }
  }
}

/// What reading a value needs to know about its unit.
struct DWARFFormat {
  var version: UInt16
  var addressSize: Int
  /// 4 for 32-bit DWARF, 8 for 64-bit.
  var offsetSize: Int
  /// The unit's offset in `.debug_info`: `ref1`…`ref_udata` are relative to it.
  var unitOffset: UInt64

  /// Reads one value of `form`. `nil` when the bytes run out or the form is unknown (the rest of
  /// the entry cannot be found then). `DW_FORM_indirect` nests at most a few times.
  package func read(_ form: UInt64, implicitConstant: Int64 = 0, from cursor: inout ByteCursor) -> DWARFValue? {
    var form = form
    for _ in 0..<4 {
      guard form == DWARFForm.indirect else { break }
      guard let next = cursor.uleb() else { return nil }
      form = next
    }
    switch form {
    case DWARFForm.addr: return cursor.unsigned(addressSize).map { .address($0) }
    case DWARFForm.data1, DWARFForm.ref1, DWARFForm.flag, DWARFForm.strx1, DWARFForm.addrx1:
      return cursor.unsigned(1).map { classify(form, $0) }
    case DWARFForm.data2, DWARFForm.ref2, 0x26, 0x2A: return cursor.unsigned(2).map { classify(form, $0) }
    case 0x27, 0x2B: return cursor.unsigned(3).map { classify(form, $0) }
    case DWARFForm.data4, DWARFForm.ref4, DWARFForm.refSup4, DWARFForm.strx4, DWARFForm.addrx4:
      return cursor.unsigned(4).map { classify(form, $0) }
    case DWARFForm.data8, DWARFForm.ref8, DWARFForm.refSig8, DWARFForm.refSup8:
      return cursor.unsigned(8).map { classify(form, $0) }
    case DWARFForm.data16: return cursor.skip(16) ? .other : nil
    case DWARFForm.sdata: return cursor.sleb().map { .signed($0) }
    case DWARFForm.udata, DWARFForm.refUdata, DWARFForm.strx, DWARFForm.addrx, DWARFForm.loclistx,
      DWARFForm.rnglistx, DWARFForm.gnuAddrIndex, DWARFForm.gnuStrIndex:
      return cursor.uleb().map { classify(form, $0) }
    case DWARFForm.string: return cursor.cString().map { .string($0) }
    case DWARFForm.strp, DWARFForm.lineStrp, DWARFForm.secOffset, DWARFForm.strpSup,
      DWARFForm.gnuRefAlt, DWARFForm.gnuStrpAlt:
      return cursor.unsigned(offsetSize).map { classify(form, $0) }
    case DWARFForm.refAddr:
      // DWARF 2 wrote ref_addr with the address size.
      return cursor.unsigned(version <= 2 ? addressSize : offsetSize).map { .reference($0) }
    case DWARFForm.block1: return cursor.u8().flatMap { cursor.skip(Int($0)) ? .other : nil }
    case DWARFForm.block2: return cursor.u16().flatMap { cursor.skip(Int($0)) ? .other : nil }
    case DWARFForm.block4: return cursor.u32().flatMap { cursor.skip(Int($0)) ? .other : nil }
    case DWARFForm.block, DWARFForm.exprloc:
      guard let length = cursor.uleb(), length <= UInt64(cursor.remaining) else { return nil }
      cursor.skip(Int(length))
      return .other
    case DWARFForm.flagPresent: return .flag(true)
    case DWARFForm.implicitConst: return .signed(implicitConstant)
    default: return nil
    }
  }

  private func classify(_ form: UInt64, _ raw: UInt64) -> DWARFValue {
    switch form {
    case DWARFForm.ref1, DWARFForm.ref2, DWARFForm.ref4, DWARFForm.ref8, DWARFForm.refUdata:
      return .reference(unitOffset &+ raw)
    case DWARFForm.flag: return .flag(raw != 0)
    case DWARFForm.strx, DWARFForm.strx1, 0x26, 0x27, DWARFForm.strx4, DWARFForm.gnuStrIndex:
      return .stringIndex(raw)
    case DWARFForm.addrx, DWARFForm.addrx1, 0x2A, 0x2B, DWARFForm.addrx4, DWARFForm.gnuAddrIndex:
      return .addressIndex(raw)
    case DWARFForm.strp: return .stringOffset(raw, lineSection: false)
    case DWARFForm.lineStrp: return .stringOffset(raw, lineSection: true)
    case DWARFForm.secOffset: return .sectionOffset(raw)
    case DWARFForm.rnglistx: return .rangeListIndex(raw)
    case DWARFForm.refSig8, DWARFForm.refSup4, DWARFForm.refSup8, DWARFForm.strpSup,
      DWARFForm.gnuRefAlt, DWARFForm.gnuStrpAlt, DWARFForm.loclistx:
      return .other
    default: return .unsigned(raw)
    }
  }
}
