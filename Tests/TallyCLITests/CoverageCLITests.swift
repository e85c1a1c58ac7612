import Foundation
import Testing

/// Issue 48: no green verdict where Tally did not look. Every product of every source and every
/// request of a code source is compared with another source or named, with why, under
/// `not compared:` (text) and in `coverage` (JSON); a check of two or more sources that compares
/// nothing exits 3; a product the store holds aside by state is compared all the same.
@Suite(.timeLimit(.minutes(10)))
struct CoverageCLITests {
    static func copy(_ files: [String: String] = [:]) throws -> URL {
        let folder = try CLIRunner.exampleCopy()
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return folder
    }

    static func coverage(_ output: CLIRunner.Output) throws -> [String: Any] {
        try #require(try jsonReport(output)["coverage"] as? [String: Any], "\(output.stdout.prefix(400))")
    }

    static func count(_ coverage: [String: Any], _ key: String) -> (total: Int, compared: Int, notCompared: Int) {
        let part = coverage[key] as? [String: Any] ?? [:]
        return (part["total"] as? Int ?? -1, part["compared"] as? Int ?? -1, part["not_compared"] as? Int ?? -1)
    }

    /// A Swift file that asks for nothing beside a catalogue with no products: nothing compared.
    @Test func anEmptyComparisonIsNotGreen() throws {
        let folder = try Self.copy(["A.swift": "import Foundation\nlet x = 1\n", "empty.yaml": "format: tally-catalog/1\nproducts: []\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLIRunner.run(["check", "--no-config", "A.swift", "empty.yaml"], in: folder)
        #expect(run.status == 3, "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("✘ nothing compared"), "\(run.stdout)")
        #expect(!run.stdout.contains("✔"), "\(run.stdout)")
        #expect(run.stdout.contains("asks for no product ID Tally can read (1 file read)"), "not 'in 0 files': \(run.stdout)")
    }

    /// Two sources with no product in common and the presence rules off: 3, with the reason.
    @Test func twoSourcesSharingNoProductEndWithTheReason() throws {
        let catalogue = "format: tally-catalog/1\nproducts:\n  - id: com.other.app.pro\n    kind: non-consumable\n    prices: {USA: \"1.99\"}\n"
        let folder = try Self.copy(["other.yaml": catalogue,
                                    "quiet.yml": "version: 1\nrules:\n  missing-in-catalog: off\n  missing-in-config: off\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLIRunner.run(["check", "--config", "quiet.yml", "configs/ExampleApp.storekit", "other.yaml"], in: folder)
        #expect(run.status == 3, "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("nothing compared: no product of the 2 sources was compared with another source (16 products, none in common)"), "\(run.stdout)")
        #expect(run.stdout.contains("not compared: 16 of 16 products"), "\(run.stdout)")
        // One source alone stays a lint, 0 or 1 by its findings.
        let alone = try CLIRunner.run(["check", "--no-config", "configs/ExampleApp.storekit"], in: folder)
        #expect(alone.status == 0, "\(alone.stdout)")
        // --help says what 3 means.
        let help = try CLIRunner.run(["check", "--help"], in: folder)
        #expect(help.stdout.contains("3 nothing compared"), "\(help.stdout)")
    }

    /// The shipped examples: a coverage object whose counts add up to the run's products.
    @Test func theCoverageOfTheShippedExamplesAddsUp() throws {
        let run = try CLIRunner.run(["check", "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let coverage = try Self.coverage(run)
        let products = Self.count(coverage, "products"), requests = Self.count(coverage, "code_requests")
        // Every product of every source: 15 in the .storekit file, 15 in the catalogue.
        let shown = try CLIRunner.run(["show", "--format", "json", "configs/ExampleApp.storekit"]).stdout
        let perSource = try #require(try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])["products"] as? [Any]
        #expect(products.total == 2 * (perSource?.count ?? 0), "\(coverage)")
        #expect(products.compared + products.notCompared == products.total)
        #expect(requests.compared + requests.notCompared == requests.total)
        #expect((coverage["not_compared"] as? [Any])?.count == products.notCompared + requests.notCompared)
        #expect(coverage["complete"] as? Bool == true && coverage["compared_anything"] as? Bool == true)
        // The next release's catalogue drops a product: it is named, with why, and the sums hold.
        let next = try CLIRunner.run(["check", "--no-config", "--format", "json", "configs/ExampleApp.storekit", "examples/next-release/products.yaml"])
        let nextCoverage = try Self.coverage(next)
        let counted = Self.count(nextCoverage, "products")
        #expect(counted.total == 29 && counted.compared == 28 && counted.notCompared == 1, "\(nextCoverage)")
        let item = try #require((nextCoverage["not_compared"] as? [[String: Any]])?.first)
        #expect(item["product"] as? String == "com.calmly.app.tip.tea" && item["reason"] as? String == "only-in-this-source", "\(item)")
        let text = try CLIRunner.run(["check", "--no-config", "configs/ExampleApp.storekit", "examples/next-release/products.yaml"])
        #expect(text.stdout.contains("not compared: 1 of 29 products\n  1 only in its source: com.calmly.app.tip.tea (configs/ExampleApp.storekit:66)"), "\(text.stdout)")
    }

    /// `require_compared: all`: a product left uncompared fails the gate (3), named.
    @Test func requireComparedAllFailsOnAnyProductLeftOut() throws {
        let off = "rules:\n  missing-in-catalog: off\n  missing-in-config: off\n  renamed-product: off\n"
        let folder = try Self.copy(["all.yml": "version: 1\nrequire_compared: all\n" + off, "some.yml": "version: 1\n" + off])
        defer { try? FileManager.default.removeItem(at: folder) }
        try CLIRunner.edit(folder.appendingPathComponent("catalog/products.yaml"), replacing: "- id: com.calmly.app.tip.tea", with: "- id: com.calmly.app.tip.coffee")
        let some = try CLIRunner.run(["check", "--config", "some.yml", "configs/ExampleApp.storekit", "catalog/products.yaml"], in: folder)
        #expect(some.status == 0, "\(some.stdout)")
        #expect(some.stdout.contains("com.calmly.app.tip.tea"), "named though the gate passes: \(some.stdout)")
        let all = try CLIRunner.run(["check", "--config", "all.yml", "configs/ExampleApp.storekit", "catalog/products.yaml"], in: folder)
        #expect(all.status == 3, "\(all.stdout)")
        #expect(all.stdout.contains("✘ require_compared: all, and 2 of 30 products and code requests were not compared"), "\(all.stdout)")
        let junit = try CLIRunner.run(["check", "--config", "all.yml", "--format", "junit", "configs/ExampleApp.storekit", "catalog/products.yaml"], in: folder)
        #expect(junit.stdout.contains(#"<testsuite name="coverage" tests="1" failures="1""#), "\(junit.stdout)")
        #expect(junit.stdout.contains(#"<property name="coverage.products.compared" value="28"/>"#), "\(junit.stdout)")
        let bad = try CLIRunner.run(["check", "--config", "bad.yml", "configs/ExampleApp.storekit"], in: folder)
        #expect(bad.status == 2)
    }

    /// The state filter no longer hides values: a subscription in review priced differently, and a
    /// lifetime product App Store Connect holds as a non-renewing subscription, Waiting for Review.
    @Test func productsTheStateFilterSetsAsideAreCompared() throws {
        let folder = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let snapshot = folder.appendingPathComponent("asc")
        try FileManager.default.copyItem(at: CLIRunner.repository.appendingPathComponent("Tests/TallyCLITests/Fixtures/app-store-connect/calmly"), to: snapshot)
        try CLIRunner.edit(snapshot.appendingPathComponent("01-inAppPurchasesV2-page1.json"),
                           replacing: "\"productId\": \"com.calmly.app.sessions.20\",\n        \"inAppPurchaseType\": \"CONSUMABLE\",\n        \"state\": \"APPROVED\",",
                           with: "\"productId\": \"com.calmly.app.sessions.20\",\n        \"inAppPurchaseType\": \"CONSUMABLE\",\n        \"state\": \"WAITING_FOR_REVIEW\",")
        let prices = snapshot.appendingPathComponent("03-iap-prices-sessions-20.json")
        var text = try String(contentsOf: prices, encoding: .utf8)
        let range = try #require(text.range(of: "\"customerPrice\": \"5.99\""))
        text.replaceSubrange(range, with: "\"customerPrice\": \"6.49\"")
        try text.write(to: prices, atomically: true, encoding: .utf8)
        let page2 = snapshot.appendingPathComponent("02-inAppPurchasesV2-page2.json")
        var second = try String(contentsOf: page2, encoding: .utf8)
        let lifetime = try #require(second.range(of: "\"productId\": \"com.calmly.app.lifetime\""))
        let kind = try #require(second.range(of: "\"inAppPurchaseType\": \"NON_CONSUMABLE\"", range: lifetime.upperBound..<second.endIndex))
        second.replaceSubrange(kind, with: "\"inAppPurchaseType\": \"NON_RENEWING_SUBSCRIPTION\"")
        let state = try #require(second.range(of: "\"state\": \"APPROVED\"", range: lifetime.upperBound..<second.endIndex))
        second.replaceSubrange(state, with: "\"state\": \"WAITING_FOR_REVIEW\"")
        try second.write(to: page2, atomically: true, encoding: .utf8)

        let run = try CLIRunner.run(["check", "--no-config", "--format", "json", "configs/ExampleApp.storekit", "asc"], in: folder)
        #expect(run.status == 1, "\(run.stdout) \(run.stderr)")
        let findings = findingRecords(try jsonReport(run))
        let price = try #require(findings.first { $0["rule"] as? String == "price" && $0["product"] as? String == "com.calmly.app.sessions.20" }, "\(findings)")
        #expect((price["hint"] as? String)?.contains("holds it as Waiting for Review (WAITING_FOR_REVIEW)") == true, "\(price)")
        let kindFinding = try #require(findings.first { $0["rule"] as? String == "kind" && $0["product"] as? String == "com.calmly.app.lifetime" }, "\(findings)")
        #expect((kindFinding["hint"] as? String)?.contains("Waiting for Review") == true, "\(kindFinding)")
        // store-state still says they are not for sale yet.
        #expect(findings.filter { $0["rule"] as? String == "store-state" }.compactMap { $0["product"] as? String }.sorted()
                == ["com.calmly.app.lifetime", "com.calmly.app.sessions.20"], "\(findings)")
    }

    /// Issue 49: an ID asked of a store the run has no source for is counted as not compared,
    /// never `code-unknown-product` (a Flutter set of both stores' IDs beside the .storekit alone).
    @Test func aPlayIDAskedBesideTheAppStoreAloneIsNotCompared() throws {
        let dart = """
            import 'package:in_app_purchase/in_app_purchase.dart';

            const Set<String> _kIds = <String>{'com.calmly.app.lifetime', 'calmly_lifetime_play'};

            Future<void> load() async {
              final ProductDetailsResponse response = await InAppPurchase.instance.queryProductDetails(_kIds);
              print(response.productDetails);
            }

            """
        let folder = try Self.copy(["lib/store.dart": dart])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLIRunner.run(["check", "--no-config", "--format", "json", "configs/ExampleApp.storekit", "lib/store.dart"], in: folder)
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        let findings = findingRecords(try jsonReport(run))
        #expect(!findings.contains { $0["rule"] as? String == "code-unknown-product" }, "\(findings)")
        let items = try Self.coverage(run)["not_compared"] as? [[String: Any]] ?? []
        let play = try #require(items.first { $0["product"] as? String == "calmly_lifetime_play" }, "\(items)")
        #expect(play["reason"] as? String == "no-source-of-its-store" && play["detail"] as? String == "Google Play", "\(play)")
    }

    /// A real app layout (podverse, React Native: its purchase calls build their IDs at run time)
    /// beside a StoreKit file: nothing compared, and each call named.
    @Test(.enabled(if: CLIRunner.sharedAvailable, "../shared/fixtures/realworld is absent"))
    func aRealAppWhoseIDsAreBuiltAtRunTimeNamesWhatItDidNotCompare() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-podverse-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: CLIRunner.shared.appendingPathComponent("fixtures/realworld/apps/podverse-react-native"), to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: CLIRunner.repository.appendingPathComponent("configs/ExampleApp.storekit"), to: folder.appendingPathComponent("Products.storekit"))
        let run = try CLIRunner.run(["check", "--no-config", "Products.storekit", "src/services/purchaseShared.ts"], in: folder)
        #expect(run.status == 3, "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("IDs not known before run time: a call (src/services/purchaseShared.ts:30)"), "\(run.stdout)")
        #expect(run.stdout.contains("✘ nothing compared"), "\(run.stdout)")
    }
}

/// Issue 48, item 4: territories that never meet are a finding on the product, not only a
/// source-level `prices-not-compared`; a store record priced in one territory beside a catalogue
/// priced in many is named.
@Suite struct TerritoriesPerProductCLITests {
    static func play(_ regions: [(String, String, String)]) -> String {
        let configs = regions.map { #"{"regionCode": "\#($0.0)", "newSubscriberAvailability": true, "price": {"currencyCode": "\#($0.1)", "units": "\#($0.2)", "nanos": 0}}"# }
        return #"{"subscriptions": [{"packageName": "com.example.brightly", "productId": "premium", "basePlans": [{"basePlanId": "monthly", "state": "ACTIVE", "regionalConfigs": [\#(configs.joined(separator: ", "))], "autoRenewingBasePlanType": {"billingPeriodDuration": "P1M"}}]}]}"#
    }

    static func catalogue(_ prices: String) -> String {
        "format: tally-catalog/1\nsubscription_groups:\n  - id: premium\n    subscriptions:\n      - id: com.example.premium.monthly\n        period: P1M\n        level: 1\n        prices: {\(prices)}\n        google_play: premium:monthly\n"
    }

    static func run(catalogue prices: String, play regions: [(String, String, String)], policy: String? = nil) throws -> (CLIRunner.Output, [[String: Any]]) {
        var files = ["catalog.yaml": catalogue(prices), "play/01-subscriptions.json": play(regions)]
        if let policy { files["tally.yml"] = policy }
        let folder = try CoverageCLITests.copy(files)
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = ["check", "--format", "json"] + (policy == nil ? ["--no-config"] : ["--config", "tally.yml"]) + ["catalog.yaml", "play"]
        let run = try CLIRunner.run(arguments, in: folder)
        return (run, findingRecords(try jsonReport(run)).filter { $0["rule"] as? String == "priced-territories" })
    }

    @Test func usdForTheUSABesideINRForIndiaIsAFindingOnTheProduct() throws {
        let (run, findings) = try Self.run(catalogue: #"USA: "4.99""#, play: [("IN", "INR", "399")])
        let finding = try #require(findings.first, "\(run.stdout)")
        #expect(finding["product"] as? String == "premium:monthly" && finding["severity"] as? String == "warning", "\(finding)")
        #expect((finding["message"] as? String)?.contains("priced in IND in Google Play but not in the catalogue, and in USA in the catalogue but not in Google Play") == true, "\(finding)")
        // Where the policy requires the territory, an error.
        let (required, strict) = try Self.run(catalogue: #"USA: "4.99""#, play: [("IN", "INR", "399")], policy: "version: 1\nrequired_territories: [USA]\n")
        #expect(required.status == 1 && strict.first?["severity"] as? String == "error", "\(required.stdout)")
    }

    @Test func aLaunchInAustraliaAndNewZealandPricedInPoundsIsNamed() throws {
        let (_, findings) = try Self.run(catalogue: #"GBR: "3.99""#, play: [("AU", "AUD", "7"), ("NZ", "NZD", "8")])
        let message = try #require(findings.first?["message"] as? String)
        #expect(message.contains("AUS, NZL") && message.contains("GBR"), "\(message)")
    }

    @Test func aStoreRecordPricedInOneTerritoryBesideACatalogueThatPricesManyIsNamed() throws {
        let (run, findings) = try Self.run(catalogue: #"USA: "4.99", GBR: "4.49", DEU: "4.99", JPN: "700""#, play: [("US", "USD", "5")])
        let message = try #require(findings.first?["message"] as? String, "\(run.stdout)")
        #expect(message.contains("priced in GBR, DEU, JPN in the catalogue but not in Google Play"), "\(message)")
    }
}

/// Issue 48, item 3: a RevenueCat v2 product list saved without its apps (the store of each
/// product unknown) beside RevenueCat's own PaywallsTester StoreKit file: the product both have is
/// compared on its ID, the one RevenueCat alone has (`six_month`) is named, and the two compared
/// lines agree.
@Suite struct RevenueCatListWithoutAppsCLITests {
    static let products = """
        {"object": "list", "next_page": null, "url": "/v2/projects/proj1a2b3c/products", "items": [
          {"object": "product", "id": "prod1", "store_identifier": "com.revenuecat.simpleapp.lifetime", "type": "one_time", "app_id": "app1a2b3c",
           "display_name": "Lifetime", "state": "active", "created_at": 1700000000000, "one_time": {"is_consumable": false}, "subscription": null},
          {"object": "product", "id": "prod2", "store_identifier": "com.revenuecat.simpleapp.six_month", "type": "subscription", "app_id": "app1a2b3c",
           "display_name": "Six months", "state": "active", "created_at": 1700000000000, "one_time": null,
           "subscription": {"duration": "P6M", "grace_period_duration": null, "trial_duration": null}}
        ]}
        """

    @Test(.enabled(if: CLIRunner.sharedAvailable, "../shared/fixtures/realworld is absent"))
    func sixMonthIsNamedAndTheComparedLinesAgree() throws {
        let folder = try CoverageCLITests.copy(["rc/products.json": Self.products])
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: CLIRunner.shared.appendingPathComponent("fixtures/realworld/storekit/revenuecat-v4.0-PaywallsTester.storekit"),
                                         to: folder.appendingPathComponent("PaywallsTester.storekit"))
        let run = try CLIRunner.run(["check", "--no-config", "--format", "json", "rc/products.json", "PaywallsTester.storekit"], in: folder)
        #expect(run.status == 1, "\(run.stdout) \(run.stderr)")
        let report = try jsonReport(run)
        let missing = findingRecords(report).filter { $0["product"] as? String == "com.revenuecat.simpleapp.six_month" }
        #expect(missing.map { $0["rule"] as? String } == ["paywall-missing-in-app"], "\(findingRecords(report))")
        let comparisons = report["comparisons"] as? [String] ?? []
        #expect(!comparisons.contains { $0.contains("nothing compared") }, "\(comparisons)")
        #expect(comparisons.contains { $0.contains("1 in both, 1 not in PaywallsTester.storekit: com.revenuecat.simpleapp.six_month") }, "\(comparisons)")
        let coverage = try #require(report["coverage"] as? [String: Any])
        #expect(coverage["compared_anything"] as? Bool == true, "\(coverage)")
    }
}
