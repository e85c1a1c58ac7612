import Foundation
import Testing

/// Issue 35: the product IDs the app's code asks for, as a source, through the binary.
@Suite struct CodeSourceCLITests {
    /// A folder of files written by the test (Scratch, in ConnectPages.swift).
    typealias Folder = Scratch

    /// A StoreKit configuration selling `nonConsumables` and, in one group, `subscriptions` (ID, period).
    static func storeKit(_ nonConsumables: [String], subscriptions: [(String, String)] = []) -> String {
        let products = nonConsumables.enumerated().map { index, id in
            """
                {"displayPrice": "2.99", "familyShareable": false, "internalID": "A\(index)", "localizations": [{"description": "d", "displayName": "n", "locale": "en_US"}],
                 "productID": "\(id)", "referenceName": "\(id)", "type": "NonConsumable"}
            """
        }
        let subs = subscriptions.enumerated().map { index, pair in
            """
                {"adHocOffers": [], "codeOffers": [], "displayPrice": "4.99", "familyShareable": false, "groupNumber": \(index + 1), "internalID": "S\(index)",
                 "localizations": [{"description": "d", "displayName": "n", "locale": "en_US"}], "productID": "\(pair.0)",
                 "recurringSubscriptionPeriod": "\(pair.1)", "referenceName": "\(pair.0)", "subscriptionGroupID": "G1", "type": "RecurringSubscription"}
            """
        }
        let groups = subs.isEmpty ? "" : """
            {"id": "G1", "localizations": [], "name": "Plus", "subscriptions": [
            \(subs.joined(separator: ",\n"))
            ]}
            """
        return """
            {"identifier": "X", "nonRenewingSubscriptions": [], "products": [
            \(products.joined(separator: ",\n"))
            ], "settings": {"_storefront": "USA"}, "subscriptionGroups": [\(groups)],
             "version": {"major": 3, "minor": 0}}
            """
    }

    static func records(_ output: CLIRunner.Output) throws -> [[String: Any]] {
        findingRecords(try jsonReport(output))
    }

    static let sectorZero = CLIRunner.shared.appendingPathComponent("fixtures/realworld/apps/sectorzero-ios-swift")

    // MARK: - show

    @Test func showListsTheIDsARealAppsCodeAsksForWithTheCallSite() throws {
        guard CLIRunner.sharedAvailable else {
            print("skipped: ../shared/fixtures/realworld is absent")
            return
        }
        let text = try CLIRunner.run(["show", "EarthLord/Managers/StoreKitManager.swift"], in: Self.sectorZero)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("the app's code asks for 9 product IDs"), "\(text.stdout)")
        #expect(text.stdout.contains("Product.products(for:)"), "\(text.stdout)")
        #expect(text.stdout.contains("EarthLord/Managers/StoreKitManager.swift:302:"), "\(text.stdout)")
        let json = try CLIRunner.run(["show", "--format", "json", "EarthLord/Managers/StoreKitManager.swift"], in: Self.sectorZero)
        #expect(json.status == 0, "\(json.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["format"] as? String == "code")
        let ids = ((document["products"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }.sorted()
        let sold = try String(contentsOf: Self.sectorZero.appendingPathComponent("Products.storekit"), encoding: .utf8)
            .components(separatedBy: "\"productID\" : \"").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }.sorted()
        #expect(ids == sold)
        let code = try #require(document["code"] as? [String: Any])
        let requests = try #require(code["requests"] as? [[String: Any]])
        #expect(requests.allSatisfy { ($0["call"] as? String)?.hasPrefix("EarthLord/Managers/StoreKitManager.swift:302:") == true }, "\(requests)")
        #expect(requests.contains { $0["id"] as? String == "com.sectorzero.energy.5" && ($0["at"] as? String)?.hasPrefix("EarthLord/Managers/StoreKitManager.swift:29:") == true })
    }

    // MARK: - init → check on a real app layout

