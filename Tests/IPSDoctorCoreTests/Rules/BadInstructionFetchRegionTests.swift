import Testing

@testable import IPSDoctorDiagnosis

/// Where a jump landed, from the `vmRegionInfo` line the arrow marks: data regions name a damaged
/// object; code, unmapped and unknown regions say nothing more.
@Suite("Bad instruction fetch: the region the jump landed in")
struct BadInstructionFetchRegionTests {
  @Test(
    "Region lines and the data kind they name",
    arguments: [
      ("__AUTH_CONST                1f0a10000-1f0a40000    [  192K] r--/rw- SM=COW  /S/UIKitCore", "__AUTH_CONST"),
      ("__DATA_CONST 1f0a00000-1f0a10000 [ 64K] r--/rw- SM=COW  /S/UIKitCore", "__DATA_CONST"),
      ("MALLOC_SMALL                 148000000-148800000    [ 8192K] rw-/rwx SM=PRV", "MALLOC_SMALL"),
      ("Stack                        16b2a0000-16b328000    [  544K] rw-/rwx SM=PRV  thread 3", "Stack"),
      ("__TEXT                       104a2c000-104f30000    [ 5136K] r-x/r-x SM=COW  /var/A/Acme", nil),
      ("UNUSED SPACE AT START", nil),
      ("", nil),
    ] as [(String, String?)])
  func kind(line: String, expected: String?) {
    #expect(BadInstructionFetchRule.dataRegionKind(line) == expected)
  }
}
