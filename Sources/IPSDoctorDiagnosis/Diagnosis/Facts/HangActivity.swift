import IPSDoctorReport
import IPSDoctorSupport

/// What a hung main thread was doing, read from the frames above the app's code (the top of the
/// stack down to the first app frame): waiting (on a lock, a semaphore or a synchronous dispatch,
/// on file I/O, on another process) or busy running code.
///
/// Named functions decide, the one nearest the app's code first; without names, a top frame in the kernel's library means a wait in a
/// system call (on what is not known), and a top frame anywhere else means running code.
struct HangActivity {
  enum Kind: Equatable {
    case lock
    case semaphore
    case synchronousDispatch
    case fileIO
    case interprocess
    /// In a system call, the function not named.
    case systemCall
    /// Back in the run loop's wait for events.
    case idle
    case busy
    case unknown
  }

  var kind: Kind
  /// The frame (index into the stack) that shows it.
  var frameIndex: Int?

  static let lockFunctions: Set<String> = [
    "__psynch_mutexwait", "pthread_mutex_lock", "_pthread_mutex_firstfit_lock_slow", "os_unfair_lock_lock",
    "_os_unfair_lock_lock_slow", "__ulock_wait", "__ulock_wait2", "objc_sync_enter", "__psynch_rw_rdlock",
    "__psynch_rw_wrlock", "-[NSLock lock]", "-[NSRecursiveLock lock]",
  ]
  static let semaphoreFunctions: Set<String> = [
    "semaphore_wait_trap", "semaphore_timedwait_trap", "_dispatch_sema4_wait", "_dispatch_sema4_timedwait",
    "dispatch_semaphore_wait", "_dispatch_semaphore_wait_slow", "dispatch_group_wait", "_dispatch_group_wait_slow",
    "__psynch_cvwait", "_pthread_cond_wait", "pthread_cond_wait", "-[NSCondition wait]",
    "-[NSConditionLock lockWhenCondition:]",
  ]
  static let dispatchFunctions: Set<String> = [
    "_dispatch_sync_f_slow", "__DISPATCH_WAIT_FOR_QUEUE__", "_dispatch_sync_wait", "dispatch_sync",
    "dispatch_sync_f", "_dispatch_barrier_sync_f_slow", "_dispatch_sync_block_with_privdata",
  ]
  static let fileFunctions: Set<String> = [
    "read", "__read_nocancel", "pread", "__pread_nocancel", "write", "__write_nocancel", "pwrite", "open",
    "__open", "__open_nocancel", "openat", "__openat_nocancel", "close", "__close_nocancel", "fsync", "fcntl",
    "__fcntl", "stat", "stat64", "lstat", "fstat", "getattrlist", "getattrlistbulk", "__getdirentries64",
    "unlink", "rename", "mkdir", "fsetxattr", "fgetxattr", "getxattr", "setxattr", "__mmap",
  ]
  static let interprocessFunctions: Set<String> = [
    "xpc_connection_send_message_with_reply_sync", "_xpc_connection_send_message_with_reply_sync",
    "dispatch_mach_send_with_result_and_wait_for_reply", "_dispatch_mach_send_and_wait_for_reply",
  ]
  /// The run loop's own wait: a main thread sampled here was idle, not hung, at that instant.
  static let runLoopWait: Set<String> = ["__CFRunLoopServiceMachPort", "CFRunLoopRunSpecific"]

  init(_ frames: ArraySlice<Frame>, _ context: borrowing DiagnosisContext) {
    kind = .unknown
    var sawMachMessage: Int?
    for index in frames.indices {
      guard let name = context.displayName(frames[index]) else { continue }
      let found: Kind?
      if Self.lockFunctions.contains(name) {
        found = .lock
      } else if Self.dispatchFunctions.contains(name) {
        found = .synchronousDispatch
      } else if Self.interprocessFunctions.contains(name) {
        found = .interprocess
      } else if Self.semaphoreFunctions.contains(name) {
        found = .semaphore
      } else if Self.fileFunctions.contains(name) {
        found = .fileIO
      } else if name == "mach_msg_trap" || name == "mach_msg2_trap" || name == "mach_msg" {
        sawMachMessage = sawMachMessage ?? index
        found = nil
      } else if Self.runLoopWait.contains(name) {
        // The run loop waiting for its next event: the stack was taken when the main thread
        // was idle again, and shows nothing of what blocked it.
        kind = .idle
        frameIndex = index
        return
      } else {
        found = nil
      }
      if let found {
        // The named frame nearest the app's code wins: it is the call the app made (a lock
        // taken inside `dispatch_sync` is the dispatch's wait).
        kind = found
        frameIndex = index
      }
    }
    if kind == .unknown, let index = sawMachMessage {
      kind = .interprocess
      frameIndex = index
    }
    guard kind == .unknown, let top = frames.first else { return }
    frameIndex = frames.startIndex
    if context.isAppFrame(top) {
      kind = .busy
    } else if top.imageName == "libsystem_kernel.dylib" {
      kind = .systemCall
    } else if top.imageName != nil || context.displayName(top) != nil {
      kind = .busy
    }
  }

  /// One sentence on what the top frames show, naming `thread` ("the main thread").
  func sentence(on thread: String, top: Evidence) -> String {
    let quoted = DiagnosisContext.quote(top)
    switch kind {
    case .lock: return "At that time \(thread) was waiting for a lock (top frame \(quoted))."
    case .semaphore:
      return "At that time \(thread) was waiting on a semaphore, group or condition (top frame \(quoted))."
    case .synchronousDispatch:
      return
        "At that time \(thread) was waiting for a synchronous dispatch to another queue to finish (top frame \(quoted))."
    case .fileIO: return "At that time \(thread) was waiting for file I/O (top frame \(quoted))."
    case .interprocess:
      return "At that time \(thread) was waiting for a reply from another process (top frame \(quoted))."
    case .systemCall:
      return
        "At that time \(thread) was blocked in a system call (top frame \(quoted)): waiting — on a lock, a semaphore, a synchronous dispatch, I/O or another process; the kernel's frames carry no names here to say which."
    case .busy: return "At that time \(thread) was busy running code (top frame \(quoted)), not waiting."
    case .idle:
      return
        "When the stack was taken \(thread) was idle in its run loop again (top frame \(quoted)): the stack shows the code around the hang, not the call that blocked."
    case .unknown: return "The top frame (\(quoted)) does not say whether \(thread) was busy or waiting."
    }
  }

  /// What to do about it, as a sentence that starts with a space.
  var advice: String {
    switch kind {
    case .lock, .semaphore, .synchronousDispatch:
      " Do not wait on the main thread for work on other threads: hand the result back asynchronously instead."
    case .fileIO: " Read and write files off the main thread."
    case .interprocess: " Make the call to the other process asynchronous, off the main thread."
    case .systemCall: " Do not wait on the main thread: move the waiting (or the work waited for) off it."
    case .busy: " Move that work off the main thread, or do less of it there."
    case .idle, .unknown: ""
    }
  }
}
