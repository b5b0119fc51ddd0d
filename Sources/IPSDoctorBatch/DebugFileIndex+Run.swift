import IPSDoctorSupport
import IPSDoctorSymbolication

extension DebugFileIndex {
  /// The index for a `diagnose` run over `paths` (``debugPaths(options:inputs:)``): the `--dsym`
  /// paths, else the `.dSYM` bundles beside the reports and, on macOS, Spotlight for the images
  /// still without one (``SpotlightLookup``).
  package static func forRun(options: Options, paths: [PathName], environment: [String: String] = [:])
    -> DebugFileIndex
  {
    if !options.dsyms.isEmpty { return DebugFileIndex(paths: paths) }
    var index = paths.isEmpty ? DebugFileIndex() : DebugFileIndex(paths: paths)
    index.spotlight = SpotlightLookup.forRun(environment: environment)
    return index
  }

  /// The paths searched for debug files: the `--dsym` paths, else the `.dSYM` bundles beside the
  /// reports (each report folder and its `dSYMs/`, each folder listed once).
  package static func debugPaths(options: Options, inputs: InputList) -> [PathName] {
    if !options.dsyms.isEmpty { return options.dsyms.map(PathName.init) }
    var folders = Set<PathName>()
    var paths: [PathName] = []
    for index in 0..<inputs.count {
      guard case .file(let path) = inputs[index].source else { continue }
      guard folders.insert(path.directory).inserted else { continue }
      paths += DebugImageLocator.defaultPaths(forReport: path)
    }
    return paths
  }
}
