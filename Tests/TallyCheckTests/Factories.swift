import Foundation
import TallyCheck
import TallyModel

/// Test-data factories with all-default arguments, so a test names only what it is about.
extension Product {
    static func test(
        _ id: String = "com.example.coins", kind: ProductKind = .consumable, price: String? = "0.99",
        territory: String = "USA", period: String? = nil, group: String? = nil, level: Int? = nil,
        intro: Offer? = nil, promos: [Offer] = [], family: Bool? = nil, line: Int = 1
    ) -> Product {
        let territory = Territory(territory) ?? .usa
        let prices = price.flatMap { DecimalText.parse($0) }.map {
            [Price(territory: territory, money: Money(amount: $0, currency: territory.currency), position: Position(line: line, column: 5))]
        } ?? []
        return Product(
            id: id, kind: kind, familyShareable: family, prices: prices, period: period.flatMap { Period(iso8601: $0) },
            introductoryOffer: intro, promotionalOffers: promos,
            group: group.map { GroupMembership(groupID: $0, level: level) },
            position: Position(line: line, column: 3), fieldPositions: [.level: Position(line: line, column: 9)])
    }

    static func subscription(
        _ id: String, period: String = "P1M", price: String = "4.99", group: String = "g", level: Int = 1,
        intro: Offer? = nil, promos: [Offer] = [], line: Int = 1
    ) -> Product {
        test(id, kind: .autoRenewableSubscription, price: price, period: period, group: group, level: level,
             intro: intro, promos: promos, line: line)
    }
}

extension Offer {
    static func test(_ mode: OfferMode = .freeTrial, _ period: String = "P1W", periods: Int = 1, price: String? = nil, id: String? = nil) -> Offer {
        Offer(id: id, mode: mode, period: Period(iso8601: period) ?? Period(months: 1, days: 0), periods: periods,
              price: price.flatMap { DecimalText.parse($0) }.map { Money(amount: $0, currency: "USD") })
    }
}

extension Catalog {
    static func config(_ products: [Product], file: String = "App.storekit") -> Catalog {
        Catalog(file: file, format: .storeKit, products: products, groups: groups(products))
    }

    static func server(_ products: [Product], file: String = "catalog.yaml") -> Catalog {
        Catalog(file: file, format: .tallyCatalogYAML, products: products, groups: groups(products))
    }

    private static func groups(_ products: [Product]) -> [SubscriptionGroup] {
        var order: [String] = []
        var members: [String: [String]] = [:]
        for product in products {
            guard let group = product.group?.groupID else { continue }
            if members[group] == nil { order.append(group) }
            members[group, default: []].append(product.id)
        }
        return order.map { SubscriptionGroup(id: $0, productIDs: members[$0] ?? []) }
    }
}

/// Runs the full check and returns (rule, product) pairs, sorted.
func findings(_ config: [Product], _ catalog: [Product]) -> [Finding] {
    Checker().check(configurations: [.config(config)], catalogs: [.server(catalog)]).findings
}

func pairs(_ findings: [Finding]) -> [String] {
    findings.map { "\($0.ruleID) \($0.productID ?? "-")" }.sorted()
}
