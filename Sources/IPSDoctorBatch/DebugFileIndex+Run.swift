import IPSDoctorSupport
import IPSDoctorSymbolication

extension DebugFileIndex {
  /// The index for a `diagnose` run: the `--dsym` paths, else the `.dSYM` bundles beside the
  /// reports (each report folder and its `dSYMs/`, each folder listed once) and, on macOS,
  /// Spotlight for the images still without one (``SpotlightLookup``).
  package static func forRun(options: Options, inputs: InputList, environment: [String: String] = [:]) -> DebugFileIndex
  {
    if !options.dsyms.isEmpty { return DebugFileIndex(paths: options.dsyms.map(PathName.init)) }
    var index = defaultIndex(inputs: inputs)
    index.spotlight = SpotlightLookup.forRun(environment: environment)
    return index
  }

  /// The `.dSYM` bundles beside the reports.
  private static func defaultIndex(inputs: InputList) -> DebugFileIndex {
    var folders = Set<PathName>()
    var paths: [PathName] = []
    for index in 0..<inputs.count {
      guard case .file(let path) = inputs[index].source else { continue }
      var bytes = path.bytes
      while let last = bytes.last, last != UInt8(ascii: "/") { bytes.removeLast() }
      guard folders.insert(PathName(bytes: bytes)).inserted else { continue }
      paths += DebugImageLocator.defaultPaths(forReport: path)
    }
    return paths.isEmpty ? DebugFileIndex() : DebugFileIndex(paths: paths)
  }
}
