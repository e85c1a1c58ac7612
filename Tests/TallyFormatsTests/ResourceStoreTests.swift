import Testing
import TallyModel
@testable import TallyFormats

/// How an export's pages are linked: relationships, related-list URLs and back-links.
@Suite struct ResourceStoreTests {
    @Test(arguments: [
        ("/v1/subscriptions/644/prices?include=territory", "subscriptions 644", "prices"),
        ("https://api.appstoreconnect.apple.com/v1/inAppPurchasePriceSchedules/645/manualPrices", "inAppPurchasePriceSchedules 645", "manualPrices"),
        ("https://api.appstoreconnect.apple.com/v1/subscriptionGroups/21/relationships/subscriptions", "subscriptionGroups 21", "subscriptions"),
        ("https://api.appstoreconnect.apple.com/v2/inAppPurchases/7/iapPriceSchedule", "inAppPurchases 7", "iapPriceSchedule"),
    ])
    func relatedListLinksNameTheirParent(_ link: String, parent: String, relationship: String) throws {
        let found = try #require(ResourceStore.parent(of: link))
        #expect(found.key.description == parent)
        #expect(found.relationship == relationship)
    }

    @Test(arguments: ["/v1/subscriptionGroups?limit=50&cursor=AB", "/v1/subscriptions/644", "not a url", "/v1/subscriptionPrices"])
    func listsOfTheirOwnHaveNoParent(_ link: String) {
        #expect(ResourceStore.parent(of: link) == nil)
    }

    @Test func aPageLinksItsResourcesToTheParentItsURLNames() {
        var store = ResourceStore()
        var page = JSONAPIPage(selfLink: "https://api.appstoreconnect.apple.com/v1/subscriptions/644/prices")
        page.resources = [Resource(key: ResourceKey(type: "subscriptionPrices", id: "p1"), position: Position(line: 3, column: 5), isPrimary: true),
                          Resource(key: ResourceKey(type: "territories", id: "USA"), position: Position(line: 9, column: 5), isPrimary: false)]
        store.add(page)
        let subscription = ResourceKey(type: "subscriptions", id: "644")
        #expect(store[subscription]?.relationships["prices"] == [ResourceKey(type: "subscriptionPrices", id: "p1")])
        #expect(store.owners(of: ResourceKey(type: "subscriptionPrices", id: "p1"), type: "subscriptions", via: "prices").map(\.key) == [subscription])
    }

    @Test func aCopyFromDataWinsOverOneFromIncluded() {
        var store = ResourceStore()
        let key = ResourceKey(type: "subscriptions", id: "1")
        let attribute = { (text: String, line: Int) in Attribute(value: .string(text), position: Position(line: line, column: 1)) }
        store.add(Resource(key: key, attributes: ["name": attribute("old", 40), "state": attribute("APPROVED", 41)], position: Position(line: 39, column: 1), isPrimary: false))
        store.add(Resource(key: key, attributes: ["name": attribute("new", 120)], position: Position(line: 118, column: 1), isPrimary: true))
        #expect(store[key]?.attributes["name"]?.string == "new")
        #expect(store[key]?.attributes["state"]?.string == "APPROVED", "gaps are filled from the other copy")
        #expect(store[key]?.position.line == 118)
        #expect(store.order == [key])
    }
}
