import Foundation
import Testing
import TallyModel
@testable import TallyReport

/// Issue 38: `tally show --format json` carries every field the model holds. A product with every
/// field set is encoded through the model's own `Codable` (every stored field, by name); each name
/// must map to a key of the show document, or be listed as a location (where a value was written,
/// which findings carry, not what the product is). A field added to the model without a key here
/// fails this test.
@Suite struct ShowJSONCompletenessTests {
    /// Model field → the show-json keys that carry it.
    static let shown: [String: [String]] = [
        "id": ["id"], "kind": ["kind"], "referenceName": ["reference_name"], "familyShareable": ["family_shareable"],
        "localizations": ["localizations"], "prices": ["prices", "currencies", "price_origins"], "period": ["period"],
        "introductoryOffer": ["introductory_offer"], "otherIntroductoryOffers": ["other_introductory_offers"],
        "promotionalOffers": ["promotional_offers"], "codeOffers": ["code_offers"], "winbackOffers": ["winback_offers"],
        "billingPlans": ["billing_plans"], "group": ["group", "group_name", "level"], "priceTier": ["price_tier"],
        "storeIDs": ["google_play"], "soleStore": ["google_play_only"], "availability": ["availability"],
        "storeState": ["state"], "members": ["members"], "position": ["line"],
        "seatTiers": ["seat_tiers"], "multiSeatStatus": ["multi_seat"], "marketSettings": ["market_settings"],
    ]
    /// Where values were written: findings and `diff` carry them, the product document does not.
    static let locations: Set<String> = ["fieldPositions", "path", "fieldPaths"]

    static func everyField() -> Product {
        let usa = Territory("USA")!
        let money = Money(amount: Decimal(string: "4.99")!, currency: "USD")
        let offer = Offer(id: "o", mode: .freeTrial, period: Period(iso8601: "P1W")!, periods: 1, price: nil)
        var product = Product(
            id: "com.example.suite", kind: .subscriptionSuite, referenceName: "Suite", familyShareable: true,
            localizations: [Localization(locale: "en_US")], prices: [Price(territory: usa, money: money, origin: .manual)],
            period: Period(iso8601: "P1M"), introductoryOffer: offer, otherIntroductoryOffers: [offer], promotionalOffers: [offer],
            codeOffers: [offer], winbackOffers: [offer],
            billingPlans: [BillingPlan(type: "BILLED_UPFRONT", price: money, commitmentPrice: money, isEnabled: true, prices: [Price(territory: usa, money: money)])],
            group: GroupMembership(groupID: "g", groupName: "G", level: 1), position: Position(line: 3, column: 1),
            fieldPositions: [.id: Position(line: 3, column: 5)], path: "[0]", fieldPaths: [.id: "[0].id"])
        product.localizations[0].displayName = "Suite"
        product.priceTier = 5
        product.storeIDs[.googlePlay] = "suite:monthly"
        product.soleStore = .googlePlay
        product.availability = Availability(territories: [usa])
        product.storeState = "APPROVED"
        product.members = ["com.example.a"]
        product.seatTiers = [SeatTier(minimumSeats: 1, maximumSeats: 5, prices: [Price(territory: usa, money: money)]),
                             SeatTier(minimumSeats: 6, prices: [Price(territory: usa, money: money)])]
        product.multiSeatStatus = .enabled
        product.marketSettings = [.appStore]
        return product
    }

    @Test func everyModelFieldHasAShowKey() throws {
        let product = Self.everyField()
        let encoded = try JSONEncoder().encode(product)
        let fields = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any]).keys
        let unaccounted = Set(fields).subtracting(Self.shown.keys).subtracting(Self.locations)
        #expect(unaccounted.isEmpty, "model fields with no key in show --format json: \(unaccounted.sorted()); add them to CatalogDocument, CatalogJSON, docs/show-json.md and this table")

        let catalog = Catalog(file: "every.json", format: .tallyCatalogJSON, products: [product], knownFields: Set(Field.allCases))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(CatalogDocument(catalog).json().utf8)) as? [String: Any])
        let shown = try #require((document["products"] as? [[String: Any]])?.first)
        for field in fields where !Self.locations.contains(field) {
            for key in Self.shown[field] ?? [] {
                #expect(shown[key] != nil, "\(field) is not shown under \(key)")
            }
        }
        // The streaming writer gives the same bytes.
        var sink = ByteSink()
        CatalogJSON.write(catalog, to: &sink)
        #expect(sink.bytes == Array((CatalogDocument(catalog).json() + "\n").utf8))
    }

    /// docs/show-json.md names every product key the document has.
    @Test func theShowJSONPageNamesEveryKey() throws {
        let page = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/show-json.md"), encoding: .utf8)
        for key in Set(Self.shown.values.flatMap { $0 }) {
            #expect(page.contains("`products[].\(key)`"), "docs/show-json.md does not name products[].\(key)")
        }
    }
}
