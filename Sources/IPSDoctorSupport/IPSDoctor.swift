/// Facts about the tool itself.
package enum IPSDoctor {
  /// The version printed by `--version` and written into every machine-readable output. The one
  /// place it is defined.
  package static let version = "0.1.0"

  /// The schema version of `--format json`, `jsonl` and baseline files. Bump it when a field is
  /// removed or changes meaning; adding a field does not bump it.
  package static let outputSchemaVersion = 1
}
