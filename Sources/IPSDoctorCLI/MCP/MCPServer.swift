import IPSDoctorJSON
import IPSDoctorSupport

/// The MCP protocol revisions the server speaks.
enum MCPProtocol {
  /// The current revision, answered to a client that asks for one the server does not know.
  static let latest = "2025-06-18"
  /// Every revision accepted, newest first.
  static let supported = ["2025-06-18", "2025-03-26"]
  /// The first revision with `structuredContent` in tool results.
  static let structuredContentRevision = "2025-06-18"
  /// The longest message read; a longer line is refused and the server goes on with the next.
  static let defaultMessageLimit = 64 << 20
}

/// A Model Context Protocol server over newline-delimited JSON-RPC 2.0 (the stdio transport).
///
/// One thread reads and answers messages (`initialize`, `ping`, `tools/list`, notifications,
/// cancellations, the client's answers); tool calls run one at a time, in order, on a worker
/// thread of their own, so that a `ping` or a `notifications/cancelled` is read while a tool runs.
/// Messages are written whole, one a line, under one lock: lines never interleave.
///
/// Invariants: stdout carries protocol messages only (logs go to `log`); every request gets
/// exactly one response, except a tool call the client cancelled, which gets none; no tool writes
/// a file.
final class MCPServer: @unchecked Sendable {
  /// Writes one line (a message and its line feed); `false` when it could not be written. Called
  /// only with `writing` held.
  private let write: (String) -> Bool
  /// A line for the log (standard error); called from the reader and the worker alike, so it must
  /// write each line whole in one call.
  private let log: (String) -> Void
  private let workingDirectory: PathName
  private let jobs: Int
  private let messageLimit: Int

  /// The state the reader and the worker share, under `state`.
  private let state = Monitor(conditions: 2)
  private static let workArrived = 0
  private static let rootsSettled = 1
  private var protocolVersion: String?
  private var clientDeclaresRoots = false
  private var roots: Roots = .none
  private var queue: [ToolCall] = []
  private var inputEnded = false
  /// Tool calls queued or running that the client cancelled.
  private var cancelled: Set<JSONRPCID> = []
  /// Tool calls queued or running.
  private var active: Set<JSONRPCID> = []
  private var rootsRequest: JSONRPCID?
  private var runsInline = false
  private var requestCounter = 0

  /// Held while a message is written. The state lock may be taken inside it (a write may consult
  /// the state), never the other way round, so the reader never waits for a write to end.
  private let writing = Monitor(conditions: 0)
  /// A message could not be written (under `state`).
  private var outputFailed = false

  enum Roots: Equatable {
    /// The client declared no roots: any path may be read.
    case none
    /// Asked for with `roots/list`, not answered yet.
    case pending
    /// The physical paths of the client's roots.
    case known([PathName])
    /// The client declared roots but they could not be read: no path may be read.
    case unavailable(String)
  }

  private struct ToolCall {
    var id: JSONRPCID
    var name: String
    var arguments: JSONValue?
    var progressToken: JSONValue?
  }

  init(
    workingDirectory: PathName = MCPFileAccess.currentDirectory(), jobs: Int = 1,
    messageLimit: Int = MCPProtocol.defaultMessageLimit, write: @escaping (String) -> Bool,
    log: @escaping (String) -> Void
  ) {
    self.workingDirectory = workingDirectory
    self.jobs = max(1, jobs)
    self.messageLimit = messageLimit
    self.write = write
    self.log = log
  }

  /// Serves until the input ends (then finishes the queued tool calls) or a message cannot be
  /// written. Returns `false` when the input or the output failed.
  func serve(_ source: some MCPByteSource) -> Bool {
    var reader = MCPLineReader(source: source, limit: messageLimit)
    let worker = WorkerThreads.start(count: 1) { [self] _ in work() }
    // Without a worker, tool calls run on this thread, which cannot wait for an answer it reads.
    if worker == nil { state.locked { runsInline = true } }
    var readFailed = false
    reading: while !hasOutputFailed {
      switch reader.next() {
      case .message(let line):
        handle(JSONRPCMessage.parse(line))
        if worker == nil { work(untilEmpty: true) }
      case .tooLong(let size):
        log(
          "refused a message of \(ByteCount.describe(Int64(size))), over the limit of \(ByteCount.describe(Int64(messageLimit)))"
        )
        send(
          JSONRPCOutgoing.error(
            id: nil,
            JSONRPCError(
              .invalidRequest,
              "message of \(ByteCount.describe(Int64(size))) refused: the limit is \(ByteCount.describe(Int64(messageLimit))) a line"
            )))
      case .end:
        break reading
      case .failed:
        log("standard input could not be read")
        readFailed = true
        break reading
      }
    }
    state.locked {
      inputEnded = true
      if roots == .pending { roots = .unavailable("the input ended before the client answered roots/list") }
      // Output that fails ends the session: what is queued would be answered to no one.
      if outputFailed { queue.removeAll() }
      state.broadcast(Self.workArrived)
      state.broadcast(Self.rootsSettled)
    }
    if let worker { worker.join() } else { work(untilEmpty: true) }
    return !readFailed && !hasOutputFailed
  }

