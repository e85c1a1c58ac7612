import Foundation
import Testing

/// Issue 36, class 1: territories one side prices and the other does not, rebuilt as files from
/// public reports and run through the binary (`priced-territories`). Before, two sources that
/// priced different territories said so only in the `compared:` line.
@Suite struct PricedTerritoriesCLITests {
    static func catalogue(defaultTerritory: String, _ subscriptions: [(id: String, period: String, prices: [(String, String)])]) -> String {
        var text = "format: tally-catalog/1\ndefault_territory: \(defaultTerritory)\nsubscription_groups:\n  - id: premium\n    name: Premium\n    subscriptions:\n"
        for (index, subscription) in subscriptions.enumerated() {
            let prices = subscription.prices.map { "\($0.0): \"\($0.1)\"" }.joined(separator: ", ")
            text += "      - id: \(subscription.id)\n        level: \(index + 1)\n        period: \(subscription.period)\n        prices: {\(prices)}\n"
        }
        return text
    }

    /// PatrickDavy/SightScreen#37 ("Re-price for New Zealand and Australia"): the launch
    /// territories are New Zealand and Australia; the paywall's prices are in pounds sterling
    /// (`annual: '£34.99 a year'`, `monthly: '£5.99 a month'`). The store sells the two plans
    /// in AUS and NZL, priced there; the paywall's catalogue prices GBR.
    static func sightScreen(fixed: Bool) throws -> Scratch {
        let paywall = fixed
            ? catalogue(defaultTerritory: "AUS", [("sightscreen.annual", "P1Y", [("AUS", "54.99"), ("NZL", "59.99")]),
                                                  ("sightscreen.monthly", "P1M", [("AUS", "8.99"), ("NZL", "9.99")])])
            : catalogue(defaultTerritory: "GBR", [("sightscreen.annual", "P1Y", [("GBR", "34.99")]), ("sightscreen.monthly", "P1M", [("GBR", "5.99")])])
        let store = ConnectPages(subscriptions: [
            .init(productID: "sightscreen.annual", prices: [("AUS", "54.99", "AUD"), ("NZL", "59.99", "NZD")], sold: ["AUS", "NZL"]),
            .init(productID: "sightscreen.monthly", period: "ONE_MONTH", level: 2, prices: [("AUS", "8.99", "AUD"), ("NZL", "9.99", "NZD")], sold: ["AUS", "NZL"]),
        ])
        return try Scratch(["paywall.yaml": paywall, "snapshot/01-subscriptionGroups.json": store.json])
    }

