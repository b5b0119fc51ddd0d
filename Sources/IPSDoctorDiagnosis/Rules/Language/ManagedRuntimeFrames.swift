import IPSDoctorSupport

/// Finding a marker frame of a managed runtime (React Native, Mono/.NET) near the top of the
/// exception backtrace or the crashed thread, where its unhandled-error path raises or aborts.
enum ManagedRuntimeFrames {
  /// The first frame among the top `depth` of the last exception backtrace, then of the crashed
  /// thread, whose symbol contains one of `markers`. Every marker contains one of `family`, so a
  /// backtrace whose top symbols hold none of `family` holds none of `markers`.
  static func find(
    _ markers: [String], family: MarkerSet, in context: DiagnosisContext, depth: Int = 16
  ) -> Evidence? {
    context.firstResult(inBacktraces: { backtrace -> Evidence? in
      if let text = backtrace.symbolText, text.firstFrame(containingAny: family, before: depth) == nil {
        return nil
      }
      for marker in markers {
        if let index = context.firstFrameIndex(in: backtrace, containing: marker), index < depth {
          return context.frameEvidence(backtrace, index)
        }
      }
      return nil
    })
  }
}