  /// Whether a message could not be written (the session ended there).
  var hasOutputFailed: Bool { state.locked { outputFailed } }

  // MARK: Messages

  func handle(_ message: JSONRPCMessage) {
    switch message {
    case .invalid(let id, let error):
      send(JSONRPCOutgoing.error(id: id, error))
    case .response(let id, let result, let error):
      receivedResponse(id: id, result: result, error: error)
    case .notification(let method, let params):
      notification(method, params: params)
    case .request(let id, let method, let params):
      do throws(JSONRPCError) {
        if let result = try request(id: id, method: method, params: params) {
          send(JSONRPCOutgoing.result(id: id, result))
        }
      } catch {
        send(JSONRPCOutgoing.error(id: id, error))
      }
    }
  }

  /// The result of a request answered at once, or `nil` for a tool call, answered by the worker.
  private func request(id: JSONRPCID, method: String, params: JSONValue?) throws(JSONRPCError) -> JSONValue? {
    switch method {
    case "initialize":
      return try initialize(params)
    case "ping":
      return .object([:])
    default:
      break
    }
    guard state.locked({ protocolVersion != nil }) else {
      throw JSONRPCError(.invalidRequest, "the server is not initialized: send initialize first")
    }
    switch method {
    case "tools/list":
      return .object(["tools": .array(MCPTools.definitions)])
    case "tools/call":
      guard case .object(let object)? = params else {
        throw JSONRPCError(.invalidParams, "tools/call needs params with the tool's name")
      }
      guard case .string(let name)? = object["name"] else {
        throw JSONRPCError(.invalidParams, "tools/call: name must be a string")
      }
      guard MCPTools.names.contains(name) else {
        throw JSONRPCError(
          .invalidParams, "unknown tool '\(name)' (the tools are \(MCPTools.names.joined(separator: ", ")))")
      }
      let token = object["_meta"]?["progressToken"]
      let call = ToolCall(id: id, name: name, arguments: object["arguments"], progressToken: token)
      let duplicate = state.locked { () -> Bool in
        guard active.insert(id).inserted else { return true }
        queue.append(call)
        state.signal(Self.workArrived)
        return false
      }
      if duplicate { throw JSONRPCError(.invalidRequest, "a request with this id is still running") }
      return nil
    default:
      throw JSONRPCError(.methodNotFound, "method not found: \(method)")
    }
  }

  private func initialize(_ params: JSONValue?) throws(JSONRPCError) -> JSONValue {
    guard case .object(let object)? = params, case .string(let asked)? = object["protocolVersion"] else {
      throw JSONRPCError(.invalidParams, "initialize needs params with a protocolVersion string")
    }
    let version = MCPProtocol.supported.contains(asked) ? asked : MCPProtocol.latest
    let declaresRoots = object["capabilities"]?["roots"]?.objectValue != nil
    let first = state.locked { () -> Bool in
      guard protocolVersion == nil else { return false }
      protocolVersion = version
      clientDeclaresRoots = declaresRoots
      // Until the client answers roots/list (asked once it says it is initialized), no file is read.
      if declaresRoots { roots = .pending }
      return true
    }
    guard first else { throw JSONRPCError(.invalidRequest, "the server is already initialized") }
    if !MCPProtocol.supported.contains(asked) {
      log("the client asked for protocol \(asked); answering with \(version)")
    }
    return .object([
      "protocolVersion": .string(version),
      "capabilities": .object(["tools": .object(["listChanged": .bool(false)])]),
      "serverInfo": .object([
        "name": .string("ips-doctor"), "title": .string("ips-doctor"), "version": .string(IPSDoctor.version),
      ]),
      "instructions": .string(Self.instructions),
    ])
  }

  static let instructions =
    "ips-doctor diagnoses Apple crash reports (.ips, .crash, jetsam, hang, panic). Call diagnose with a report's "
    + "path or pasted text instead of reading the report yourself; trust a diagnosis by its confidence and its "
    + "evidence paths. Call triage for a folder of reports, symbolicate when frames lack symbols (ask the user for "
    + "the dSYM whose UUID the result names), check_source on the app's Swift sources to find the line to fix, and "
    + "explain_rule for a rule's background."

  private func notification(_ method: String, params: JSONValue?) {
    switch method {
    case "notifications/initialized", "notifications/roots/list_changed":
      if state.locked({ clientDeclaresRoots && protocolVersion != nil }) { askForRoots() }
    case "notifications/cancelled":
      guard let requestID = params?["requestId"].flatMap(JSONRPCID.init) else { return }
      state.locked {
        // Only a call still queued or running can be cancelled; others are done already.
        if active.contains(requestID) { cancelled.insert(requestID) }
      }
    default:
      break  // Notifications the server does not use are ignored, as JSON-RPC asks.
    }
  }