    @Test func aPaywallPricedInPoundsForALaunchInAustraliaAndNewZealand() throws {
        let folder = try Self.sightScreen(fixed: false)
        defer { folder.remove() }
        let run = try folder.run(["check", "--no-config", "--format", "json", "paywall.yaml", "snapshot"])
        #expect(run.status == 1, "\(run.stdout)\n\(run.stderr)")
        let findings = findingRecords(try jsonReport(run)).filter { $0["rule"] as? String == "priced-territories" }
        #expect(findings.map { $0["product"] as? String ?? "" }.sorted() == ["sightscreen.annual", "sightscreen.monthly"], "\(run.stdout)")
        for finding in findings {
            #expect(finding["severity"] as? String == "error")
            let message = finding["message"] as? String ?? ""
            #expect(message.contains("is priced in GBR in paywall.yaml but not in snapshot, and in AUS, NZL in snapshot but not in paywall.yaml; the store sells it in AUS, NZL"),
                    "\(message)")
        }
    }

    @Test func repricedForAustraliaAndNewZealandTheSameFilesPass() throws {
        let folder = try Self.sightScreen(fixed: true)
        defer { folder.remove() }
        let run = try folder.run(["check", "--no-config", "--format", "json", "paywall.yaml", "snapshot"])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(try ruleProducts(jsonReport(run)).isEmpty, "\(run.stdout)")
    }

    /// rorkai/App-Store-Connect-CLI#954 ("warn when subscription pricing doesn't cover all
    /// territories"): only one territory (US) has pricing while the app is available in 170+
    /// territories. The team's catalogue holds the price matrix the store never received.
    static let matrix = [("USA", "59.99"), ("CAN", "79.99"), ("GBR", "59.99"), ("AUS", "99.99"), ("DEU", "59.99"), ("JPN", "9000")]

    @Test func pricedInTheUSAOnlyWhileSoldIn175Territories() throws {
        let store = ConnectPages(subscriptions: [.init(productID: "com.example.premium.annual", sold: ConnectPages.everyStorefront)])
        let folder = try Scratch(["catalog.yaml": Self.catalogue(defaultTerritory: "USA", [("com.example.premium.annual", "P1Y", Self.matrix)]),
                                  "snapshot/01-subscriptionGroups.json": store.json])
        defer { folder.remove() }
        let run = try folder.run(["check", "--no-config", "--format", "json", "catalog.yaml", "snapshot"])
        #expect(run.status == 1, "\(run.stdout)\n\(run.stderr)")
        let report = try jsonReport(run)
        #expect(ruleProducts(report) == ["priced-territories com.example.premium.annual", "unpriced-territory com.example.premium.annual"], "\(run.stdout)")
        let finding = try #require(findingRecords(report).first { $0["rule"] as? String == "priced-territories" })
        #expect(finding["severity"] as? String == "error")
        #expect((finding["message"] as? String ?? "").contains("is priced in CAN, GBR, AUS, DEU, JPN in catalog.yaml but not in snapshot; the store sells it in CAN, GBR, AUS, DEU, JPN"),
                "\(finding)")
        // The territories stay a list value for JSON and SARIF.
        let left = finding["configuration"] as? [String: Any] ?? finding["left"] as? [String: Any] ?? [:]
        #expect("\(left)".contains("CAN"), "\(finding)")

        // Fixed: the store sells the subscription where the matrix prices it, at those prices.
        let prices = [("USA", "59.99", "USD"), ("CAN", "79.99", "CAD"), ("GBR", "59.99", "GBP"), ("AUS", "99.99", "AUD"), ("DEU", "59.99", "EUR"), ("JPN", "9000", "JPY")]
        try folder.write("snapshot/01-subscriptionGroups.json", ConnectPages(subscriptions: [
            .init(productID: "com.example.premium.annual", prices: prices, sold: Self.matrix.map(\.0)),
        ]).json)
        let fixed = try folder.run(["check", "--no-config", "--format", "json", "catalog.yaml", "snapshot"])
        #expect(fixed.status == 0, "\(fixed.stdout)\n\(fixed.stderr)")
        #expect(try ruleProducts(jsonReport(fixed)).isEmpty, "\(fixed.stdout)")
    }

    /// rorkai/App-Store-Connect-CLI#1747 ("materialize complete price matrix"): App Store Connect
    /// asks for the complete price matrix whatever the territories the subscription is sold in; a
    /// subscription priced in its three sale territories only stayed in `MISSING_METADATA`. The
    /// team's matrix is its policy's `required_territories`.
    static func narrowedMatrix(state: String, prices: [(String, String, String)]) throws -> Scratch {
        let store = ConnectPages(subscriptions: [.init(productID: "com.example.premium.annual", state: state, prices: prices, sold: ["USA", "CAN", "GBR"])])
        return try Scratch(["catalog.yaml": catalogue(defaultTerritory: "USA", [("com.example.premium.annual", "P1Y", matrix)]),
                            "snapshot/01-subscriptionGroups.json": store.json,
                            "tally.yml": "version: 1\nrequired_territories: [\(matrix.map(\.0).joined(separator: ", "))]\n"])
    }

    @Test func aPriceMatrixNarrowedToTheSaleTerritories() throws {
        let narrowed = [("USA", "59.99", "USD"), ("CAN", "79.99", "CAD"), ("GBR", "59.99", "GBP")]
        let folder = try Self.narrowedMatrix(state: "MISSING_METADATA", prices: narrowed)
        defer { folder.remove() }
        // The default filter holds the subscription aside, and the catalogue has it: it is compared
        // all the same (issue 48), and store-state names why it is not for sale, with its cause.
        let run = try folder.run(["check", "--config", "tally.yml", "--format", "json", "catalog.yaml", "snapshot"])
        #expect(run.status == 1, "\(run.stdout)\n\(run.stderr)")
        let report = try jsonReport(run)
        #expect(ruleProducts(report) == ["priced-territories com.example.premium.annual", "store-state com.example.premium.annual"], "\(run.stdout)")
        let stateMessage = findingRecords(report).first { $0["rule"] as? String == "store-state" }?["message"] as? String ?? ""
        #expect(stateMessage.contains("no price in AUS, DEU, JPN, which the policy requires"), "\(run.stdout)")
        // Every state included: the two sources' territories, and the policy's, are named.
        let all = try folder.run(["check", "--config", "tally.yml", "--format", "json", "--include-state", "ALL", "catalog.yaml", "snapshot"])
        #expect(all.status == 1, "\(all.stdout)\n\(all.stderr)")
        let allReport = try jsonReport(all)
        #expect(ruleProducts(allReport) == ["priced-territories com.example.premium.annual", "store-state com.example.premium.annual",
                                            "unpriced-territory com.example.premium.annual"], "\(all.stdout)")
        let finding = try #require(findingRecords(allReport).first { $0["rule"] as? String == "priced-territories" })
        #expect((finding["message"] as? String ?? "").contains("is priced in AUS, DEU, JPN in catalog.yaml but not in snapshot; the policy requires AUS, DEU, JPN"), "\(finding)")
    }

    @Test func theWholeMatrixSavedTheSameFilesPass() throws {
        let whole = [("USA", "59.99", "USD"), ("CAN", "79.99", "CAD"), ("GBR", "59.99", "GBP"), ("AUS", "99.99", "AUD"), ("DEU", "59.99", "EUR"), ("JPN", "9000", "JPY")]
        // "Re-saving the same base price as the full 175-territory matrix … changed Apple final state to READY_TO_SUBMIT."
        let folder = try Self.narrowedMatrix(state: "READY_TO_SUBMIT", prices: whole)
        defer { folder.remove() }
        let run = try folder.run(["check", "--config", "tally.yml", "--format", "json", "catalog.yaml", "snapshot"])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        let all = try folder.run(["check", "--config", "tally.yml", "--format", "json", "--include-state", "ALL", "catalog.yaml", "snapshot"])
        #expect(all.status == 0, "\(all.stdout)\n\(all.stderr)")
        #expect(try ruleProducts(jsonReport(all)).isEmpty, "\(all.stdout)")
    }

    /// A StoreKit configuration prices its storefront only: a catalogue that prices more
    /// territories is no finding.
    @Test func aStoreKitConfigurationIsNotComparedByTerritory() throws {
        let app = StoreKitFile(subscriptions: [.init(productID: "com.example.premium.annual")])
        let folder = try Scratch(["Products.storekit": app.json,
                                  "catalog.yaml": Self.catalogue(defaultTerritory: "USA", [("com.example.premium.annual", "P1Y", Self.matrix)]),
                                  "tally.yml": "version: 1\nrequired_territories: [USA, GBR]\n"])
        defer { folder.remove() }
        let run = try folder.run(["check", "--config", "tally.yml", "--format", "json", "Products.storekit", "catalog.yaml"])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(try ruleProducts(jsonReport(run)).isEmpty, "\(run.stdout)")
    }

    /// Two catalogues that price different territories, with no policy and no store saying where
    /// the product is sold: a warning (exit 0; `--strict` fails it).
    @Test func twoCataloguesPricingOtherTerritoriesWarn() throws {
        let folder = try Scratch([
            "server.yaml": Self.catalogue(defaultTerritory: "USA", [("com.example.premium.annual", "P1Y", [("USA", "59.99"), ("GBR", "59.99"), ("DEU", "59.99")])]),
            "finance.yaml": Self.catalogue(defaultTerritory: "USA", [("com.example.premium.annual", "P1Y", [("USA", "59.99"), ("GBR", "59.99"), ("FRA", "59.99")])]),
        ])
        defer { folder.remove() }
        let run = try folder.run(["check", "--no-config", "--format", "json", "server.yaml", "finance.yaml"])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        let report = try jsonReport(run)
        #expect(ruleProducts(report) == ["priced-territories com.example.premium.annual"], "\(run.stdout)")
        let finding = try #require(findingRecords(report).first)
        #expect(finding["severity"] as? String == "warning")
        #expect(finding["message"] as? String == "com.example.premium.annual is priced in DEU in server.yaml but not in finance.yaml, and in FRA in finance.yaml but not in server.yaml",
                "\(finding)")
        let strict = try folder.run(["check", "--no-config", "--strict", "server.yaml", "finance.yaml"])
        #expect(strict.status == 1, "\(strict.stdout)")
    }
}
