import IPSDoctorSupport

extension InputList {
  /// The items at `indexes`, in the order given, each as it was: a file found in a folder is still
  /// one (sniffed when it must be, passed over when it is no report), a named file or FIFO still
  /// named, standard input still standard input. Lets a caller vet the inputs of a discovery
  /// before any is read, or run a long list a part at a time.
  package func selecting(_ indexes: some Sequence<Int>) -> InputList {
    var selected = InputList()
    // Consecutive files of one folder share one listing, as a scan registers them.
    var pending: [(directory: PathName, listing: DirectoryListing, sniff: [Bool])] = []
    func flush() {
      for part in pending {
        let group = selected.addDirectory(part.directory, names: part.listing)
        for (name, mustSniff) in part.sniff.enumerated() {
          selected.append(name: name, inGroup: group, mustSniff: mustSniff)
        }
      }
      pending = []
    }
    for index in indexes {
      let item = self[index]
      switch item.source {
      case .standardInput:
        flush()
        selected.appendStandardInput()
      case .file(let path) where !item.inFolder:
        flush()
        selected.append(path: path, isStream: item.isStream)
      case .file(let path):
        let directory = path.directory
        if pending.last?.directory != directory {
          pending.append((directory, DirectoryListing(), []))
        }
        pending[pending.count - 1].listing.append(path.lastComponent)
        pending[pending.count - 1].sniff.append(item.mustSniff)
      }
    }
    flush()
    return selected
  }
}
