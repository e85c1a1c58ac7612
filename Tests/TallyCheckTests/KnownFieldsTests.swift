import Testing
@testable import TallyCheck
import TallyModel
import TallyReport

/// Sources know different things: a field one side does not know is skipped and said so, never
/// reported as a mismatch.
@Suite struct KnownFieldsTests {
    static let config: [Product] = [
        .test("com.a.coins", price: "0.99"),
        .subscription("com.a.pro.yearly", period: "P1Y", price: "49.99", group: "G", level: 1, intro: .test()),
        .subscription("com.a.pro.monthly", period: "P1M", price: "4.99", group: "G", level: 2),
    ]

    static func source(_ products: [Product], format: SourceFormat, knows: Set<Field>, file: String = "Products.plist") -> Catalog {
        Catalog(file: file, format: format, products: products, knownFields: knows)
    }

    /// What a property list of IDs gives: no prices, a placeholder kind.
    static let idsOnly: [Product] = [
        Product(id: "com.a.coins", kind: .nonConsumable, path: "[0]"),
        Product(id: "com.a.pro.yearly", kind: .nonConsumable, path: "[1]"),
        Product(id: "com.a.pro.monthly", kind: .nonConsumable, path: "[2]"),
    ]

    @Test func aListOfIDsIsComparedByIDOnlyAndSaysWhatIsSkipped() throws {
        let result = Checker().check(configurations: [.config(Self.config)],
                                     catalogs: [Self.source(Self.idsOnly, format: .propertyList, knows: [.id])])
        #expect(result.findings.isEmpty, "absent data is not a mismatch: \(pairs(result.findings))")
        let pair = try #require(result.pairs.first)
        #expect(pair.compared.isEmpty)
        // Billing plans, seat tiers and multi-seat status are named only where a side has some (neither has here).
        #expect(pair.skipped.map(\.field) == PairSummary.comparableFields.filter { ![.billingPlans, .seatTiers, .multiSeat, .winbackOffers].contains($0) })
        #expect(pair.skipped.allSatisfy { $0.missingIn == ["Products.plist"] })
        #expect(pair.skipped.first { $0.field == .prices }?.reason == "the property list has no prices")
        #expect(result.comparisons == [.pair(pair)])
        #expect(result.comparisons.map(\.text) == [pair.sentence])
        #expect(pair.sentence == "App.storekit (storefront USA) vs Products.plist: 3 products in both; compared IDs; skipped kind, family-sharing, prices, period, "
                + "introductory-offer, promotional-offers, group, level: the property list has no kinds, family-sharing flags, prices, periods, introductory offers, "
                + "promotional offers, subscription groups or levels")
    }

    @Test func aMissingIDIsStillReportedWithTheKeyPath() throws {
        let result = Checker().check(configurations: [.config(Self.config)],
                                     catalogs: [Self.source(Array(Self.idsOnly.dropLast()) + [Product(id: "com.a.pro.montly", kind: .nonConsumable, path: "[2]")],
                                                            format: .propertyList, knows: [.id])])
        // A .storekit file and a product plist are two copies of what the app ships: missing-in-copy both ways.
        #expect(pairs(result.findings) == ["missing-in-copy com.a.pro.monthly", "missing-in-copy com.a.pro.montly"])
        let extra = try #require(result.findings.first { $0.ruleID == .missingInCopy && $0.productID == "com.a.pro.montly" })
        #expect(extra.right?.location.description == "Products.plist ([2])")
        #expect(extra.hint?.contains("com.a.pro.monthly") == true)
    }

    @Test func knownFieldsAreComparedAndTheOthersSkipped() throws {
        // A CSV with prices but no offer columns: the price differs, the offer is not its business.
        var csv = Self.config
        csv[0].prices[0].money.amount = DecimalText.parse("1.29") ?? 0
        csv[1].introductoryOffer = nil
        let result = Checker().check(configurations: [.config(Self.config)],
                                     catalogs: [Self.source(csv, format: .csv, knows: [.id, .kind, .prices, .period, .group, .level], file: "prices.csv")])
        #expect(pairs(result.findings) == ["price com.a.coins"])
        let pair = try #require(result.pairs.first)
        #expect(pair.compared == [.kind, .prices, .period, .group, .level])
        #expect(pair.sentence.hasSuffix("compared IDs, kind (3), prices (3), period (2), group (2), level (2); skipped family-sharing, introductory-offer, promotional-offers: "
                                        + "the CSV catalogue has no family-sharing flags, introductory offers or promotional offers"))
    }

    @Test func aFieldNeitherSideKnowsSaysSo() throws {
        let plist = Self.source(Self.idsOnly, format: .propertyList, knows: [.id])
        let csv = Self.source(Self.idsOnly, format: .csv, knows: [.id, .prices], file: "prices.csv")
        let pair = PairSummary(Comparison(configuration: plist, catalog: csv))
        #expect(pair.skipped.first { $0.field == .period }?.reason == "neither source has periods")
        #expect(pair.skipped.first { $0.field == .prices }?.reason == "the property list has no prices")
        #expect(pair.sentence.hasSuffix("kind, family-sharing, period, introductory-offer, promotional-offers, group, level: neither source has kinds, family-sharing flags, periods, "
                                        + "introductory offers, promotional offers, subscription groups or levels; prices: the property list has no prices"))
    }

    @Test func sourcesOfOneKindAreNamedByFile() throws {
        let one = Self.source(Self.idsOnly, format: .propertyList, knows: [.id], file: "a/One.plist")
        let two = Self.source(Self.idsOnly, format: .propertyList, knows: [.id, .kind], file: "b/Two.plist")
        let pair = PairSummary(Comparison(configuration: two, catalog: one))
        #expect(pair.skipped.first { $0.field == .kind }?.reason == "the property list One.plist has no kinds")
    }

    @Test func fieldsNoProductStatesAreSkippedNotClaimed() {
        // Both sides know every field, but no product states family sharing, and the server
        // catalogue states no promotional offers.
        let result = Checker().check(configurations: [.config(Self.config)], catalogs: [.server(Self.config)])
        #expect(result.comparisons.map(\.text) == ["App.storekit (storefront USA) vs catalog.yaml: 3 products in both; compared IDs, kind (3), prices (3), period (2), "
                                       + "introductory-offer (2), group (2), level (2); skipped family-sharing: neither source states family-sharing flags for "
                                       + "the 3 products in both; promotional-offers: the tally-catalog/1 file states promotional offers for none of the 2 subscriptions in both"])
    }

    @Test func aFieldStatedForSomeProductsSaysForHowMany() throws {
        var stated = Self.config
        stated[1].familyShareable = true
        var configuration = Self.config
        for index in configuration.indices { configuration[index].familyShareable = false }
        let pair = try #require(Checker().check(configurations: [.config(configuration)], catalogs: [.server(stated)]).pairs.first)
        #expect(pair.sentence.contains("family-sharing (1 of 3: not stated by the catalogue for 2)"), "\(pair.sentence)")
        #expect(pair.coverage.first { $0.field == .familyShareable } == PairSummary.Coverage(field: .familyShareable, compared: 1, applicable: 3, unstatedInCatalog: 2))
    }

    @Test func levelsFromTheOrderOfAListOnlyHaveToRankAlike() {
        // A plist group lists plans in order (levels 1, 2, 3); the configuration writes 1, 2, 2.
        let written: [Product] = [
            .subscription("p.a", group: "G", level: 1), .subscription("p.b", group: "G", level: 2), .subscription("p.c", group: "G", level: 2),
        ]
        var ordered = written
        for index in ordered.indices {
            ordered[index].group?.level = index + 1
            ordered[index].fieldPositions[.level] = nil
        }
        let plist = Catalog(file: "P.plist", format: .propertyList, products: ordered, knownFields: [.id, .kind, .group, .level])
        let config = Catalog.config(written)
        #expect(Checker().check(configurations: [config], catalogs: [plist]).findings.isEmpty)
        #expect(Checker().check(configurations: [plist], catalogs: [config]).findings.isEmpty, "either side may be the list")
        var swapped = ordered
        swapped.swapAt(0, 2)
        for index in swapped.indices { swapped[index].group?.level = index + 1 }
        let moved = Catalog(file: "P.plist", format: .propertyList, products: swapped, knownFields: [.id, .kind, .group, .level])
        let found = pairs(Checker().check(configurations: [config], catalogs: [moved]).findings)
        #expect(!found.isEmpty && found.allSatisfy { $0.hasPrefix("level ") }, "\(found)")
    }
}
