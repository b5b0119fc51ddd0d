import IPSDoctorSupport

extension AsyncBridgeCompletionOffMainRule {
  enum Examples {
    /// A minimal founding-case report: UIKit's snapshot assertion under `appFrame` on `queue`.
    static func report(
      appSymbol: String?, queue: String = "com.apple.root.user-initiated-qos.cooperative",
      reason: String? = "Call must be made on main thread", concurrencyFrames: Bool = true,
      handlerSymbol: String = "-[NSAssertionHandler handleFailureInMethod:object:file:lineNumber:description:]",
      assertingSymbol: String = "-[UIApplication _performBlockAfterCATransactionCommitSynchronizes:]"
    ) -> String {
      let symbol = appSymbol.map { #","symbol":"\#($0)""# } ?? ""
      let reasonJSON =
        reason.map {
          #""exceptionReason":{"name":"NSInternalInconsistencyException","type":"objc-exception","#
            + #""class":"NSException","composed_message":"\#($0)"},"#
        } ?? ""
      let runtime =
        concurrencyFrames
        ? #",{"imageIndex":3,"imageOffset":2000,"symbol":"completeTaskWithClosure(swift::AsyncContext*, swift::SwiftError*)","symbolLocation":1}"#
        : #",{"imageIndex":4,"imageOffset":3000,"symbol":"_dispatch_call_block_and_release","symbolLocation":32}"#
      let backtrace = """
        [{"imageIndex":1,"imageOffset":100,"symbol":"__exceptionPreprocess","symbolLocation":164},
        {"imageIndex":1,"imageOffset":200,"symbol":"objc_exception_throw","symbolLocation":60},
        {"imageIndex":2,"imageOffset":300,"symbol":"\(handlerSymbol)","symbolLocation":288},
        {"imageIndex":5,"imageOffset":400,"symbol":"\(assertingSymbol)","symbolLocation":404},
        {"imageIndex":5,"imageOffset":500,"symbol":"-[UIApplication _updateSnapshotAndStateRestorationWithAction:windowScene:]","symbolLocation":136},
        {"imageIndex":0,"imageOffset":81920\(symbol)}\(runtime)]
        """
      return ExampleReport.ips(
        """
        {"exception":{"type":"EXC_CRASH","signal":"SIGABRT"},\(reasonJSON)
         "asi":{"libsystem_c.dylib":["abort() called"]},
         "faultingThread":1,
         "threads":[{"id":1,"queue":"com.apple.main-thread","frames":[]},
                    {"id":2,"triggered":true,"queue":"\(queue)","frames":[{"imageIndex":6,"imageOffset":10,"symbol":"__pthread_kill"}]}],
         "lastExceptionBacktrace":\(backtrace),
         "usedImages":[\(ExampleReport.appImage),\(ExampleReport.systemImage("CoreFoundation")),
           \(ExampleReport.systemImage("Foundation")),\(ExampleReport.systemImage("libswift_Concurrency.dylib")),
           \(ExampleReport.systemImage("libdispatch.dylib")),\(ExampleReport.systemImage("UIKitCore")),
           \(ExampleReport.systemImage("libsystem_kernel.dylib"))]}
        """)
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
