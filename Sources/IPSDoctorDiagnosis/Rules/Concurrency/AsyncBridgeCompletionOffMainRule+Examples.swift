import IPSDoctorSupport

extension AsyncBridgeCompletionOffMainRule {
  enum Examples {
    /// A minimal founding-case report: UIKit's snapshot assertion under `appSymbol` on `queue`.
    static func report(
      appSymbol: String?, queue: String = "com.apple.root.user-initiated-qos.cooperative",
      reason: String? = "Call must be made on main thread", concurrencyFrames: Bool = true,
      handlerSymbol: String = "-[NSAssertionHandler handleFailureInMethod:object:file:lineNumber:description:]",
      assertingSymbol: String = "-[UIApplication _performBlockAfterCATransactionCommitSynchronizes:]"
    ) -> ExampleReport {
      let runtime: ExampleReport.Frame =
        concurrencyFrames
        ? .frame(.libswiftConcurrency, "completeTaskWithClosure(swift::AsyncContext*, swift::SwiftError*)")
        : .frame(.libdispatch, "_dispatch_call_block_and_release")
      return ExampleReport(
        exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
        asi: ["libsystem_c.dylib": ["abort() called"]],
        languageException: reason.map { .objc("NSInternalInconsistencyException", reason: $0) },
        lastExceptionBacktrace: [
          .frame(.coreFoundation, "__exceptionPreprocess"), .frame(.coreFoundation, "objc_exception_throw"),
          .frame(.foundation, handlerSymbol), .frame(.uiKit, assertingSymbol),
          .frame(.uiKit, "-[UIApplication _updateSnapshotAndStateRestorationWithAction:windowScene:]"),
          .frame(.app, appSymbol, offset: 81_920), runtime,
        ],
        threads: [.main([]), ExampleReport.Thread(queue: queue, [.frame(.libsystemKernel, "__pthread_kill")])],
        crashedThread: 1)
    }

    static let all: [RuleExample] = [
      .triggers(
        "didReceive bridge with Apple's simplified symbol",
        report(appSymbol: "@objc closure #1 in PushNotificationDelegate.userNotificationCenter(_:didReceive:)"),
        .definite,
        summaryContains: [
          "PushNotificationDelegate.userNotificationCenter(_:didReceive:)",
          "UNUserNotificationCenterDelegate",
          "userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:",
          "lastExceptionBacktrace[5]",
        ]),
      .triggers(
        "willPresent bridge with the full demangled symbol",
        report(
          appSymbol:
            "(1) await resume partial function for @objc closure #1 () async -> () in Example.Router.userNotificationCenter(_: __C.UNUserNotificationCenter, willPresent: __C.UNNotification) async -> __C.UNNotificationPresentationOptions"
        ),
        .definite, summaryContains: ["Router.userNotificationCenter(_:willPresent:)"]),
      .triggers(
        "mangled bridge symbol",
        report(
          appSymbol:
            "$s7Example24PushNotificationDelegateC22userNotificationCenter_10didReceiveySo06UNUsercD0C_So14UNNotificationResponseCtYaFyyYacfU_ToTQ0_"
        ),
        .definite),
      .triggers(
        "reason only, bridge symbol present",
        report(
          appSymbol: "@objc closure #1 in AppDelegate.application(_:didReceiveRemoteNotification:)"),
        .definite, summaryContains: ["application:didReceiveRemoteNotification:fetchCompletionHandler:"]),
      .triggers(
        "unsymbolicated app frame under UIKit on the cooperative pool",
        report(appSymbol: nil), .likely, summaryContains: ["Symbolicate"]),
      .triggers(
        "simulator: no reason, the assertion handler unnamed in Foundation under the throw",
        report(
          appSymbol: "@objc closure #1 in InboxRouter.userNotificationCenter(_:didReceive:)", reason: nil,
          handlerSymbol: "_userInfoForFileAndLine"),
        .likely, summaryContains: ["InboxRouter.userNotificationCenter(_:didReceive:)"]),
      .ignores(
        "a Foundation frame under the throw over a UIKit call that does not assert the main thread",
        report(
          appSymbol: "@objc closure #1 in InboxRouter.userNotificationCenter(_:didReceive:)", reason: nil,
          handlerSymbol: "_userInfoForFileAndLine", assertingSymbol: "-[UITableView endUpdates]")),
      .ignores(
        "ordinary GCD closure calls the handler off main",
        report(
          appSymbol: "closure #1 in NotificationService.handle(response:completion:)",
          queue: "com.apple.root.default-qos", concurrencyFrames: false)),
      .ignores(
        "unsymbolicated caller on a plain GCD queue",
        report(appSymbol: nil, queue: "com.apple.root.default-qos", concurrencyFrames: false)),
    ]
  }
}
