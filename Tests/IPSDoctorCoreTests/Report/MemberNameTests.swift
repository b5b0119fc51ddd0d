import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorReport

@Suite("Member names")
struct MemberNameTests {
  @Test("Every key constant is its key's length and words")
  func constantsMatchTheirKeys() {
    let constants: [(MemberName, String)] = [
      (.appName, "app_name"),
      (.appVersion, "app_version"),
      (.arch, "arch"),
      (.arguments, "arguments"),
      (.asi, "asi"),
      (.base, "base"),
      (.bugType, "bug_type"),
      (.build, "build"),
      (.buildVersion, "build_version"),
      (.bundleID, "bundleID"),
      (.bundleInfo, "bundleInfo"),
      (.byPid, "byPid"),
      (.byProc, "byProc"),
      (.captureTime, "captureTime"),
      (.CFBundleIdentifier, "CFBundleIdentifier"),
      (.CFBundleShortVersionString, "CFBundleShortVersionString"),
      (.CFBundleVersion, "CFBundleVersion"),
      (.`class`, "class"),
      (.code, "code"),
      (.codes, "codes"),
      (.composedMessage, "composed_message"),
      (.cpsr, "cpsr"),
      (.cpuType, "cpuType"),
      (.description, "description"),
      (.details, "details"),
      (.esr, "esr"),
      (.exception, "exception"),
      (.exceptionReason, "exceptionReason"),
      (.far, "far"),
      (.faultingThread, "faultingThread"),
      (.flags, "flags"),
      (.flavor, "flavor"),
      (.formatString, "format_string"),
      (.fp, "fp"),
      (.frames, "frames"),
      (.id, "id"),
      (.imageIndex, "imageIndex"),
      (.imageOffset, "imageOffset"),
      (.incident, "incident"),
      (.incidentID, "incident_id"),
      (.indicator, "indicator"),
      (.inline, "inline"),
      (.isCorpseSnakeCase, "is_corpse"),
      (.isCorpse, "isCorpse"),
      (.isEmbedded, "isEmbedded"),
      (.isNonFatal, "isNonFatal"),
      (.isSimulated, "isSimulated"),
      (.ktriageinfo, "ktriageinfo"),
      (.largestProcess, "largestProcess"),
      (.lastExceptionBacktrace, "lastExceptionBacktrace"),
      (.legacyInfo, "legacyInfo"),
      (.lr, "lr"),
      (.memoryStatus, "memoryStatus"),
      (.message, "message"),
      (.modelCode, "modelCode"),
      (.name, "name"),
      (.namespace, "namespace"),
      (.osVersionSnakeCase, "os_version"),
      (.osVersion, "osVersion"),
      (.panicString, "panicString"),
      (.parentPid, "parentPid"),
      (.parentProc, "parentProc"),
      (.path, "path"),
      (.pc, "pc"),
      (.pid, "pid"),
      (.platform, "platform"),
      (.processByPid, "processByPid"),
      (.procLaunch, "procLaunch"),
      (.procName, "procName"),
      (.procPath, "procPath"),
      (.queue, "queue"),
      (.rawCodes, "rawCodes"),
      (.reasons, "reasons"),
      (.releaseType, "releaseType"),
      (.sharedCache, "sharedCache"),
      (.signal, "signal"),
      (.size, "size"),
      (.sliceUUID, "slice_uuid"),
      (.source, "source"),
      (.sourceFile, "sourceFile"),
      (.sourceLine, "sourceLine"),
      (.sp, "sp"),
      (.storeInfo, "storeInfo"),
      (.subtype, "subtype"),
      (.symbol, "symbol"),
      (.symbolLocation, "symbolLocation"),
      (.termination, "termination"),
      (.threads, "threads"),
      (.threadState, "threadState"),
      (.timestamp, "timestamp"),
      (.train, "train"),
      (.triggered, "triggered"),
      (.type, "type"),
      (.usedImages, "usedImages"),
      (.uuid, "uuid"),
      (.value, "value"),
      (.vmregioninfo, "vmregioninfo"),
      (.vmRegionInfo, "vmRegionInfo"),
      (.vmSummary, "vmSummary"),
      (.x, "x"),
    ]
    for (constant, key) in constants {
      var key = key
      #expect(key.withUTF8 { MemberName(bytes: UnsafeRawBufferPointer($0)) } == constant, "\(key)")
    }
  }

  @Test("Keys read from a document match: short documents, escapes, long keys")
  func keysFromDocuments() {
    let cases: [(String, MemberName)] = [
      (#"{"x":1}"#, .x),
      (#"{"symbol":1}"#, .symbol),
      (#"{"sym\u0062ol":1}"#, .symbol),
      (#"{"symbolLocation":1}"#, .symbolLocation),
      (#"{"CFBundleIdentifier":1}"#, .CFBundleIdentifier),
      (#"{"\/":1}"#, MemberName(length: 1, head: 0x2F, tail: 0)),
    ]
    for (text, expected) in cases {
      let bytes = Array(text.utf8)
      let document = bytes.withUnsafeBufferPointer { JSONParser.documentPrefix($0, from: 0).document }
      let name = document?.withRoot { root in root.members.first { _ in true }.map { MemberName($0.key) } }
      #expect(name == expected, "\(text)")
    }
  }
}
