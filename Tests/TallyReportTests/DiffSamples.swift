import Foundation
import TallyDiff
import TallyFormats
import TallyModel

/// The diffs the diff golden files are recorded from: built from catalogues, through
/// `CatalogDiffer`, so the goldens show what a user sees.
enum DiffSample {
    static let oldFile = "catalog/products.yaml@v1.0"
    static let newFile = "catalog/products.yaml"

    static func price(_ territory: String, _ amount: String, line: Int) -> Price {
        let territory = Territory(territory) ?? .usa
        return Price(territory: territory, money: Money(amount: DecimalText.parse(amount) ?? 0, currency: territory.currency),
                     position: Position(line: line, column: 19))
    }

    static func offer(_ mode: OfferMode, _ period: String, price: String? = nil, id: String? = nil, line: Int) -> Offer {
        Offer(id: id, mode: mode, period: Period(iso8601: period) ?? Period(months: 1, days: 0),
              price: price.flatMap { DecimalText.parse($0) }.map { Money(amount: $0, currency: "USD") }, territory: .usa,
              position: Position(line: line, column: 29))
    }

    static func product(
        _ id: String, _ kind: ProductKind = .consumable, line: Int, prices: [(String, String)] = [("USA", "0.99")],
        period: String? = nil, group: String? = nil, level: Int? = nil, intro: Offer? = nil, promos: [Offer] = [],
        family: Bool? = nil, localizations: [Localization] = []
    ) -> Product {
        Product(
            id: id, kind: kind, familyShareable: family, localizations: localizations,
            prices: prices.enumerated().map { price($0.element.0, $0.element.1, line: line + 3 + $0.offset) },
            period: period.flatMap { Period(iso8601: $0) }, introductoryOffer: intro, promotionalOffers: promos,
            group: group.map { GroupMembership(groupID: $0, groupName: $0 == "pro" ? nil : $0, level: level) },
            position: Position(line: line, column: 5),
            fieldPositions: [.kind: Position(line: line + 1, column: 11), .period: Position(line: line + 2, column: 13),
                             .level: Position(line: line + 1, column: 14), .familyShareable: Position(line: line + 2, column: 23),
                             .localizations: Position(line: line + 2, column: 5), .group: Position(line: line, column: 5)])
    }

    static let sweepTerritories = ["USA", "GBR", "DEU", "FRA", "JPN", "CAN", "AUS", "BRA", "MEX", "IND", "KOR", "CHE"]

    static var old: Catalog {
        Catalog(file: oldFile, format: .tallyCatalogYAML, products: [
            product("com.example.coins.100", line: 4, prices: [("USA", "0.99"), ("JPN", "160"), ("FRA", "1.19")]),
            product("com.example.tip", line: 12),
            product("com.example.lifetime", .nonConsumable, line: 20, prices: [("USA", "29.99")], family: false, localizations: [
                Localization(locale: "en_US", displayName: "Lifetime", description: "Everything, forever"),
            ]),
            product("com.example.bundle", line: 30, prices: sweepTerritories.map { ($0, "9.99") }),
            product("com.example.pro.monthly", .autoRenewableSubscription, line: 50, prices: [("USA", "4.99")], period: "P1M",
                    group: "pro", level: 2, intro: offer(.freeTrial, "P1W", line: 53),
                    promos: [offer(.payUpFront, "P1M", price: "0.99", id: "winback", line: 55)]),
            product("com.example.pro.yearly", .autoRenewableSubscription, line: 60, prices: [("USA", "39.99")], period: "P1Y",
                    group: "pro", level: 1),
            product("com.example.pro.weekly", .autoRenewableSubscription, line: 70, prices: [("USA", "1.99")], period: "P1W",
                    group: "pro", level: 3),
        ], groups: [SubscriptionGroup(id: "pro", name: "Pro", productIDs: ["com.example.pro.monthly", "com.example.pro.yearly", "com.example.pro.weekly"],
                                      position: Position(line: 48, column: 5))])
    }

