import Foundation
import Testing

/// A paywall platform's configuration through the built binary: the Lumen project's RevenueCat
/// API v2 pages (written from RevenueCat's API reference by Fixtures/paywall/make-pages.py),
/// its `.storekit` file and its Google Play snapshot agree; the same project with each mistake
/// of issue 27 planted once gives exactly those findings, by offering and package, and exit 1.
@Suite struct PaywallCLITests {
    static let folder = CLIRunner.repository.appendingPathComponent("Tests/TallyCLITests/Fixtures/paywall")

    static func check(_ project: String, _ extra: [String] = []) throws -> CLIRunner.Output {
        try CLIRunner.run(["check", "--no-config", folder.appendingPathComponent(project).path,
                           folder.appendingPathComponent("Lumen.storekit").path, folder.appendingPathComponent("play").path] + extra)
    }

    @Test func theProjectTheStoreKitFileAndGooglePlayAgree() throws {
        let output = try Self.check("revenuecat")
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let lines = output.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("compared:") }
        #expect(lines.count == 3, "\(output.stdout)")
        #expect(lines.contains { $0.contains("(RevenueCat): 2 offerings (current: default), 4 packages, 8 products, 1 entitlement") }, "\(lines)")
        #expect(lines.contains { $0.contains("vs \(Self.folder.path)/Lumen.storekit: 4 App Store products shown, 4 in both; compared IDs, kind (4), period (2)") }, "\(lines)")
        // A store product no offering shows is coverage, not a finding.
        #expect(lines.contains { $0.contains("in no offering (sold outside the paywall, or forgotten): com.lumen.tip") }, "\(lines)")
        #expect(lines.contains { $0.contains("vs \(Self.folder.path)/play: 4 Google Play products shown, 4 in both; compared IDs, kind (4), period (2), base plans") }, "\(lines)")
    }

    @Test func eachPlantedMistakeIsNamedOnceByOfferingAndPackage() throws {
        let output = try Self.check("revenuecat-planted", ["--format", "json"])
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        let findings = findingRecords(try jsonReport(output))
        let named = findings.map { "\($0["rule"] as? String ?? "?") \($0["product"] as? String ?? "-")" }.sorted()
        #expect(named == [
            "paywall-base-plan pro", "paywall-base-plan pro:yearly", "paywall-empty-offering -", "paywall-kind com.lumen.lifetime",
            "paywall-missing-in-app com.lumen.pro.weekly", "paywall-missing-in-store coin_100", "paywall-no-current-offering -",
            "paywall-not-entitled lifetime", "paywall-period com.lumen.pro.annual",
        ])
        let messages = Dictionary(findings.map { ("\($0["rule"] as? String ?? "") \($0["product"] as? String ?? "-")", $0["message"] as? String ?? "") },
                                  uniquingKeysWith: { a, _ in a })
        #expect(messages["paywall-missing-in-store coin_100"]?.hasPrefix("offering \"coins\", package \"coins_100\": coin_100 is not in Google Play") == true)
        #expect(messages["paywall-kind com.lumen.lifetime"]?.hasPrefix("offering \"default\", package \"$rc_lifetime\":") == true)
        #expect(messages["paywall-period com.lumen.pro.annual"]?.contains("renews every 6 months in RevenueCat and every 1 year in the app's StoreKit configuration") == true)
        #expect(messages["paywall-base-plan pro"]?.contains("named without a base plan, and Google Play (play) has 2: annual, monthly") == true)
        #expect(messages["paywall-base-plan pro:yearly"]?.contains("has no base plan yearly") == true)
        #expect(messages["paywall-missing-in-app com.lumen.pro.weekly"]?.hasPrefix("offering \"default\", package \"$rc_weekly\":") == true)
        #expect(messages["paywall-not-entitled lifetime"]?.hasPrefix("offering \"default\", package \"$rc_lifetime\":") == true)
        #expect(messages["paywall-empty-offering -"]?.contains("\"winter_sale\" has no packages") == true)
        let hints = findings.compactMap { $0["hint"] as? String }
        #expect(hints.contains("did you mean coins_100?"), "\(hints)")
    }

    @Test func theTextReportSaysWhereEachSideIs() throws {
        let output = try Self.check("revenuecat-planted")
        #expect(output.status == 1)
        #expect(output.stdout.contains("paywall: \(Self.folder.path)/revenuecat-planted/03-products.json:47:5  coin_100"), "\(output.stdout)")
        #expect(output.stdout.contains("configuration: \(Self.folder.path)/Lumen.storekit:66:43  P1Y"), "\(output.stdout)")
        #expect(output.stdout.contains("hint: did you mean coins_100?"), "\(output.stdout)")
    }

    @Test func thePolicyTurnsAPaywallRuleOff() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-paywall-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: Self.folder, to: directory.appendingPathComponent("paywall"))
        try """
            version: 1
            sources:
              - paywall/revenuecat-planted
              - paywall/Lumen.storekit
              - paywall/play
            rules:
              paywall-base-plan: off
              paywall-no-current-offering: warning

            """.write(to: directory.appendingPathComponent(".tally.yml"), atomically: true, encoding: .utf8)
        let output = try CLIRunner.run(["check", "--format", "json"], in: directory)
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        let rules = findingRecords(try jsonReport(output)).compactMap { $0["rule"] as? String }
        #expect(!rules.contains("paywall-base-plan") && rules.count == 7, "\(rules)")
    }

    @Test func lintChecksTheProjectOnItsOwn() throws {
        let output = try CLIRunner.run(["lint", "--format", "json", Self.folder.appendingPathComponent("revenuecat-planted").path])
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        let rules = findingRecords(try jsonReport(output)).compactMap { $0["rule"] as? String }.sorted()
        #expect(rules == ["paywall-empty-offering", "paywall-no-current-offering", "paywall-not-entitled"])
    }

    @Test func convertWritesTheProductsAndSaysWhatItLeavesOut() throws {
        let output = try CLIRunner.run(["convert", Self.folder.appendingPathComponent("revenuecat").path, "--to", "tally-catalog-yaml"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("{google_play: \"pro:monthly\", period: P1M}"), "\(output.stdout)")
        #expect(output.stderr.contains("the 2 offerings (with their packages) and 1 entitlement of"), "\(output.stderr)")
    }

    @Test func showListsTheProductsTheProjectKnows() throws {
        let output = try CLIRunner.run(["show", Self.folder.appendingPathComponent("revenuecat").path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("8 products"), "\(output.stdout)")
        #expect(output.stdout.contains("format revenuecat"), "\(output.stdout)")
    }

    @Test func initProposesASavedProjectAsOneSource() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-paywall-init-\(UUID().uuidString)")
        let manager = FileManager.default
        try manager.createDirectory(at: directory.appendingPathComponent("configs"), withIntermediateDirectories: true)
        defer { try? manager.removeItem(at: directory) }
        try manager.copyItem(at: Self.folder.appendingPathComponent("revenuecat"), to: directory.appendingPathComponent("revenuecat"))
        try manager.copyItem(at: Self.folder.appendingPathComponent("play"), to: directory.appendingPathComponent("play"))
        try manager.copyItem(at: Self.folder.appendingPathComponent("Lumen.storekit"), to: directory.appendingPathComponent("configs/Lumen.storekit"))
        let initialised = try CLIRunner.run(["init"], in: directory)
        #expect(initialised.status == 0, "\(initialised.stdout)\(initialised.stderr)")
        let policy = try String(contentsOf: directory.appendingPathComponent(".tally.yml"), encoding: .utf8)
        #expect(policy.contains("  - revenuecat/\n"), "\(policy)")
        let checked = try CLIRunner.run(["check"], in: directory)
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
        #expect(checked.stdout.contains("compared: revenuecat vs play: 4 Google Play products shown"), "\(checked.stdout)")
    }
}

