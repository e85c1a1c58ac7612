import Foundation
import Testing

/// Public incident reports rebuilt as files, through the binary (issue 36, classes 3 to 6): each
/// report's misconfiguration is named with its product and cause, exit 1; the same files
/// corrected pass, exit 0.
@Suite struct IncidentsCLITests {
    typealias Folder = CodeSourceCLITests.Folder
    typealias Plan = IncidentFiles.Plan
    typealias RCProduct = IncidentFiles.RCProduct
    typealias RCOffering = IncidentFiles.RCOffering

    static func check(_ folder: Folder, _ arguments: [String]) throws -> (status: Int32, findings: [[String: Any]]) {
        let output = try folder.run(["check", "--no-config", "--format", "json"] + arguments)
        #expect(output.stderr.isEmpty || output.status != 2, "\(output.stderr)")
        return (output.status, findingRecords(try jsonReport(output)))
    }

    static func named(_ findings: [[String: Any]]) -> [String] {
        findings.map { "\($0["rule"] as? String ?? "?") \($0["product"] as? String ?? "-")" }.sorted()
    }

    // MARK: - 3. Renamed products

    /// ContractorAI (mikah33/contractorai2, docs/IAP_DIAGNOSIS_AND_FIX.md): the RevenueCat project
    /// lists contractorai_monthly, _quarterly, _annual; the StoreKit file sells
    /// com.elevated.contractorai.starter.monthly, .basic.3months, .basic.1year.
    static let contractorPlans = [
        Plan(id: "com.elevated.contractorai.starter.monthly", period: "P1M", price: "34.99", name: "ContractorAI Pro Monthly"),
        Plan(id: "com.elevated.contractorai.basic.3months", period: "P3M", price: "84.99", name: "ContractorAI Pro Quarterly"),
        Plan(id: "com.elevated.contractorai.basic.1year", period: "P1Y", price: "349.99", name: "ContractorAI Pro Annual"),
    ]

    static func contractorProject(_ ids: [String]) -> [String: String] {
        let products = zip(ids, ["P1M", "P3M", "P1Y"]).enumerated().map { RCProduct(key: "prod\($0.offset)", id: $0.element.0, duration: $0.element.1) }
        return IncidentFiles.revenueCat(
            products: products,
            offerings: [RCOffering(key: "default", packages: [("$rc_monthly", "prod0"), ("$rc_three_month", "prod1"), ("$rc_annual", "prod2")])],
            entitlements: [("ContractorAI Pro", products.map(\.key))])
    }

