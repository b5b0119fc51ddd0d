import IPSDoctorSupport

/// Finding a marker frame of a managed runtime (React Native, Mono/.NET) near the top of the
/// exception backtrace or the crashed thread, where its unhandled-error path raises or aborts.
enum ManagedRuntimeFrames {
  /// The first frame among the top `depth` of the last exception backtrace, then of the crashed
  /// thread, that holds the first of `markers` (in their order) found there.
  static func find(_ markers: MarkerSet, in context: DiagnosisContext, depth: Int = 16) -> Evidence? {
    context.firstResult(inBacktraces: { backtrace -> Evidence? in
      context.firstFrameIndex(in: backtrace, before: depth, containingFirstOf: markers).map {
        context.frameEvidence(backtrace, $0)
      }
    })
  }
}
