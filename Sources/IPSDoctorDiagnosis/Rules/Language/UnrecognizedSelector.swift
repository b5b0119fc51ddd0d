import IPSDoctorSupport

/// "-[NSNull length]: unrecognized selector sent to instance 0x…", parsed.
struct UnrecognizedSelector: Sendable {
  var method: ObjCMethodReference
  /// The receiver's address, e.g. "0x206db76c0".
  var address: String?
  var evidence: Evidence

  static let marker = "unrecognized selector sent to"

  static func find(in context: DiagnosisContext) -> UnrecognizedSelector? {
    guard let evidence = context.reasonText(containing: marker),
      let method = ObjCMethodReference(in: evidence.detail)
    else { return nil }
    var address: String?
    if let range = evidence.detail.firstRange(of: marker) {
      let tail = evidence.detail[range.upperBound...]
      if let hex = tail.firstRange(of: "0x") {
        address = "0x" + tail[hex.upperBound...].prefix(while: \.isHexDigit)
      }
    }
    return UnrecognizedSelector(method: method, address: address, evidence: evidence)
  }

  var receiver: String { method.className }
  var selector: String { method.selector }

  /// `NSNull` received a message meant for a string, number, array or dictionary: a JSON `null`.
  var isJSONNull: Bool { receiver == "NSNull" }

  /// A mutating message sent to an immutable Foundation collection or string.
  var isMutationOfImmutable: Bool {
    Self.immutableClasses.contains(receiver) && Self.mutatingSelectors.contains(selector)
  }

  /// A Foundation value or collection received a message of another Foundation value type: a value
  /// of the wrong type (typically decoded JSON or a property list).
  var isTypeMismatch: Bool {
    !isJSONNull && Self.isFoundationValueClass(receiver) && Self.valueSelectors.contains(selector)
  }

  /// A framework class received a message that no Foundation value type understands: the object
  /// at that address is probably not the one the code meant (a deallocated object whose memory now
  /// holds another object).
  var receiverLooksUnrelated: Bool {
    guard !isJSONNull, !isMutationOfImmutable, !isTypeMismatch else { return false }
    guard !method.isClassMethod, selector != "encodeWithCoder:", receiver != "__SwiftValue",
      !receiver.hasPrefix("_TtC"), !receiver.contains(".")
    else { return false }
    return Self.frameworkPrefixes.contains { receiver.hasPrefix($0) }
  }

  static func isFoundationValueClass(_ name: String) -> Bool {
    name.hasPrefix("__NSCF") || name.hasPrefix("NSTaggedPointer") || name.hasPrefix("__NSArray")
      || name.hasPrefix("__NSDictionary") || name.hasPrefix("__NSSet")
      || name.hasPrefix("__NSSingle") || name.hasPrefix("__NSFrozen") || name.hasPrefix("NSConcrete")
      || name.hasPrefix("__NSDate") || name.hasPrefix("__NSTaggedDate")
      || [
        "NSNumber", "NSString", "NSArray", "NSDictionary", "NSData", "NSDate", "NSURL",
        "NSDecimalNumber", "__NSCFConstantString", "_NSInlineData", "Swift.__StringStorage",
        "__StringStorage", "_TtCs19__EmptyArrayStorage", "NSPathStore2",
      ].contains(name)
  }

  static let frameworkPrefixes = [
    "NS", "__NS", "_NS", "UI", "_UI", "CA", "CF", "__CF", "CL", "AV", "WK", "MK", "SK", "OS_",
  ]

  static let immutableClasses: Set<String> = [
    "__NSArrayI", "__NSArray0", "__NSSingleObjectArrayI", "__NSArrayI_Transfer", "__NSFrozenArrayM",
    "__NSDictionaryI", "__NSDictionary0", "__NSSingleEntryDictionaryI", "__NSFrozenDictionaryM",
    "__NSSetI", "__NSSingleObjectSetI", "__NSFrozenSetM", "NSTaggedPointerString",
    "__NSCFConstantString", "NSConcreteData", "_NSInlineData", "__NSCFString",
  ]

  static let mutatingSelectors: Set<String> = [
    "addObject:", "insertObject:atIndex:", "removeObject:", "removeObjectAtIndex:",
    "removeAllObjects", "removeLastObject", "replaceObjectAtIndex:withObject:",
    "addObjectsFromArray:", "exchangeObjectAtIndex:withObjectAtIndex:", "sortUsingComparator:",
    "sortUsingSelector:", "setObject:atIndexedSubscript:", "setObject:forKey:",
    "setObject:forKeyedSubscript:", "removeObjectForKey:", "addEntriesFromDictionary:",
    "removeObjectsForKeys:", "appendString:", "appendFormat:", "setString:",
    "replaceCharactersInRange:withString:", "deleteCharactersInRange:", "appendData:",
    "setLength:",
  ]

  /// Messages that Foundation's value and collection types understand.
  static let valueSelectors: Set<String> = Set<String>([
    "length", "count", "objectForKey:", "objectAtIndex:", "objectForKeyedSubscript:",
    "objectAtIndexedSubscript:", "isEqualToString:", "stringValue", "intValue", "integerValue",
    "longLongValue", "unsignedIntegerValue", "boolValue", "doubleValue", "floatValue",
    "characterAtIndex:", "substringToIndex:", "substringFromIndex:", "hasPrefix:", "hasSuffix:",
    "rangeOfString:", "UTF8String", "firstObject", "lastObject", "allKeys", "allValues",
    "valueForKey:", "containsObject:", "keyEnumerator", "objectEnumerator", "componentsSeparatedByString:",
    "lowercaseString", "uppercaseString", "dataUsingEncoding:", "timeIntervalSince1970",
    "absoluteString", "bytes", "getCharacters:range:", "_fastCStringContents:",
    "enumerateKeysAndObjectsUsingBlock:", "countByEnumeratingWithState:objects:count:",
  ]).union(mutatingSelectors)
}