    @Test func initProposesTheCodeAndCheckComparesItWithTheStoreKitFile() throws {
        guard CLIRunner.sharedAvailable else {
            print("skipped: ../shared/fixtures/realworld is absent")
            return
        }
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("tally-sectorzero-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Self.sectorZero, to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.createDirectory(at: copy.appendingPathComponent(".git"), withIntermediateDirectories: true)
        let initialised = try CLIRunner.run(["init"], in: copy)
        #expect(initialised.status == 0, "\(initialised.stderr)")
        #expect(initialised.stdout.contains("code:           EarthLord/**/*.swift, 9 product IDs in 1 file"), "\(initialised.stdout)")
        let policy = try String(contentsOf: copy.appendingPathComponent(".tally.yml"), encoding: .utf8)
        #expect(policy.contains("code:\n  paths: [EarthLord/**/*.swift]"), "\(policy)")
        let check = try CLIRunner.run(["check", "--format", "json"], in: copy)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let report = try jsonReport(check)
        let compared = (report["comparisons"] as? [String]) ?? []
        #expect(compared.contains("EarthLord/Managers/StoreKitManager.swift: the app's code asks for 9 product IDs in 1 file, compared with Products.storekit"), "\(compared)")
        #expect(ruleProducts(report).filter { $0.hasPrefix("code-") }.isEmpty, "\(ruleProducts(report))")
        // The code asks for a product the StoreKit file no longer sells: named at the call, with the nearest ID.
        let manager = copy.appendingPathComponent("EarthLord/Managers/StoreKitManager.swift")
        try CLIRunner.edit(manager, replacing: "\"com.sectorzero.energy.20\"", with: "\"com.sectorzero.Energy_20\"")
        let broken = try CLIRunner.run(["check", "--format", "json"], in: copy)
        #expect(broken.status == 1, "\(broken.stdout)")
        let finding = try #require(try Self.records(broken).first { $0["rule"] as? String == "code-unknown-product" })
        #expect(finding["product"] as? String == "com.sectorzero.Energy_20")
        #expect(finding["hint"] as? String == "did you mean com.sectorzero.energy.20?")
    }

    // MARK: - incidents rebuilt as files

    struct Incident: CustomStringConvertible, Sendable {
        let name: String
        let code: String
        let codeFile: String
        let sold: [String]
        let subscriptions: [(String, String)]
        let wrong: String
        let right: String

        var description: String { name }
    }

    static let incidents: [Incident] = [
        Incident(name: "renamed prefix (App Review: trial not on the purchase prompt)",
                 code: """
                 import StoreKit
                 enum IDs { static let monthly = "com.lmglsl.subscription.monthly" }
                 func load() async throws -> [Product] { try await Product.products(for: [IDs.monthly]) }
                 """, codeFile: "App/Store.swift", sold: [],
                 subscriptions: [("com.layermapper.glsl.subscription.monthly", "P1M")],
                 wrong: "com.lmglsl.subscription.monthly", right: "com.layermapper.glsl.subscription.monthly"),
        Incident(name: "separator (Guideline 2.1)",
                 code: """
                 import StoreKit
                 let request = SKProductsRequest(productIdentifiers: Set(["remove_ads"]))
                 """, codeFile: "App/Ads.swift", sold: ["remove.ads"], subscriptions: [],
                 wrong: "remove_ads", right: "remove.ads"),
        Incident(name: "case and period word",
                 code: """
                 import StoreKit
                 struct Paywall { let ids = ["com.app.plus.annual"]
                   func load() async throws { _ = try await Product.products(for: ids) } }
                 """, codeFile: "App/Paywall.swift", sold: [], subscriptions: [("com.app.Plus.yearly", "P1Y")],
                 wrong: "com.app.plus.annual", right: "com.app.Plus.yearly"),
        Incident(name: "case in the middle",
                 code: """
                 import StoreKit
                 enum Product_ID: String, CaseIterable { case scrolls = "ekme.TenScrolls.pack" }
                 func load() async throws { _ = try await Product.products(for: Product_ID.allCases.map(\\.rawValue)) }
                 """, codeFile: "App/Scrolls.swift", sold: ["ekme.Tenscrolls.pack"], subscriptions: [],
                 wrong: "ekme.TenScrolls.pack", right: "ekme.Tenscrolls.pack"),
    ]

    @Test(arguments: incidents)
    func anIncidentIsNamedAtItsCallSiteWithTheNearMiss(_ incident: Incident) throws {
        let folder = try Folder(["Products.storekit": Self.storeKit(incident.sold, subscriptions: incident.subscriptions),
                                 incident.codeFile: incident.code])
        defer { folder.remove() }
        let broken = try folder.run(["check", "--no-config", "--format", "json", "Products.storekit", incident.codeFile])
        #expect(broken.status == 1, "\(incident): \(broken.stdout)\(broken.stderr)")
        let findings = try Self.records(broken).filter { $0["rule"] as? String == "code-unknown-product" }
        #expect(findings.count == 1, "\(incident): \(findings)")
        let finding = try #require(findings.first)
        #expect(finding["product"] as? String == incident.wrong)
        #expect(finding["hint"] as? String == "did you mean \(incident.right)?", "\(incident): \(finding)")
        // The code's side (the call) first, then the StoreKit file's line with the near miss.
        let left = try #require(finding["configuration"] as? [String: Any])
        #expect((left["file"] as? String) == incident.codeFile, "\(finding)")
        #expect((left["role"] as? String) == "code", "\(finding)")
        let right = try #require(finding["catalog"] as? [String: Any])
        #expect((right["file"] as? String) == "Products.storekit", "\(finding)")
        #expect((right["line"] as? Int ?? 0) > 0, "\(finding)")
        // Corrected, the code and the StoreKit file agree.
        try folder.write(incident.codeFile, incident.code.replacingOccurrences(of: incident.wrong, with: incident.right))
        let fixed = try folder.run(["check", "--no-config", "--format", "json", "Products.storekit", incident.codeFile])
        #expect(fixed.status == 0, "\(incident): \(fixed.stdout)\(fixed.stderr)")
        #expect(try Self.records(fixed).filter { ($0["rule"] as? String)?.hasPrefix("code-") == true }.isEmpty)
    }

    @Test func codeAskingForWhatNeitherStoreKitFileSellsIsNamedOnce() throws {
        let folder = try Folder([
            "A/Products.storekit": Self.storeKit(["com.app.lifetime"]),
            "B/Products.storekit": Self.storeKit(["com.app.lifetime"]),
            "App/Store.swift": """
            import StoreKit
            let ids: Set<String> = ["com.app.monthly", "com.app.yearly", "com.app.lifetime"]
            func load() async throws { _ = try await Product.products(for: ids) }
            """,
        ])
        defer { folder.remove() }
        let output = try folder.run(["check", "--no-config", "--format", "json", "A/Products.storekit", "B/Products.storekit", "App/Store.swift"])
        #expect(output.status == 1, "\(output.stdout)")
        let unknown = try Self.records(output).filter { $0["rule"] as? String == "code-unknown-product" }.compactMap { $0["product"] as? String }.sorted()
        #expect(unknown == ["com.app.monthly", "com.app.yearly"])
    }

    // MARK: - unused products, and when Tally stays quiet

    @Test func aProductNoCodeAsksForIsAWarningUnlessTheCodeAsksWithIDsTallyCannotFollow() throws {
        let folder = try Folder([
            "Products.storekit": Self.storeKit(["com.app.pro", "com.app.legacy"]),
            "App/Store.swift": """
            import StoreKit
            func load() async throws { _ = try await Product.products(for: ["com.app.pro"]) }
            """,
        ])
        defer { folder.remove() }
        let output = try folder.run(["check", "--no-config", "--format", "json", "Products.storekit", "App/Store.swift"])
        #expect(output.status == 0, "warnings do not fail: \(output.stdout)")
        let unused = try Self.records(output).filter { $0["rule"] as? String == "code-unused-product" }
        #expect(unused.compactMap { $0["product"] as? String } == ["com.app.legacy"])
        #expect(unused.first?["severity"] as? String == "warning")
        // A call with IDs from a server: Tally cannot list what the app asks for, and says so.
        try folder.write("App/Remote.swift", """
            import StoreKit
            func remote(_ server: [String]) async throws { _ = try await Product.products(for: server.map { $0 }) }
            """)
        let quiet = try folder.run(["check", "--no-config", "--format", "json", "Products.storekit", "App/Store.swift", "App/Remote.swift"])
        #expect(try Self.records(quiet).filter { $0["rule"] as? String == "code-unused-product" }.isEmpty, "\(quiet.stdout)")
        let text = try folder.run(["check", "--no-config", "Products.storekit", "App/Store.swift", "App/Remote.swift"])
        #expect(text.stdout.contains("code-unused-product is quiet"), "\(text.stdout)")
    }

    // MARK: - the policy's code: and ids:

    @Test func thePolicyNamesTheCodeAndAPatternForIDsBuiltAnotherWay() throws {
        let folder = try Folder([
            ".git/HEAD": "ref: refs/heads/main\n",
            "configs/Products.storekit": Self.storeKit(["com.app.tip.small", "com.app.tip.large"]),
            "App/Tips.swift": """
            import StoreKit
            enum Tip { static let small = "com.app.tip.small"; static let large = "com.app.tip.lrage" }
            func name() -> String { "com.app.bundle.identifier.not.a.product" }
            """,
            ".tally.yml": """
            version: 1
            code:
              paths: [App/**/*.swift]
              ids: 'com\\.app\\.tip\\.[a-z]+'
            """,
        ])
        defer { folder.remove() }
        let output = try folder.run(["check", "--format", "json"])
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        let unknown = try Self.records(output).filter { $0["rule"] as? String == "code-unknown-product" }
        #expect(unknown.compactMap { $0["product"] as? String } == ["com.app.tip.lrage"], "\(unknown)")
        #expect(unknown.first?["hint"] as? String == "did you mean com.app.tip.large?")
    }

    @Test func aPolicyCodeEntryThatMatchesNothingIsAnErrorAtItsLine() throws {
        let folder = try Folder([
            ".git/HEAD": "ref: refs/heads/main\n",
            "configs/Products.storekit": Self.storeKit(["com.app.pro"]),
            ".tally.yml": "version: 1\ncode: Sources/**/*.swift\n",
        ])
        defer { folder.remove() }
        let output = try folder.run(["check"])
        #expect(output.status == 2, "\(output.stdout)\(output.stderr)")
        #expect(output.stderr.contains(".tally.yml:2:"), "\(output.stderr)")
    }

    // MARK: - constants generated from a source read back as code

    @Test(arguments: ["swift", "kotlin", "dart", "typescript"])
    func generatedConstantsAndTheirSourceAreConsistent(_ language: String) throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let written = try workspace.run(["convert", "configs/ExampleApp.storekit", "--to", language, "-o", "Generated/ProductIDs"])
        #expect(written.status == 0, "\(written.stderr)")
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: workspace.root.appendingPathComponent("Generated").path).first)
        let check = try workspace.run(["check", "--no-config", "--format", "json", "configs/ExampleApp.storekit", "Generated/\(file)"])
        #expect(check.status == 0, "\(language): \(check.stdout)\(check.stderr)")
        #expect(try Self.records(check).filter { ($0["rule"] as? String)?.hasPrefix("code-") == true }.isEmpty, "\(check.stdout)")
        // A product added to the configuration after the file was generated: asked for by no code.
        try workspace.replace("configs/ExampleApp.storekit", "\"productID\" : \"com.calmly.app.sessions.5\"", "\"productID\" : \"com.calmly.app.session.5\"")
        let stale = try workspace.run(["check", "--no-config", "--format", "json", "configs/ExampleApp.storekit", "Generated/\(file)"])
        #expect(stale.status == 1, "\(stale.stdout)")
        let unknown = try Self.records(stale).filter { $0["rule"] as? String == "code-unknown-product" }
        #expect(unknown.compactMap { $0["product"] as? String } == ["com.calmly.app.sessions.5"])
        #expect(unknown.first?["hint"] as? String == "did you mean com.calmly.app.session.5?")
        // The renamed product is named once, by the code's side with its hint, not again as unused.
        let unused = try Self.records(stale).filter { $0["rule"] as? String == "code-unused-product" }
        #expect(unused.isEmpty, "\(unused)")
    }

    // MARK: - Play Billing in Kotlin against Google Play pages

    @Test func playBillingCodeIsComparedWithGooglePlayBySubscriptionAndKind() throws {
        let folder = try Folder(["Billing.kt": """
            import com.android.billingclient.api.BillingClient
            import com.android.billingclient.api.QueryProductDetailsParams

            class Billing(private val client: BillingClient) {
                fun query() {
                    val products = listOf(
                        QueryProductDetailsParams.Product.newBuilder().setProductId("premium").setProductType(BillingClient.ProductType.SUBS).build(),
                        QueryProductDetailsParams.Product.newBuilder().setProductId("coins_100").setProductType(BillingClient.ProductType.INAPP).build(),
                        QueryProductDetailsParams.Product.newBuilder().setProductId("premium_lifetme").setProductType(BillingClient.ProductType.INAPP).build(),
                    )
                    client.queryProductDetailsAsync(QueryProductDetailsParams.newBuilder().setProductList(products).build()) { _, _ -> }
                }
            }
            """])
        defer { folder.remove() }
        try FileManager.default.copyItem(at: Workspace.fixtures.appendingPathComponent("google-play/play-pages"), to: folder.root.appendingPathComponent("play-pages"))
        let output = try folder.run(["check", "--no-config", "--format", "json", "play-pages", "Billing.kt"])
        #expect(output.status == 1, "\(output.stdout)")
        let records = try Self.records(output)
        // premium asks for the subscription whose base plans are premium:monthly and premium:yearly.
        #expect(records.map { "\($0["rule"] as? String ?? "?") \($0["product"] as? String ?? "-")" } == ["code-unknown-product premium_lifetme"], "\(records)")
        #expect(records.first?["hint"] as? String == "did you mean premium_lifetime?")
        let code = try #require(records.first?["configuration"] as? [String: Any])
        #expect(code["file"] as? String == "Billing.kt" && code["line"] as? Int == 9 && code["column"] as? Int == 60, "\(code)")
        let play = try #require(records.first?["catalog"] as? [String: Any])
        #expect(play["file"] as? String == "play-pages/03-onetimeproducts.json", "\(play)")
        // Fixed, the code and the store agree.
        try folder.write("Billing.kt", try String(contentsOf: folder.root.appendingPathComponent("Billing.kt"), encoding: .utf8)
            .replacingOccurrences(of: "premium_lifetme", with: "premium_lifetime"))
        let fixed = try folder.run(["check", "--no-config", "play-pages", "Billing.kt"])
        #expect(fixed.status == 0, "\(fixed.stdout)")
    }

    // MARK: - diff: IDs added or removed in code

    @Test func diffNamesTheIDsTheCodeStopsAndStartsAskingFor() throws {
        let before = """
            import com.android.billingclient.api.BillingClient
            import com.android.billingclient.api.QueryProductDetailsParams
            fun products() = listOf(
                QueryProductDetailsParams.Product.newBuilder().setProductId("coins_100").setProductType(BillingClient.ProductType.INAPP).build(),
                QueryProductDetailsParams.Product.newBuilder().setProductId("premium").setProductType(BillingClient.ProductType.SUBS).build())
            """
        let folder = try Folder(["old/Billing.kt": before, "new/Billing.kt": before.replacingOccurrences(of: "coins_100", with: "coins_200")])
        defer { folder.remove() }
        let output = try folder.run(["diff", "--format", "json", "old/Billing.kt", "new/Billing.kt"])
        #expect(output.status == 0, "\(output.stderr)")
        let text = try folder.run(["diff", "old/Billing.kt", "new/Billing.kt"])
        #expect(text.stdout.contains("1 added, 1 removed, 0 changed, 1 unchanged products"), "\(text.stdout)")
        #expect(text.stdout.contains("coins_100  removed") && text.stdout.contains("coins_200  added"), "\(text.stdout)")
        // The code no longer asking for an ID retires nothing in the store: no attention.
        #expect(text.stdout.contains("0 need attention"), "\(text.stdout)")
        #expect(!text.stdout.contains("can never be used again"), "\(text.stdout)")
    }
}
