import Foundation
import Testing

/// Issue 36, class 2: causes hidden by the state filter, rebuilt as files from public reports and
/// run through the binary. The default state filter leaves out App Store Connect products that are
/// not for sale; a product another source has was then reported as missing from the store, its
/// cause unsaid. Now `store-state` names the product, its state and the cause Tally sees.
@Suite struct HeldByStateIncidentCLITests {
    /// hyochan/flutter_inapp_purchase#612 ("Could not parse product: missingValue"): subscriptions
    /// added through the App Store Connect API, in Ready to Submit, come back empty from StoreKit:
    /// `missingValue(for: [StoreKit.ProductResponse.Key.attributes, StoreKit.ProductResponse.Key.subscriptionGroupLevel], …)`
    /// for `plan_ux_fund_pkg_2`. The subscription has no level in its group.
    static func flutter(level: Int?) throws -> Scratch {
        let app = StoreKitFile(subscriptions: [.init(productID: "plan_ux_fund_pkg_2", period: "P1M", price: "9.99")])
        let store = ConnectPages(subscriptions: [.init(productID: "plan_ux_fund_pkg_2", state: "READY_TO_SUBMIT", period: "ONE_MONTH", level: level,
                                                       prices: [("USA", "9.99", "USD")])])
        return try Scratch(["Products.storekit": app.json, "snapshot/01-subscriptionGroups.json": store.json])
    }

    @Test func aSubscriptionWithNoLevelInReadyToSubmitIsReportedWithItsCauseNotAsMissing() throws {
        let folder = try Self.flutter(level: nil)
        defer { folder.remove() }
        let run = try folder.run(["check", "--no-config", "--format", "json", "Products.storekit", "snapshot"])
        #expect(run.status == 1, "\(run.stdout)\n\(run.stderr)")
        let report = try jsonReport(run)
        #expect(ruleProducts(report) == ["store-state plan_ux_fund_pkg_2"], "\(run.stdout)")
        let finding = try #require(findingRecords(report).first)
        #expect(finding["severity"] as? String == "error")
        let message = finding["message"] as? String ?? ""
        #expect(message.contains("plan_ux_fund_pkg_2 is in the configuration, but the App Store Connect snapshot holds it in Ready to Submit (READY_TO_SUBMIT), not for sale"), "\(message)")
        #expect(message.contains("no level in its subscription group"), "\(message)")
        #expect(!run.stdout.contains("missing-in-catalog"), "\(run.stdout)")
    }

    /// The report's own app: Dart code that asks for the subscription, beside the snapshot.
    @Test func theAppsCodeAskingForItIsToldTheCauseNotThatTheIDIsUnknown() throws {
        let code = """
        import 'package:flutter_inapp_purchase/flutter_inapp_purchase.dart';

        Future<void> loadPlans() async {
          await FlutterInappPurchase.instance.fetchProducts(skus: ['plan_ux_fund_pkg_2'], type: 'subs');
        }

        """
        for level in [nil, 1] as [Int?] {
            let folder = try Self.flutter(level: level)
            defer { folder.remove() }
            try folder.write("lib/store.dart", code)
            let run = try folder.run(["check", "--no-config", "--format", "json", "lib/store.dart", "snapshot"])
            #expect(run.status == (level == nil ? 1 : 0), "\(run.stdout)\n\(run.stderr)")
            let report = try jsonReport(run)
            #expect(ruleProducts(report) == ["store-state plan_ux_fund_pkg_2"], "\(run.stdout)")
            let message = firstMessage(report)
            #expect(message.hasPrefix("plan_ux_fund_pkg_2 is in the app's code, but the App Store Connect snapshot holds it in Ready to Submit (READY_TO_SUBMIT)"), "\(message)")
            #expect(message.contains("no level in its subscription group") == (level == nil), "\(message)")
        }
    }

    /// A paywall platform's package that shows the subscription: the same cause, not "not in snapshot".
    @Test func aPaywallShowingItIsToldTheCauseNotThatTheStoreLacksIt() throws {
        let store = ConnectPages(subscriptions: [
            .init(productID: "com.lumen.pro.monthly", state: "READY_TO_SUBMIT", period: "ONE_MONTH", level: nil),
            .init(productID: "com.lumen.pro.annual", level: 2),
        ])
        let folder = try Scratch(["snapshot/01-subscriptionGroups.json": store.json])
        defer { folder.remove() }
        try FileManager.default.copyItem(at: CLIRunner.repository.appendingPathComponent("examples/paywall/revenuecat"),
                                         to: folder.root.appendingPathComponent("revenuecat"))
        let run = try folder.run(["check", "--no-config", "--format", "json", "revenuecat", "snapshot"])
        #expect(run.status == 1, "\(run.stdout)\n\(run.stderr)")
        let findings = findingRecords(try jsonReport(run)).filter { $0["product"] as? String == "com.lumen.pro.monthly" }
        #expect(findings.map { $0["rule"] as? String ?? "" } == ["store-state"], "\(run.stdout)")
        let message = findings.first?["message"] as? String ?? ""
        #expect(message.hasPrefix("com.lumen.pro.monthly is in the RevenueCat project, but the App Store Connect snapshot holds it in Ready to Submit"), "\(message)")
        #expect(message.contains("no level in its subscription group"), "\(message)")
    }

