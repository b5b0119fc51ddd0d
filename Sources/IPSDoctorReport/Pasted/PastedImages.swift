extension CrashReport {
  /// One image per name the frames of a pasted trace give (it has no list of images), in order of
  /// first use; the app's are those with a frame that only the app's code has: a source location
  /// (Crashlytics and Sentry give one only where they have the app's dSYM) or the program's `main`.
  mutating func nameImagesFromFrames() {
    var names: [String] = []
    var isApp: [Bool] = []
    var indexOfName: [String: Int] = [:]
    func visit(_ frame: inout Frame) {
      guard let name = frame.imageName else { return }
      let index: Int
      if let known = indexOfName[name] {
        index = known
      } else {
        index = names.count
        indexOfName[name] = index
        names.append(name)
        isApp.append(false)
      }
      frame.imageIndex = index
      if frame.sourceFile != nil || frame.symbol == "main" || (frame.symbol?.hasSuffix(".$main()") ?? false) {
        isApp[index] = true
        if frame.symbol == "main" || (frame.symbol?.hasSuffix(".$main()") ?? false) { processName = name }
      }
    }
    for thread in threads.indices {
      for frame in threads[thread].frames.indices { visit(&threads[thread].frames[frame]) }
    }
    if var frames = lastExceptionBacktrace {
      for index in frames.indices { visit(&frames[index]) }
      lastExceptionBacktrace = frames
    }
    images = names.indices.map { index in
      var image = BinaryImage(name: names[index])
      if isApp[index] { image.source = "P" }
      return image
    }
    if processName == nil, let first = isApp.firstIndex(of: true) { processName = names[first] }
  }
}
