import Foundation
import Testing

/// Issue 28 through the built binary, offline: a StoreKit 5.0 file, a catalogue and an App Store
/// Connect snapshot (`examples/review-readiness`, written from Apple's documentation) in which
/// an unpriced territory, a price off Apple's price points, a missing and an over-long
/// localization, a repriced monthly plan and an offer on the wrong plan are planted. `check` names exactly those and exits 1.
@Suite struct ReviewReadinessCLITests {
    static let fixtures = CLIRunner.repository.appendingPathComponent("examples/review-readiness")

    /// A scratch copy of the fixtures, so that runs never write beside them.
    static func copy() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-review-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: fixtures, to: directory)
        return directory
    }

    static func findings(_ stdout: String) throws -> [[String: Any]] {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
        return try #require(document["findings"] as? [[String: Any]])
    }

    @Test func checkNamesExactlyThePlantedProblemsAndExitsOne() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try CLIRunner.run(["check", "--config", "tally.yml", "--format", "json", "Lumen.storekit", "catalog.yaml", "snapshot"], in: directory)
        #expect(run.status == 1, "\(run.stderr)\n\(run.stdout)")
        let findings = try Self.findings(run.stdout)
        let named = findings.map { "\($0["rule"] as? String ?? "?") \($0["product"] as? String ?? "-")" }.sorted()
        #expect(named == [
            // The catalogue's plan differs from the configuration's and from the snapshot's: each pair says so.
            "billing-plan com.lumen.app.pro.annual",
            "billing-plan com.lumen.app.pro.annual",
            "billing-plan com.lumen.app.pro.annual",
            "billing-plan com.lumen.app.pro.annual",
            "localization com.lumen.app.gems.100",
            "missing-locale com.lumen.app.gems.100",
            "price-point com.lumen.app.gems.100",
            // The catalogue prices CAN, where the store sells it without a price (issue 36).
            "priced-territories com.lumen.app.gems.100",
            "unpriced-territory com.lumen.app.gems.100",
            "unpriced-territory com.lumen.app.starter",
        ], "\(findings.map { $0["message"] ?? "" })")
        let messages = findings.compactMap { $0["message"] as? String }
        let expected = [
            // The snapshot: sold in CAN (its availability) without a price there.
            "com.lumen.app.gems.100 is sold without a price: no price in 1 of the 4 territories where the store sells it: CAN",
            // The catalogue has the CAN price the store lacks.
            "com.lumen.app.gems.100 is priced in CAN in catalog.yaml but not in snapshot; the store sells it in CAN",
            // The catalogue: no GBR price, which the policy requires.
            "com.lumen.app.starter has no price in 1 of the 2 territories the policy requires: GBR",
            // The catalogue: 155 JPY, between two of the points the snapshot saved for JPN.
            "com.lumen.app.gems.100 costs 155 JPY in JPN, which is not an App Store price point there; the nearest are 150 JPY and 160 JPY",
            // The snapshot's draft version (API 4.4.1) dropped fr-FR and has a German description over Apple's 45 characters.
            "com.lumen.app.gems.100 has no localization in fr_FR, which the policy requires",
            "com.lumen.app.gems.100 in de-DE: description is 57 characters, 12 over the limit of 45",
            // The catalogue's monthly plan costs 6.49 a month; the app and the store say 5.99. Two
            // catalogues in the run: "the catalogue" tells neither, so both sides are named by file.
            "com.lumen.app.pro.annual's monthly plan costs 5.99 USD a month in USA in the configuration (Lumen.storekit) but 6.49 USD a month in the catalogue (catalog.yaml)",
            // The pay-as-you-go offer is the monthly plan's, not the up-front plan's.
            "com.lumen.app.pro.annual's pay as you go: 2.99 USD per 1 month, 1 period is on the monthly plan in the configuration (Lumen.storekit) but on the up-front plan in the catalogue (catalog.yaml)",
            // The catalogue against the snapshot: two catalogues, each named by its file.
            "com.lumen.app.pro.annual's monthly plan costs 6.49 USD a month in USA in catalog.yaml but 5.99 USD a month in snapshot",
        ]
        for text in expected {
            #expect(messages.contains { $0.contains(text) }, "missing: \(text)\nin: \(messages)")
        }
    }

    @Test func withoutThePlantsTheSameSourcesAreConsistent() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Take every plant out: price CAN and GBR, a JPN price on a point, restore fr-FR, shorten de-DE, fix the plan and its offer.
        try CLIRunner.edit(directory.appendingPathComponent("catalog.yaml"), replacing: "prices: {USA: \"2.99\"}", with: "prices: {USA: \"2.99\", GBR: \"2.49\"}")
        try CLIRunner.edit(directory.appendingPathComponent("catalog.yaml"), replacing: "JPN: \"155\"", with: "JPN: \"160\"")
        // No longer sold in CAN (below): nor priced there in the catalogue.
        try CLIRunner.edit(directory.appendingPathComponent("catalog.yaml"), replacing: ", CAN: \"1.39\"", with: "")
        try CLIRunner.edit(directory.appendingPathComponent("catalog.yaml"), replacing: "prices: {USA: \"6.49\", GBR: \"5.99\"}", with: "prices: {USA: \"5.99\", GBR: \"5.99\"}")
        // Its commitment with it: 12 × 5.99 (else commitment-price names the 77.88 left behind).
        try CLIRunner.edit(directory.appendingPathComponent("catalog.yaml"), replacing: "commitment_price: \"77.88\"", with: "commitment_price: \"71.88\"")
        try CLIRunner.edit(directory.appendingPathComponent("catalog.yaml"),
                           replacing: "              - {type: pay-as-you-go, period: P1M, price: \"2.99\"}\n          - type: MONTHLY",
                           with: "          - type: MONTHLY\n            introductory_offers:\n              - {type: pay-as-you-go, period: P1M, price: \"2.99\"}")
        try CLIRunner.edit(directory.appendingPathComponent("snapshot/05-availableTerritories.json"), replacing: "\"total\": 4", with: "\"total\": 3")
        try CLIRunner.edit(directory.appendingPathComponent("snapshot/05-availableTerritories.json"),
                           replacing: ",\n    {\n      \"type\": \"territories\",\n      \"id\": \"CAN\",\n      \"attributes\": {\n        \"currency\": \"CAD\"\n      }\n    }", with: "")
        try CLIRunner.edit(directory.appendingPathComponent("snapshot/08-version-2-localizations.json"),
                           replacing: "Ein Beutel mit einhundert Edelsteinen für jedes Abenteuer", with: "Ein Beutel mit hundert Edelsteinen")
        try CLIRunner.edit(directory.appendingPathComponent("tally.yml"), replacing: "[en_US, de_DE, fr_FR]", with: "[en_US, de_DE]")
        let run = try CLIRunner.run(["check", "--config", "tally.yml", "--format", "json", "Lumen.storekit", "catalog.yaml", "snapshot"], in: directory)
        #expect(run.status == 0, "\(run.stderr)\n\(run.stdout)")
        #expect(try Self.findings(run.stdout).isEmpty)
    }

    @Test func aStoreKitFiveFileWithBothPlansConvertsToACatalogueAndBackWithNothingLost() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let toCatalogue = try CLIRunner.run(["convert", "Lumen.storekit", "--to", "tally-catalog-yaml", "-o", "lumen.yaml"], in: directory)
        #expect(toCatalogue.status == 0, "\(toCatalogue.stderr)")
        #expect(!toCatalogue.stderr.contains("left out"), "\(toCatalogue.stderr)")
        let catalogue = try String(contentsOf: directory.appendingPathComponent("lumen.yaml"), encoding: .utf8)
        #expect(catalogue.contains("billing_plans:") && catalogue.contains("type: MONTHLY") && catalogue.contains("commitment_price: \"71.88\""), "\(catalogue)")
        let back = try CLIRunner.run(["convert", "lumen.yaml", "--to", "storekit", "--storekit-version", "5.0", "-o", "Again.storekit"], in: directory)
        #expect(back.status == 0, "\(back.stderr)")
        // Plans, their prices, commitments and offers compare equal both ways.
        let check = try CLIRunner.run(["check", "--no-config", "Lumen.storekit", "lumen.yaml"], in: directory)
        #expect(check.status == 0, "\(check.stdout)\n\(check.stderr)")
        #expect(!check.stdout.contains("billing plans") || !check.stdout.contains("not compared"), "\(check.stdout)")
        let again = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("Again.storekit"))) as? [String: Any])
        let original = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("Lumen.storekit"))) as? [String: Any])
        func plans(_ document: [String: Any]) -> [[String: String]] {
            let groups = document["subscriptionGroups"] as? [[String: Any]] ?? []
            let subscription = (groups.first?["subscriptions"] as? [[String: Any]])?.first ?? [:]
            let billing = (subscription["billingPlans"] as? [[String: Any]] ?? []).map { plan in
                ["plan": plan["billingPlanType"] as? String ?? "", "price": plan["displayPrice"] as? String ?? "",
                 "commitment": plan["commitmentDisplayPrice"] as? String ?? "", "enabled": "\(plan["isEnabled"] as? Bool ?? false)"]
            }
            let offers = (subscription["introductoryOffers"] as? [[String: Any]] ?? []).map { offer in
                ["offer": offer["billingPlanType"] as? String ?? "", "mode": offer["paymentMode"] as? String ?? "",
                 "period": offer["subscriptionPeriod"] as? String ?? "", "price": offer["displayPrice"] as? String ?? ""]
            }
            return billing + offers
        }
        #expect(plans(again) == plans(original))
        #expect(plans(original).count == 4)
    }

    @Test func aStoreKitFileBeforeFiveStatesNoPlansAndTheCoverageLineSaysSo() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A 4.0 file without plans (Xcode 16 writes none): no plan is compared, and the run says why.
        let file = directory.appendingPathComponent("Lumen.storekit")
        try CLIRunner.edit(file, replacing: "\"major\": 5", with: "\"major\": 4")
        let text = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "\"billingPlans\"", with: "\"_billingPlansOfXcode17\"")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let run = try CLIRunner.run(["check", "--no-config", "Lumen.storekit", "catalog.yaml"], in: directory)
        #expect(!run.stdout.contains("  billing-plan  "), "\(run.stdout)")
        #expect(run.stdout.contains("billing-plans: the StoreKit configuration has no billing plans"), "\(run.stdout)\n\(run.stderr)")
    }

    /// Issue 50: a file before 5.0 that holds plans (RevenueCat's purchases-ios has a 3.0 file with
    /// `billingPlans`, 87bf22fc) has them read and compared, not called unknown beside them.
    @Test func aStoreKitFileBeforeFiveThatHoldsPlansHasThemCompared() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try CLIRunner.edit(directory.appendingPathComponent("Lumen.storekit"), replacing: "\"major\": 5", with: "\"major\": 3")
        let run = try CLIRunner.run(["check", "--no-config", "Lumen.storekit", "catalog.yaml"], in: directory)
        #expect(run.stdout.contains("  billing-plan  "), "\(run.stdout)")
        #expect(!run.stdout.contains("billing-plans: the StoreKit configuration has no billing plans"), "\(run.stdout)")
    }

    @Test func diffReportsAPlanAddedRemovedAndRepriced() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let old = directory.appendingPathComponent("Lumen.storekit")
        let text = try String(contentsOf: old, encoding: .utf8)
        try text.replacingOccurrences(of: "\"displayPrice\": \"5.99\"", with: "\"displayPrice\": \"6.49\"")
            .write(to: directory.appendingPathComponent("Repriced.storekit"), atomically: true, encoding: .utf8)
        let repriced = try CLIRunner.run(["diff", "Lumen.storekit", "Repriced.storekit"], in: directory)
        #expect(repriced.stdout.contains("monthly plan"), "\(repriced.stdout)\n\(repriced.stderr)")
        #expect(repriced.stdout.contains("5.99") && repriced.stdout.contains("6.49"), "\(repriced.stdout)\n\(repriced.stderr)")
        // The catalogue with the up-front plan only, then with both: the monthly plan was added (and back: removed).
        let catalogue = directory.appendingPathComponent("catalog.yaml")
        var yaml = try String(contentsOf: catalogue, encoding: .utf8)
        let cut = try #require(yaml.range(of: "          - type: MONTHLY"))
        yaml = String(yaml[..<cut.lowerBound])
        try yaml.write(to: directory.appendingPathComponent("no-plans.yaml"), atomically: true, encoding: .utf8)
        let added = try CLIRunner.run(["diff", "no-plans.yaml", "catalog.yaml"], in: directory)
        #expect(added.stdout.contains("monthly plan") && added.stdout.lowercased().contains("added"), "\(added.stdout)\n\(added.stderr)")
        let removed = try CLIRunner.run(["diff", "catalog.yaml", "no-plans.yaml"], in: directory)
        #expect(removed.stdout.contains("monthly plan") && removed.stdout.lowercased().contains("removed"), "\(removed.stdout)\n\(removed.stderr)")
    }
}
