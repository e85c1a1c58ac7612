import TallyDiff
import TallyModel

/// Test-data factories with all-default arguments, so a test names only what it is about.
extension Product {
    static func test(
        _ id: String = "com.example.coins", kind: ProductKind = .consumable, prices: [String: String] = ["USA": "0.99"],
        period: String? = nil, group: String? = nil, level: Int? = nil, intro: Offer? = nil, promos: [Offer] = [],
        family: Bool? = nil, localizations: [Localization] = [], line: Int = 1
    ) -> Product {
        let priced = prices.sorted { $0.key < $1.key }.enumerated().compactMap { index, entry -> Price? in
            guard let territory = Territory(entry.key), let amount = DecimalText.parse(entry.value) else { return nil }
            return Price(territory: territory, money: Money(amount: amount, currency: territory.currency),
                         position: Position(line: line + index, column: 5))
        }
        return Product(
            id: id, kind: kind, familyShareable: family, localizations: localizations, prices: priced,
            period: period.flatMap { Period(iso8601: $0) }, introductoryOffer: intro, promotionalOffers: promos,
            group: group.map { GroupMembership(groupID: $0, level: level) },
            position: Position(line: line, column: 3), fieldPositions: [.level: Position(line: line, column: 9)])
    }

    static func subscription(
        _ id: String, period: String = "P1M", price: String = "4.99", group: String = "g", level: Int = 1,
        intro: Offer? = nil, promos: [Offer] = [], line: Int = 1
    ) -> Product {
        test(id, kind: .autoRenewableSubscription, prices: ["USA": price], period: period, group: group, level: level,
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
    /// A catalogue of `products`, its groups built from their memberships.
    static func test(_ products: [Product], file: String = "catalog.yaml", format: SourceFormat = .tallyCatalogYAML,
                     territory: Territory = .usa) -> Catalog {
        var order: [String] = []
        var members: [String: [String]] = [:]
        for product in products {
            guard let group = product.group?.groupID else { continue }
            if members[group] == nil { order.append(group) }
            members[group, default: []].append(product.id)
        }
        return Catalog(file: file, format: format, defaultTerritory: territory, products: products,
                       groups: order.map { SubscriptionGroup(id: $0, productIDs: members[$0] ?? []) })
    }
}

/// Diffs two product lists.
func diff(_ old: [Product], _ new: [Product]) -> CatalogDiff {
    CatalogDiffer().diff(old: .test(old, file: "old.yaml"), new: .test(new, file: "new.yaml"))
}

/// `path: action` for every change, in report order.
func lines(_ diff: CatalogDiff) -> [String] {
    diff.allChanges.map { "\($0.path): \($0.action)" }
}