    @Test func aProductRenamedInRevenueCatIsNamedWithItsStoreKitPartnerOncePerPair() throws {
        var files = Self.contractorProject(["contractorai_monthly", "contractorai_quarterly", "contractorai_annual"])
        files["ContractorAI-WORKING.storekit"] = IncidentFiles.storeKit(group: "ContractorAI Pro", plans: Self.contractorPlans)
        let folder = try Folder(files)
        defer { folder.remove() }
        let broken = try Self.check(folder, ["revenuecat", "ContractorAI-WORKING.storekit"])
        #expect(broken.status == 1)
        #expect(Self.named(broken.findings) == ["paywall-missing-in-app contractorai_annual", "paywall-missing-in-app contractorai_monthly",
                                                "paywall-missing-in-app contractorai_quarterly"], "\(broken.findings)")
        let hints = Dictionary(broken.findings.map { ($0["product"] as? String ?? "", $0["hint"] as? String ?? "") }, uniquingKeysWith: { a, _ in a })
        #expect(hints["contractorai_monthly"]?.hasPrefix("renamed on one side? ContractorAI-WORKING.storekit has com.elevated.contractorai.starter.monthly") == true,
                "\(hints)")
        #expect(hints["contractorai_quarterly"]?.contains("com.elevated.contractorai.basic.3months, also a subscription renewing every 3 months") == true, "\(hints)")
        #expect(hints["contractorai_annual"]?.contains("com.elevated.contractorai.basic.1year") == true, "\(hints)")
        // Each StoreKit product is named once, as the partner of one RevenueCat product.
        for plan in Self.contractorPlans {
            #expect(hints.values.filter { $0.contains(plan.id) }.count == 1, "\(plan.id): \(hints)")
        }

        for (path, text) in Self.contractorProject(Self.contractorPlans.map(\.id)) { try folder.write(path, text) }
        let fixed = try Self.check(folder, ["revenuecat", "ContractorAI-WORKING.storekit"])
        #expect(fixed.status == 0, "\(fixed.findings)")
    }

    @Test func aRenameBetweenTheStoreKitFileAndTheCatalogueIsOneFindingWithBothIDs() throws {
        let server = zip(["contractorai_monthly", "contractorai_quarterly", "contractorai_annual"], Self.contractorPlans).map {
            (plan: Plan(id: $0.0, period: $0.1.period, price: $0.1.price, name: $0.1.name), googlePlay: String?.none)
        }
        let folder = try Folder([
            "ContractorAI-WORKING.storekit": IncidentFiles.storeKit(group: "ContractorAI Pro", plans: Self.contractorPlans),
            "catalog.yaml": IncidentFiles.catalog(group: "ContractorAI Pro", plans: server),
        ])
        defer { folder.remove() }
        let broken = try Self.check(folder, ["ContractorAI-WORKING.storekit", "catalog.yaml"])
        #expect(broken.status == 1)
        // One finding per pair, not a missing-in-catalog and a missing-in-config.
        #expect(Self.named(broken.findings) == ["renamed-product com.elevated.contractorai.basic.1year", "renamed-product com.elevated.contractorai.basic.3months",
                                                "renamed-product com.elevated.contractorai.starter.monthly"], "\(broken.findings)")
        let monthly = try #require(broken.findings.first { $0["product"] as? String == "com.elevated.contractorai.starter.monthly" })
        let message = monthly["message"] as? String ?? ""
        #expect(message.contains("com.elevated.contractorai.starter.monthly is in the configuration and contractorai_monthly in the catalogue"), "\(message)")
        #expect(message.contains("every 1 month, 34.99 USD in USA") && message.hasSuffix("renamed on one side?"), "\(message)")
        #expect((monthly["catalog"] as? [String: Any])?["value"] as? String == "contractorai_monthly", "\(monthly)")

        try folder.write("catalog.yaml", IncidentFiles.catalog(group: "ContractorAI Pro", plans: Self.contractorPlans.map { ($0, nil) }))
        let fixed = try Self.check(folder, ["ContractorAI-WORKING.storekit", "catalog.yaml"])
        #expect(fixed.status == 0, "\(fixed.findings)")
    }

    @Test func twoOneSidedProductsThatDifferInPriceAreNotPaired() throws {
        let server = [(plan: Plan(id: "contractorai_monthly", period: "P1M", price: "29.99"), googlePlay: String?.none)]
        let folder = try Folder([
            "App.storekit": IncidentFiles.storeKit(group: "ContractorAI Pro", plans: [Self.contractorPlans[0]]),
            "catalog.yaml": IncidentFiles.catalog(group: "ContractorAI Pro", plans: server),
        ])
        defer { folder.remove() }
        let result = try Self.check(folder, ["App.storekit", "catalog.yaml"])
        #expect(Self.named(result.findings) == ["missing-in-catalog com.elevated.contractorai.starter.monthly", "missing-in-config contractorai_monthly"],
                "\(result.findings)")
    }

    @Test func diffCountsARenameWithTheSameReferenceNameAsOneChange() throws {
        let old = zip(["contractorai_monthly", "contractorai_quarterly", "contractorai_annual"], Self.contractorPlans).map {
            Plan(id: $0.0, period: $0.1.period, price: $0.1.price, name: $0.1.name)
        }
        let folder = try Folder([
            "old.storekit": IncidentFiles.storeKit(group: "ContractorAI Pro", plans: old),
            "new.storekit": IncidentFiles.storeKit(group: "ContractorAI Pro", plans: Self.contractorPlans),
        ])
        defer { folder.remove() }
        let output = try folder.run(["diff", "--format", "json", "old.storekit", "new.storekit"])
        #expect(output.status == 0, "\(output.stderr)")
        let report = try jsonReport(output)
        let summary = try #require(report["summary"] as? [String: Any])
        #expect(summary["added"] as? Int == 0 && summary["removed"] as? Int == 0 && summary["changed"] as? Int == 3, "\(summary)")
        let diff = try #require((report["diffs"] as? [[String: Any]])?.first)
        let changes = (diff["changes"] as? [[String: Any]]) ?? []
        let renames = changes.filter { $0["aspect"] as? String == "id" }
        #expect(renames.count == 3, "\(changes)")
        let monthly = try #require(renames.first { $0["product"] as? String == "com.elevated.contractorai.starter.monthly" })
        #expect((monthly["old"] as? [String: Any])?["value"] as? String == "contractorai_monthly", "\(monthly)")
        #expect((monthly["summary"] as? String)?.contains("renamed") == true, "\(monthly)")
        #expect((monthly["attention"] as? [String]) == ["product-removed"], "\(monthly)")

        let text = try folder.run(["diff", "old.storekit", "new.storekit"])
        #expect(text.stdout.contains("contractorai_monthly → com.elevated.contractorai.starter.monthly"), "\(text.stdout)")
    }

    // MARK: - 4. Near-miss IDs

    /// TigerFax (justingrant1/TigerFax, REVENUECAT_TROUBLESHOOTING.md): RevenueCat's products are
    /// tigerfax_pro_monthly and tigerfax_pro_yearly, App Store Connect's tigerfax.pro.monthly and
    /// tigerfax.pro.yearly.
    @Test func separatorsAreTheClosestMatchInThePaywallsDidYouMean() throws {
        let products = [RCProduct(key: "prod0", id: "tigerfax_pro_monthly", duration: "P1M"), RCProduct(key: "prod1", id: "tigerfax_pro_yearly", duration: "P1Y")]
        let project = { (products: [RCProduct]) in
            IncidentFiles.revenueCat(products: products,
                                     offerings: [RCOffering(key: "default", packages: [("$rc_monthly", "prod0"), ("$rc_annual", "prod1")])],
                                     entitlements: [("pro_features", ["prod0", "prod1"])])
        }
        var files = project(products)
        files["TigerFax.storekit"] = IncidentFiles.storeKit(
            group: "TigerFax Pro", plans: [Plan(id: "tigerfax.pro.monthly", period: "P1M", price: "14.99"), Plan(id: "tigerfax.pro.yearly", period: "P1Y", price: "149.99")])
        let folder = try Folder(files)
        defer { folder.remove() }
        let broken = try Self.check(folder, ["revenuecat", "TigerFax.storekit"])
        #expect(broken.status == 1)
        let hints = broken.findings.map { "\($0["product"] as? String ?? "") \($0["hint"] as? String ?? "")" }.sorted()
        #expect(hints == ["tigerfax_pro_monthly did you mean tigerfax.pro.monthly?", "tigerfax_pro_yearly did you mean tigerfax.pro.yearly?"], "\(hints)")

        for (path, text) in project([RCProduct(key: "prod0", id: "tigerfax.pro.monthly", duration: "P1M"),
                                     RCProduct(key: "prod1", id: "tigerfax.pro.yearly", duration: "P1Y")]) { try folder.write(path, text) }
        #expect(try Self.check(folder, ["revenuecat", "TigerFax.storekit"]).status == 0)
    }

    /// British Square (AppGameKit): the product is remove_ads on Google Play and remove.ads on the
    /// App Store; a catalogue that lists remove_ads for both stores misses the App Store's.
    @Test func removeAdsAndRemoveDotAdsAreADidYouMeanBothWays() throws {
        let folder = try Folder([
            "App.storekit": IncidentFiles.storeKit(group: "", plans: [], nonConsumables: [("remove.ads", "2.99")]),
            "catalog.yaml": """
                format: tally-catalog/1
                default_territory: USA
                products:
                  - id: remove_ads
                    kind: non-consumable
                    prices: {USA: "2.99"}

                """,
        ])
        defer { folder.remove() }
        let broken = try Self.check(folder, ["App.storekit", "catalog.yaml"])
        #expect(broken.status == 1)
        let hints = broken.findings.map { "\($0["rule"] as? String ?? "") \($0["product"] as? String ?? "") \($0["hint"] as? String ?? "")" }.sorted()
        #expect(hints == ["missing-in-catalog remove.ads did you mean remove_ads? (the catalogue has it, and the configuration does not)",
                          "missing-in-config remove_ads did you mean remove.ads? (the configuration has it, and the catalogue does not)"], "\(hints)")

        try folder.write("catalog.yaml", """
            format: tally-catalog/1
            default_territory: USA
            products:
              - id: remove.ads
                google_play: remove_ads
                kind: non-consumable
                prices: {USA: "2.99"}

            """)
        #expect(try Self.check(folder, ["App.storekit", "catalog.yaml"]).status == 0)
    }

    /// Ten Scrolls (Eamonked/TenScrolls, MONETIZATION_STATUS.md): Configuration.storekit had "a
    /// mis-cased, wrongly-typed yearly product (ekme.Tenscrolls.plus.yearly)" where App Store
    /// Connect and the code have ekme.TenScrolls.plus.annual.
    @Test func aMisCasedIDWithAnotherPeriodWordIsTheDidYouMeanOfCatalogueAndCode() throws {
        let storeKit = IncidentFiles.storeKit(group: "TenScrolls Plus", plans: [
            Plan(id: "ekme.TenScrolls.plus.monthly", period: "P1M", price: "4.99"), Plan(id: "ekme.Tenscrolls.plus.yearly", period: "P1Y", price: "39.99"),
        ])
        let catalog = IncidentFiles.catalog(group: "TenScrolls Plus", plans: [
            (Plan(id: "ekme.TenScrolls.plus.monthly", period: "P1M", price: "4.99"), nil), (Plan(id: "ekme.TenScrolls.plus.annual", period: "P1Y", price: "39.99"), nil),
        ])
        // The code's side (code-unknown-product's "did you mean") is CodeSourceCLITests' "case and period word" incident.
        let folder = try Folder(["Configuration.storekit": storeKit, "catalog.yaml": catalog])
        defer { folder.remove() }
        let presence = try Self.check(folder, ["Configuration.storekit", "catalog.yaml"])
        #expect(presence.status == 1)
        let hints = presence.findings.map { "\($0["rule"] as? String ?? "") \($0["hint"] as? String ?? "")" }.sorted()
        #expect(hints == ["missing-in-catalog did you mean ekme.TenScrolls.plus.annual? (the catalogue has it, and the configuration does not)",
                          "missing-in-config did you mean ekme.Tenscrolls.plus.yearly? (the configuration has it, and the catalogue does not)"], "\(hints)")
        try folder.write("Configuration.storekit", IncidentFiles.storeKit(group: "TenScrolls Plus", plans: [
            Plan(id: "ekme.TenScrolls.plus.monthly", period: "P1M", price: "4.99"), Plan(id: "ekme.TenScrolls.plus.annual", period: "P1Y", price: "39.99"),
        ]))
        #expect(try Self.check(folder, ["Configuration.storekit", "catalog.yaml"]).status == 0)
    }

    // MARK: - 5. One tier, two Play subscriptions

    /// PitBox (fsumike/pitbox30, APP_STORE_PRODUCT_IDS.md): six App Store subscriptions in the
    /// group "PitBox Premium", and on Google Play "these 6 subscription products": basic_monthly,
    /// basic_quarterly, basic_yearly, premium_monthly, premium_quarterly, premium_yearly.
    static let pitbox: [(tier: String, period: String, word: String, price: String)] = [
        ("basic", "P1M", "monthly", "9.99"), ("basic", "P3M", "quarterly", "24.99"), ("basic", "P1Y", "yearly", "99.99"),
        ("premium", "P1M", "monthly", "12.99"), ("premium", "P3M", "quarterly", "34.99"), ("premium", "P1Y", "yearly", "134.99"),
    ]

    @Test func theGroupsPlansAsSeparatePlaySubscriptionsAreNamedWithTheGroup() throws {
        let separate = Self.pitbox.map { ("\($0.tier)_\($0.word)", [($0.word, $0.period, $0.price)]) }
        let catalog = { (playID: ((tier: String, period: String, word: String, price: String)) -> String) in
            IncidentFiles.catalog(group: "PitBox Premium", plans: Self.pitbox.map {
                (Plan(id: "com.pitbox.\($0.tier).\($0.word)", period: $0.period, price: $0.price), playID($0))
            })
        }
        let folder = try Folder([
            "catalog.yaml": catalog { "\($0.tier)_\($0.word):\($0.word)" },
            "play/subscriptions.json": IncidentFiles.playSubscriptions(separate),
        ])
        defer { folder.remove() }
        let broken = try Self.check(folder, ["catalog.yaml", "play"])
        #expect(broken.status == 1)
        #expect(Self.named(broken.findings) == ["play-group-split -"], "\(broken.findings)")
        let message = broken.findings.first?["message"] as? String ?? ""
        #expect(message.hasPrefix("group \"PitBox Premium\" of the catalogue is sold as 6 subscriptions of one base plan each in Google Play"), "\(message)")
        for plan in separate { #expect(message.contains("\(plan.0) (\(plan.0):\(plan.1[0].0))"), "\(plan.0): \(message)") }

        // One Play subscription per tier, its periods as base plans.
        try folder.write("play/subscriptions.json", IncidentFiles.playSubscriptions(["basic", "premium"].map { tier in
            (tier, Self.pitbox.filter { $0.tier == tier }.map { ($0.word, $0.period, $0.price) })
        }))
        try folder.write("catalog.yaml", catalog { "\($0.tier):\($0.word)" })
        let fixed = try Self.check(folder, ["catalog.yaml", "play"])
        #expect(fixed.status == 0, "\(fixed.findings)")
    }

    // MARK: - 6. The RevenueCat graph without an offering

    /// Mechanic Parts (lovyingltdlovyino-creator/machanic-parts-llc, REVENUECAT_FIX_GUIDE.md):
    /// "Apple rejected the app because in-app purchases don't load": the screenshot shows "No
    /// packages available yet"; "RevenueCat products exist but aren't in an Offering".
    static let mechanicProducts = [
        RCProduct(key: "prod0", id: "basic_monthly", duration: "P1M"), RCProduct(key: "prod1", id: "basic_quarterly", duration: "P3M"),
        RCProduct(key: "prod2", id: "basic_6month", duration: "P6M"), RCProduct(key: "prod3", id: "basic_yearly", duration: "P1Y"),
        RCProduct(key: "prod4", id: "premium_6month1", duration: "P6M"), RCProduct(key: "prod5", id: "premium_monthly1", duration: "P1M"),
    ]
    static let mechanicPackages = [("$rc_monthly", "prod0"), ("$rc_three_month", "prod1"), ("$rc_six_month", "prod2"), ("$rc_annual", "prod3"),
                                   ("premium_six_month", "prod4"), ("premium_monthly", "prod5")]
    static let mechanicEntitlements = [("basic_access", ["prod0", "prod1", "prod2", "prod3"]), ("premium_access", ["prod4", "prod5"])]

    static func mechanic(_ offerings: [RCOffering]) -> [String: String] {
        IncidentFiles.revenueCat(products: mechanicProducts, offerings: offerings, entitlements: mechanicEntitlements)
    }

    @Test func productsWithNoOfferingAtAllAreAFinding() throws {
        let folder = try Folder(Self.mechanic([]))
        defer { folder.remove() }
        for command in ["check", "lint"] {
            let output = try folder.run([command, "--no-config", "--format", "json", "revenuecat"])
            #expect(output.status == 1, "\(command): \(output.stdout)\(output.stderr)")
            let findings = findingRecords(try jsonReport(output))
            #expect(Self.named(findings) == ["paywall-no-current-offering -"], "\(command): \(findings)")
            let message = findings.first?["message"] as? String ?? ""
            #expect(message.contains("RevenueCat has 6 products and no offering"), "\(message)")
            #expect(message.contains("No packages available"), "\(message)")
        }

        for (path, text) in Self.mechanic([RCOffering(key: "default", packages: Self.mechanicPackages)]) { try folder.write(path, text) }
        let fixed = try folder.run(["check", "--no-config", "--strict", "revenuecat"])
        #expect(fixed.status == 0, "\(fixed.stdout)\(fixed.stderr)")
    }

    @Test func productsInNoOfferingsPackageAreWarnedAndNoCurrentOfferingIsAnError() throws {
        let basicOnly = RCOffering(key: "default", packages: Array(Self.mechanicPackages.prefix(4)))
        let folder = try Folder(Self.mechanic([basicOnly]))
        defer { folder.remove() }
        let output = try folder.run(["check", "--no-config", "--format", "json", "revenuecat"])
        let findings = findingRecords(try jsonReport(output))
        #expect(Self.named(findings) == ["paywall-unoffered-product premium_6month1", "paywall-unoffered-product premium_monthly1"], "\(findings)")
        #expect(findings.allSatisfy { $0["severity"] as? String == "warning" })
        // A warning: a retired plan kept for renewals is in no offering on purpose. --strict fails on it.
        #expect(output.status == 0)
        #expect(try folder.run(["check", "--no-config", "--strict", "revenuecat"]).status == 1)

        let notCurrent = RCOffering(key: "default", current: false, packages: Self.mechanicPackages)
        for (path, text) in Self.mechanic([notCurrent]) { try folder.write(path, text) }
        let none = try Self.check(folder, ["revenuecat"])
        #expect(none.status == 1)
        #expect(Self.named(none.findings) == ["paywall-no-current-offering -"], "\(none.findings)")
    }
}