    @Test func withEveryStateIncludedTheMissingLevelIsStillAFinding() throws {
        let folder = try Self.flutter(level: nil)
        defer { folder.remove() }
        let run = try folder.run(["check", "--no-config", "--format", "json", "--include-state", "ALL", "Products.storekit", "snapshot"])
        #expect(run.status == 1, "\(run.stdout)\n\(run.stderr)")
        let report = try jsonReport(run)
        #expect(ruleProducts(report) == ["subscription-without-level plan_ux_fund_pkg_2"], "\(run.stdout)")
        let message = findingRecords(report).first?["message"] as? String ?? ""
        #expect(message.contains("has no level in its subscription group") && message.contains("StoreKit cannot load it"), "\(message)")
    }

    @Test func theSnapshotAloneNamesTheSubscriptionAndItsCause() throws {
        let folder = try Self.flutter(level: nil)
        defer { folder.remove() }
        let run = try folder.run(["check", "--no-config", "--format", "json", "snapshot"])
        #expect(run.status == 1, "\(run.stdout)\n\(run.stderr)")
        let report = try jsonReport(run)
        #expect(ruleProducts(report) == ["store-state plan_ux_fund_pkg_2"], "\(run.stdout)")
        #expect(firstMessage(report).contains("no level in its subscription group"), "\(run.stdout)")
    }

    @Test func withItsLevelTheSameFilesPass() throws {
        let folder = try Self.flutter(level: 1)
        defer { folder.remove() }
        let run = try folder.run(["check", "--no-config", "--format", "json", "Products.storekit", "snapshot"])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        // Still not for sale: said, as a warning, and not as missing.
        let report = try jsonReport(run)
        #expect(ruleProducts(report) == ["store-state plan_ux_fund_pkg_2"], "\(run.stdout)")
        #expect(findingRecords(report).first?["severity"] as? String == "warning")
        #expect(firstMessage(report).contains("Tally sees no cause"), "\(run.stdout)")
        let all = try folder.run(["check", "--no-config", "--format", "json", "--include-state", "ALL", "Products.storekit", "snapshot"])
        #expect(all.status == 0, "\(all.stdout)\n\(all.stderr)")
        #expect(try ruleProducts(jsonReport(all)).isEmpty, "\(all.stdout)")
    }

    /// rorkai/App-Store-Connect-CLI#954 and #1747: a subscription stays in `MISSING_METADATA` while
    /// territories it is sold in, or that the team's price matrix holds, have no price; the
    /// default filter left it out and the app's configuration reported it missing from the store.
    static func missingMetadata(fixed: Bool) throws -> Scratch {
        let app = StoreKitFile(subscriptions: [.init(productID: "com.example.premium.annual")])
        let premium = fixed
            ? ConnectPages.Subscription(productID: "com.example.premium.annual", prices: [("USA", "59.99", "USD"), ("CAN", "79.99", "CAD"), ("GBR", "59.99", "GBP")],
                                        sold: ["USA", "CAN"])
            : ConnectPages.Subscription(productID: "com.example.premium.annual", state: "MISSING_METADATA", prices: [("USA", "59.99", "USD")],
                                        sold: ["USA", "CAN"], locales: [])
        return try Scratch(["Products.storekit": app.json, "snapshot/01-subscriptionGroups.json": ConnectPages(subscriptions: [premium]).json,
                            "tally.yml": "version: 1\nrequired_territories: [USA, GBR]\n"])
    }

    @Test func aSubscriptionInMissingMetadataIsReportedWithItsCausesNotAsMissing() throws {
        let folder = try Self.missingMetadata(fixed: false)
        defer { folder.remove() }
        let run = try folder.run(["check", "--config", "tally.yml", "--format", "json", "Products.storekit", "snapshot"])
        #expect(run.status == 1, "\(run.stdout)\n\(run.stderr)")
        let report = try jsonReport(run)
        #expect(ruleProducts(report) == ["store-state com.example.premium.annual"], "\(run.stdout)")
        let finding = try #require(findingRecords(report).first)
        #expect(finding["severity"] as? String == "error")
        let message = finding["message"] as? String ?? ""
        for cause in ["holds it in Missing Metadata (MISSING_METADATA)", "no price in CAN, where it is sold", "no price in GBR, which the policy requires",
                      "no localization at all"] {
            #expect(message.contains(cause), "\(cause) in \(message)")
        }
    }

    @Test func pricedAndDescribedTheSameSubscriptionPasses() throws {
        let folder = try Self.missingMetadata(fixed: true)
        defer { folder.remove() }
        let run = try folder.run(["check", "--config", "tally.yml", "--format", "json", "Products.storekit", "snapshot"])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(try ruleProducts(jsonReport(run)).isEmpty, "\(run.stdout)")
    }

    /// A product the state filter drops for good (taken off sale) is still reported missing.
    @Test func aProductTakenOffSaleIsStillMissing() throws {
        let app = StoreKitFile(subscriptions: [.init(productID: "com.example.premium.annual")])
        let store = ConnectPages(subscriptions: [.init(productID: "com.example.premium.annual", state: "DEVELOPER_REMOVED_FROM_SALE")])
        let folder = try Scratch(["Products.storekit": app.json, "snapshot/01-subscriptionGroups.json": store.json])
        defer { folder.remove() }
        let run = try folder.run(["check", "--no-config", "--format", "json", "Products.storekit", "snapshot"])
        #expect(run.status == 1, "\(run.stdout)\n\(run.stderr)")
        #expect(try ruleProducts(jsonReport(run)) == ["missing-in-catalog com.example.premium.annual"], "\(run.stdout)")
    }
}
