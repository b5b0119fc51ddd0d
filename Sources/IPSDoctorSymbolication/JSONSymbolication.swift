import IPSDoctorJSON
import IPSDoctorReport
import IPSDoctorSupport

/// Symbolicates the body of a JSON `.ips` report the way Xcode does: an unsymbolicated frame
/// (`imageIndex`, `imageOffset`, no `symbol`) gets `symbol`, `symbolLocation`, `sourceFile` and
/// `sourceLine`; code inlined into it comes first as copies of the frame with `"inline": true`.
/// Frames that have a symbol, and every other member, are left as they are.
package enum JSONSymbolication {
  package static func rewrite(_ body: JSONValue, report: CrashReport, symbolicator: Symbolicator) -> (
    body: JSONValue, frames: Int
  ) {
    guard case .object(var object) = body else { return (body, 0) }
    var count = 0
    var matches: [Int: ImageMatch] = [:]
    func frames(_ value: JSONValue) -> JSONValue {
      guard case .array(let elements) = value else { return value }
      var output: [JSONValue] = []
      output.reserveCapacity(elements.count)
      for element in elements {
        guard case .object(let frame) = element, frame["symbol"] == nil,
          let index = frame["imageIndex"]?.numberValue?.uint64, index < UInt64(report.images.count),
          let offset = frame["imageOffset"]?.numberValue?.uint64
        else {
          output.append(element)
          continue
        }
        let model = Frame(imageIndex: Int(index), imageOffset: offset)
        guard let symbols = symbolicator.symbols(of: model, in: report, matches: &matches) else {
          output.append(element)
          continue
        }
        count += 1
        for (position, symbol) in symbols.enumerated() {
          var copy = frame
          if position < symbols.count - 1 { copy.members.append(.init(key: "inline", value: .bool(true))) }
          copy.members.append(.init(key: "symbol", value: .string(symbol.symbol)))
          copy.members.append(.init(key: "symbolLocation", value: .number(.unsigned(symbol.symbolLocation))))
          if let file = symbol.sourceFile {
            copy.members.append(.init(key: "sourceFile", value: .string(file)))
            copy.members.append(
              .init(key: "sourceLine", value: .number(.unsigned(UInt64(max(symbol.sourceLine ?? 0, 0))))))
          }
          output.append(.object(copy))
        }
      }
      return .array(output)
    }
    for position in object.members.indices {
      switch object.members[position].key {
      case "threads":
        guard case .array(var threads) = object.members[position].value else { continue }
        for thread in threads.indices {
          guard case .object(var members) = threads[thread] else { continue }
          for member in members.members.indices where members.members[member].key == "frames" {
            members.members[member].value = frames(members.members[member].value)
          }
          threads[thread] = .object(members)
        }
        object.members[position].value = .array(threads)
      case "lastExceptionBacktrace":
        object.members[position].value = frames(object.members[position].value)
      default: continue
      }
    }
    return (.object(object), count)
  }
}