  private func askForRoots() {
    let id = state.locked { () -> JSONRPCID in
      requestCounter += 1
      let id = JSONRPCID.string("ips-doctor-roots-\(requestCounter)")
      rootsRequest = id
      roots = .pending
      return id
    }
    send(JSONRPCOutgoing.request(id: id, method: "roots/list"))
  }

  private func receivedResponse(id: JSONRPCID, result: JSONValue?, error: JSONValue?) {
    let settled: Roots
    if let error {
      let message = error["message"]?.stringValue ?? "an error"
      settled = .unavailable("the client answered roots/list with \(message)")
    } else if let list = result?["roots"]?.arrayValue {
      var paths: [PathName] = []
      for root in list {
        guard let uri = root["uri"]?.stringValue, let path = MCPFileAccess.path(fromFileURI: uri) else {
          log("ignored a root that is not a local file: URI")
          continue
        }
        if let physical = POSIX.physicalPath(path) {
          paths.append(physical)
        } else {
          log("ignored the root \(TerminalText.escaped(path.display)): it does not exist")
        }
      }
      // A client that declares no root restricts nothing; one whose roots all vanished, everything.
      settled = list.isEmpty ? .none : .known(paths)
    } else {
      settled = .unavailable("the client's answer to roots/list has no roots list")
    }
    state.locked {
      guard id == rootsRequest else { return }
      rootsRequest = nil
      roots = settled
      state.broadcast(Self.rootsSettled)
    }
  }

  // MARK: Tool calls

  /// Runs queued tool calls until the input ended and the queue is empty (or, with `untilEmpty`,
  /// until the queue is empty: when no worker thread could be started).
  private func work(untilEmpty: Bool = false) {
    while true {
      let next = state.locked { () -> ToolCall? in
        while queue.isEmpty && !inputEnded && !untilEmpty { state.wait(Self.workArrived) }
        return queue.isEmpty ? nil : queue.removeFirst()
      }
      guard let call = next else { return }
      run(call)
    }
  }

  private func run(_ call: ToolCall) {
    defer {
      state.locked {
        active.remove(call.id)
        cancelled.remove(call.id)
      }
    }
    let isCancelled = { [self] in hasCancelled(call.id) }
    if isCancelled() { return }
    let access: MCPFileAccess
    switch MCPTools.readsFiles(call.name) ? waitForRoots() : .none {
    case .none: access = MCPFileAccess(workingDirectory: workingDirectory, roots: nil)
    case .known(let paths): access = MCPFileAccess(workingDirectory: workingDirectory, roots: paths)
    case .unavailable(let reason):
      respond(call, .failure(MCPToolFailure("no file can be read: the client declares roots, but \(reason)")))
      return
    case .pending:
      return  // waitForRoots returns only once they settled
    }
    let version = state.locked { protocolVersion ?? MCPProtocol.latest }
    var progress: ((Int, Int, String) -> Void)?
    if let token = call.progressToken, JSONRPCID(token) != nil {
      progress = { [self] done, total, message in
        send(
          JSONRPCOutgoing.notification(
            method: "notifications/progress",
            params: .object([
              "progressToken": token, "progress": .int(done), "total": .int(total), "message": .string(message),
            ])))
      }
    }
    let context = MCPToolContext(files: access, isCancelled: isCancelled, progress: progress, jobs: jobs)
    let result: Result<MCPToolResult, JSONRPCError>
    do throws(JSONRPCError) {
      result = .success(try MCPTools.call(name: call.name, arguments: call.arguments, context: context))
    } catch {
      result = .failure(error)
    }
    // A cancelled request gets no response (the client has forgotten it).
    if isCancelled() { return }
    switch result {
    case .success(let toolResult):
      send(JSONRPCOutgoing.result(id: call.id, toolResult.json(protocolVersion: version)))
    case .failure(let error):
      send(JSONRPCOutgoing.error(id: call.id, error))
    }
  }

  private func respond(_ call: ToolCall, _ result: MCPToolResult) {
    let version = state.locked { protocolVersion ?? MCPProtocol.latest }
    send(JSONRPCOutgoing.result(id: call.id, result.json(protocolVersion: version)))
  }

  /// The client's roots, once it answered `roots/list` (or the input ended).
  private func waitForRoots() -> Roots {
    state.locked {
      if runsInline && roots == .pending { return .unavailable("its roots/list answer has not arrived yet") }
      while roots == .pending { state.wait(Self.rootsSettled) }
      return roots
    }
  }

  /// Whether the client cancelled the tool call `id`, queued or running.
  func hasCancelled(_ id: JSONRPCID) -> Bool { state.locked { cancelled.contains(id) } }

  // MARK: Output

  func send(_ message: JSONValue) {
    let line = JSONRPCOutgoing.line(message)
    writing.locked {
      guard !hasOutputFailed else { return }
      if !write(line) {
        state.locked { outputFailed = true }
        log("standard output could not be written: stopping")
      }
    }
  }
}
