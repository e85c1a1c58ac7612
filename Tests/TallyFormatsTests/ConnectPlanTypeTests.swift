import Foundation
import Testing
import TallyFormats
import TallyModel

/// API 4.4's `planType` read tolerantly: `UPFRONT` and `MONTHLY` become the subscription's billing
/// plans; any other type is named, by resource, and its prices, territories and offers are left out,
/// never taken for the up-front plan's.
@Suite struct ConnectPlanTypeTests {
    static func pages(monthly plan: String) -> [String: String] {
        let api = "https://api.appstoreconnect.apple.com"
        func price(_ id: String, _ planType: String, _ point: String) -> String {
            #"{"type": "subscriptionPrices", "id": "\#(id)", "attributes": {"startDate": null, "preserved": false, "planType": "\#(planType)"}, "relationships": {"territory": {"data": {"type": "territories", "id": "USA"}}, "subscriptionPricePoint": {"data": {"type": "subscriptionPricePoints", "id": "\#(point)"}}}}"#
        }
        return [
            "a-subscriptions.json": """
            {"data": [{"type": "subscriptions", "id": "7", "attributes": {"productId": "com.a.pro", "state": "APPROVED", "subscriptionPeriod": "ONE_YEAR"}}],
             "links": {"self": "\(api)/v1/subscriptionGroups/3/subscriptions"}}
            """,
            "b-prices.json": """
            {"data": [\(price("up", "UPFRONT", "p59")), \(price("mo", plan, "p6"))],
             "included": [{"type": "subscriptionPricePoints", "id": "p59", "attributes": {"customerPrice": "59.99"}},
                          {"type": "subscriptionPricePoints", "id": "p6", "attributes": {"customerPrice": "6.99"}},
                          {"type": "territories", "id": "USA", "attributes": {"currency": "USD"}}],
             "links": {"self": "\(api)/v1/subscriptions/7/prices?include=subscriptionPricePoint,territory"}}
            """,
            "c-plan-availabilities.json": """
            {"data": [{"type": "subscriptionPlanAvailabilities", "id": "pa-up", "attributes": {"planType": "UPFRONT", "availableInNewTerritories": true}},
                      {"type": "subscriptionPlanAvailabilities", "id": "pa-mo", "attributes": {"planType": "\(plan)", "availableInNewTerritories": true}}],
             "links": {"self": "\(api)/v1/subscriptions/7/planAvailabilities"}}
            """,
            "d-up-territories.json": """
            {"data": [{"type": "territories", "id": "USA"}], "links": {"self": "\(api)/v1/subscriptionPlanAvailabilities/pa-up/availableTerritories"}}
            """,
            "e-mo-territories.json": """
            {"data": [{"type": "territories", "id": "USA"}], "links": {"self": "\(api)/v1/subscriptionPlanAvailabilities/pa-mo/availableTerritories"}}
            """,
            "f-introductory-offers.json": """
            {"data": [{"type": "subscriptionIntroductoryOffers", "id": "io", "attributes": {"offerMode": "FREE_TRIAL", "duration": "ONE_WEEK", "numberOfPeriods": 1, "planType": "\(plan)"},
                       "relationships": {"territory": {"data": {"type": "territories", "id": "USA"}}}}],
             "links": {"self": "\(api)/v1/subscriptions/7/introductoryOffers"}}
            """,
        ]
    }

    static func read(monthly plan: String) throws -> Catalog {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-plans-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, text) in pages(monthly: plan) { try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return try SourceLoader.load(path: directory.path)
    }

    @Test func bothPlansAreReadWithTheirPricesAndTerritories() throws {
        let catalog = try Self.read(monthly: "MONTHLY")
        #expect(catalog.issues.isEmpty, "\(catalog.issues)")
        let product = try #require(catalog.products.first)
        #expect(product.billingPlans.map(\.type) == ["UPFRONT", "MONTHLY"])
        #expect(product.billingPlans.last?.price(in: .usa)?.amount == Decimal(string: "6.99"))
        #expect(product.billingPlans.last?.isEnabled == true && product.billingPlans.last?.commitment == Period(iso8601: "P12M"))
        #expect(product.price(in: .usa)?.money.amount == Decimal(string: "59.99"))
        #expect(product.otherIntroductoryOffers.first?.billingPlanType == "MONTHLY")
    }

    @Test func anUnknownPlanTypeIsNamedAndLeftOut() throws {
        let catalog = try Self.read(monthly: "QUARTERLY")
        let messages = catalog.issues.map(\.message)
        #expect(messages.count == 3, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("subscriptionPrices mo has planType \"QUARTERLY\", a billing plan Tally does not know (expected UPFRONT or MONTHLY)") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("subscriptionPlanAvailabilities pa-mo has planType \"QUARTERLY\"") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("subscriptionIntroductoryOffers io has planType \"QUARTERLY\"") }, "\(messages)")
        #expect(catalog.issues.allSatisfy { $0.rule == .invalidPrice && $0.productID == "com.a.pro" && $0.field == .billingPlans })
        let product = try #require(catalog.products.first)
        // The up-front plan alone, at its own price: the QUARTERLY price is not taken for it, nor its offer for the introductory offer.
        #expect(product.billingPlans.map(\.type) == ["UPFRONT"])
        #expect(product.price(in: .usa)?.money.amount == Decimal(string: "59.99"))
        #expect(product.introductoryOffer == nil && product.otherIntroductoryOffers.isEmpty)
    }
}