/// Adapty's fallback files and Qonversion's products list, against the same `.storekit` and Play
/// snapshot: consistent as written, and each planted mistake named by offering and package.
@Suite struct AdaptyQonversionCLITests {
    static let folder = PaywallCLITests.folder

    /// A copy of the paywall fixtures with `edits` made to `file` (each old text must occur once).
    static func planted(_ file: String, _ edits: [(String, String)]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-paywall-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: folder, to: directory)
        let url = directory.appendingPathComponent(file)
        var text = try String(contentsOf: url, encoding: .utf8)
        for (old, new) in edits {
            guard text.components(separatedBy: old).count == 2 else { throw CLIRunner.EditError(message: "\(old) does not occur once in \(file)") }
            text = text.replacingOccurrences(of: old, with: new)
        }
        try text.write(to: url, atomically: true, encoding: .utf8)
        return directory
    }

    static func check(_ directory: URL, _ sources: [String]) throws -> CLIRunner.Output {
        try CLIRunner.run(["check", "--no-config", "--format", "json"] + sources.map { directory.appendingPathComponent($0).path }
                          + [directory.appendingPathComponent("Lumen.storekit").path, directory.appendingPathComponent("play").path])
    }

    @Test func bothAdaptyFallbackFilesAndTheQonversionListAgreeWithTheStores() throws {
        let output = try Self.check(Self.folder, ["adapty/ios_fallback.json", "adapty/android_fallback.json", "qonversion-products.json"])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let comparisons = (try jsonReport(output)["comparisons"] as? [String]) ?? []
        #expect(comparisons.contains { $0.hasSuffix("ios_fallback.json vs \(Self.folder.path)/play: the paywall shows no Google Play product; nothing compared") },
                "\(comparisons)")
        #expect(comparisons.contains { $0.contains("android_fallback.json vs \(Self.folder.path)/play: 4 Google Play products shown, 4 in both") },
                "\(comparisons)")
    }

    @Test func mistakesInAnAdaptyFallbackFile() throws {
        let directory = try Self.planted("adapty/ios_fallback.json", [
            ("\"com.lumen.pro.annual\", \"product_type\": \"annual\"", "\"com.lumen.pro.annual\", \"product_type\": \"monthly\""),
            ("\"access_level_id\": \"premium\", \"vendor_product_id\": \"com.lumen.lifetime\"", "\"access_level_id\": \"\", \"vendor_product_id\": \"com.lumen.lifetime\""),
            ("\"vendor_product_id\": \"com.lumen.coins.100\"", "\"vendor_product_id\": \"com.lumen.coins.10\""),
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try Self.check(directory, ["adapty/ios_fallback.json"])
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        let findings = findingRecords(try jsonReport(output))
        #expect(ruleProducts(try jsonReport(output)) == [
            "paywall-missing-in-app com.lumen.coins.10", "paywall-not-entitled com.lumen.lifetime", "paywall-period com.lumen.pro.annual",
        ])
        let messages = findings.compactMap { $0["message"] as? String }
        #expect(messages.contains { $0.hasPrefix("offering \"coin_shop\", package \"a1b2c3d4-0000-4000-8000-000000000014\": com.lumen.coins.10 is not in") },
                "\(messages)")
        #expect(findings.compactMap { $0["hint"] as? String }.contains("did you mean com.lumen.coins.100?"))
    }

    @Test func mistakesInAQonversionProductsList() throws {
        let directory = try Self.planted("qonversion-products.json", [
            ("\"id\": \"lifetime\", \"url\": \"/v4/products/lifetime\", \"type\": \"lifetime\"", "\"id\": \"lifetime\", \"url\": \"/v4/products/lifetime\", \"type\": \"consumable\""),
            ("\"google_product_id\": \"pro\", \"google_base_plan_id\": \"annual\"", "\"google_product_id\": \"pro\", \"google_base_plan_id\": \"yearly\""),
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try Self.check(directory, ["qonversion-products.json"])
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        // Google Play does not tell consumables from the rest: only the StoreKit file disagrees on the kind.
        #expect(ruleProducts(try jsonReport(output)) == ["paywall-base-plan pro:yearly", "paywall-kind com.lumen.lifetime"])
    }
}

/// RevenueCat pages saved without the expansions (the shape of RevenueCat's own CLI test data:
/// offerings and an offering's packages unexpanded, products with no duration yet, a Web
/// Billing app, no entitlements) against the app's StoreKit file: which product a package holds
/// is not known, and still a product on one side only is named, each side's.
@Suite struct PaywallUnexpandedPagesCLITests {
    @Test func aProductOnOneSideIsNamedWhenThePagesDoNotSayWhatThePackagesHold() throws {
        let folder = PaywallCLITests.folder
        let output = try CLIRunner.run(["check", "--no-config", "--format", "json", folder.appendingPathComponent("revenuecat-unexpanded").path,
                                        folder.appendingPathComponent("Lumen.storekit").path])
        // Not findings: no package is known to show these products.
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let comparisons = (try jsonReport(output)["comparisons"] as? [String]) ?? []
        let pair = try #require(comparisons.first { $0.contains("revenuecat-unexpanded vs ") }, "\(comparisons)")
        #expect(pair.contains("the paywall shows no App Store product (5 offerings or packages do not say what they hold)"), "\(pair)")
        #expect(pair.contains("5 App Store products RevenueCat has that no package is known to hold: 4 in both, "
                              + "1 not in \(folder.path)/Lumen.storekit: com.lumen.pro.weekly"), "\(pair)")
        #expect(pair.contains("1 product of \(folder.path)/Lumen.storekit RevenueCat does not have (sold outside the paywall, or forgotten): "
                              + "com.lumen.tip"), "\(pair)")
        // The Web Billing product is counted, not looked up in the App Store.
        #expect(comparisons.contains { $0.contains("1 product of stores Tally does not read (rc_billing)") }, "\(comparisons)")
    }
}

/// `tally diff` of two saved projects counts them as paywall configurations.
@Suite struct PaywallDiffCLITests {
    @Test func twoSavedProjectsDiffProductByProduct() throws {
        let folder = PaywallCLITests.folder
        let output = try CLIRunner.run(["diff", folder.appendingPathComponent("revenuecat").path,
                                        folder.appendingPathComponent("revenuecat-planted").path, "--format", "json"])
        #expect(output.status == 0, "\(output.stderr)")
        let totals = (try jsonReport(output)["totals"] as? [[String: Any]]) ?? []
        #expect(totals.map { $0["role"] as? String } == ["paywall"], "\(totals)")
        let text = try CLIRunner.run(["diff", folder.appendingPathComponent("revenuecat").path, folder.appendingPathComponent("revenuecat-planted").path])
        #expect(text.stdout.contains("com.lumen.pro.annual › period: renews every 1 year → 6 months (P1Y → P6M)"), "\(text.stdout)")
    }
}
