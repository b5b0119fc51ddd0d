/// Facts about the tool itself.
public enum IPSDoctor {
  /// The version printed by `--version` and written into every machine-readable output. The one
  /// place it is defined.
  public static let version = "0.1.0"

  /// The schema version of `--format json`, `jsonl` and baseline files. Bump it when a field is
  /// removed or changes meaning; adding a field does not bump it.
  public static let outputSchemaVersion = 1
}