    static var new: Catalog {
        Catalog(file: newFile, format: .tallyCatalogYAML, products: [
            product("com.example.coins.100", line: 4, prices: [("USA", "1.29"), ("JPN", "200"), ("GBR", "0.99")]),
            product("com.example.coins.500", line: 12, prices: [("USA", "3.99"), ("GBR", "3.49")]),
            product("com.example.lifetime", .nonConsumable, line: 20, prices: [("USA", "29.99")], family: true, localizations: [
                Localization(locale: "en_US", displayName: "Lifetime | All access", description: "Everything, forever"),
                Localization(locale: "de_DE", displayName: "Für immer"),
            ]),
            product("com.example.bundle", line: 30, prices: sweepTerritories.enumerated().map { ($0.element, $0.offset < 9 ? "12.99" : "8.99") }),
            product("com.example.pro.monthly", .autoRenewableSubscription, line: 50, prices: [("USA", "5.99")], period: "P1M",
                    group: "pro", level: 2, intro: offer(.freeTrial, "P3D", line: 53),
                    promos: [offer(.payUpFront, "P1M", price: "1.49", id: "winback", line: 55)]),
            product("com.example.pro.yearly", .autoRenewableSubscription, line: 60, prices: [("USA", "39.99")], period: "P6M",
                    group: "pro", level: 1),
            product("com.example.pro.weekly", .autoRenewableSubscription, line: 70, prices: [("USA", "1.99")], period: "P1W",
                    group: "pro", level: 1),
        ], groups: [SubscriptionGroup(id: "pro", name: "Pro Plans", productIDs: ["com.example.pro.monthly", "com.example.pro.yearly", "com.example.pro.weekly"],
                                      position: Position(line: 48, column: 5))])
    }

    /// Every kind of change: prices by territory (one a sweep over 12 territories), a subscription
    /// price increase, a shorter trial, a promotional offer, a period change, a reordered group, a
    /// renamed group, family sharing, localisations, an added and a removed product.
    static let mixed = DiffResult(diffs: [CatalogDiffer().diff(old: old, new: new)])

    /// Nothing changed.
    static let none = DiffResult(diffs: [CatalogDiffer().diff(old: old, new: { var catalog = old; catalog.file = newFile; return catalog }())])

    /// `--since`: one file changed, one added since the revision.
    static let since: DiffResult = {
        let added = Catalog(file: "configs/App.storekit", format: .storeKit, products: [product("com.example.coins.100", line: 8)])
        let absent = Catalog(file: "configs/App.storekit@v1.0", format: .storeKit)
        return DiffResult(diffs: [
            CatalogDiffer().diff(old: absent, new: added, oldAbsent: true),
            CatalogDiffer().diff(old: old, new: new),
        ])
    }()

    /// The README's example change to the shipped catalogue (`tally diff
    /// catalog/products.yaml@HEAD catalog/products.yaml`): the tip jar removed, the annual
    /// trial shortened to 3 days, the quarterly plan renewing every 6 months, Session Pack 20
    /// at 6.49 USD.
    static func readmeExample() throws -> DiffResult {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("catalog/products.yaml")
        let text = try String(contentsOf: file, encoding: .utf8)
        var edited = text
        for (old, new) in [
            ("  # Tip jar: a consumable that unlocks nothing.\n", ""),
            ("introductory_offer: {type: free-trial, period: P1W}", "introductory_offer: {type: free-trial, period: P3D}"),
            ("        period: P3M\n", "        period: P6M\n"),
            ("prices: {USA: \"5.99\"", "prices: {USA: \"6.49\""),
        ] {
            guard edited.components(separatedBy: old).count == 2 else { throw EditError(text: old) }
            edited = edited.replacingOccurrences(of: old, with: new)
        }
        guard let start = edited.range(of: "  - id: com.calmly.app.tip.tea\n"),
              let end = edited.range(of: "  # Permanent unlocks", range: start.upperBound..<edited.endIndex) else { throw EditError(text: "tip.tea") }
        edited.removeSubrange(start.lowerBound..<end.lowerBound)
        let old = try SourceLoader.load(bytes: Array(text.utf8), file: "catalog/products.yaml@HEAD")
        let new = try SourceLoader.load(bytes: Array(edited.utf8), file: "catalog/products.yaml")
        return DiffResult(diffs: [CatalogDiffer().diff(old: old, new: new)])
    }

    struct EditError: Error { var text: String }

    /// A real StoreKit file from ../shared, named by its file name alone.
    static func storeKit(_ name: String) throws -> Catalog {
        let path = DiffFixtures.realWorldStoreKit.appendingPathComponent(name).path
        return try SourceLoader.load(bytes: try SourceLoader.readBytes(path: path), file: name)
    }
}

/// The real StoreKit files in ../shared, for the diff goldens.
enum DiffFixtures {
    static let realWorldStoreKit = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/fixtures/realworld/storekit")
    /// Whether ../shared/fixtures/realworld exists (CI always has it; a user's clone may not).
    static let sharedAvailable = FileManager.default.fileExists(atPath: realWorldStoreKit.path)
    static let sharedMissing = "../shared/fixtures/realworld is absent; real-world diff goldens are skipped"
}
