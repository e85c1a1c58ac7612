import TallyModel

// Test-data factories shared by the test targets (a test-only target, not a product): every
// argument has a default, so a test names only what it is about.

extension Product {
    /// A product priced in one territory (`price`, `territory`), or in several (`prices`,
    /// territory code → amount, placed on consecutive lines from `line`).
    public static func test(
        _ id: String = "com.example.coins", kind: ProductKind = .consumable, price: String? = "0.99",
        territory: String = "USA", prices: [String: String]? = nil, period: String? = nil, group: String? = nil,
        level: Int? = nil, intro: Offer? = nil, promos: [Offer] = [], family: Bool? = nil,
        localizations: [Localization] = [], line: Int = 1
    ) -> Product {
        let entries = prices.map { $0.sorted { $0.key < $1.key } } ?? price.map { [(key: territory, value: $0)] } ?? []
        let priced = entries.enumerated().compactMap { index, entry -> Price? in
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

    /// An auto-renewable subscription in group `group` at `level`.
    public static func subscription(
        _ id: String, period: String = "P1M", price: String = "4.99", group: String = "g", level: Int = 1,
        intro: Offer? = nil, promos: [Offer] = [], line: Int = 1
    ) -> Product {
        test(id, kind: .autoRenewableSubscription, price: price, period: period, group: group, level: level,
             intro: intro, promos: promos, line: line)
    }
}

extension Offer {
    /// An offer priced in USD (a free trial by default).
    public static func test(_ mode: OfferMode = .freeTrial, _ period: String = "P1W", periods: Int = 1, price: String? = nil, id: String? = nil) -> Offer {
        Offer(id: id, mode: mode, period: Period(iso8601: period) ?? Period(months: 1, days: 0), periods: periods,
              price: price.flatMap { DecimalText.parse($0) }.map { Money(amount: $0, currency: "USD") })
    }
}

extension Catalog {
    /// A catalogue of `products`, its groups built from their memberships.
    public static func test(_ products: [Product], file: String = "catalog.yaml", format: SourceFormat = .tallyCatalogYAML,
                            territory: Territory = .usa) -> Catalog {
        Catalog(file: file, format: format, defaultTerritory: territory, products: products, groups: groups(products))
    }

    /// A StoreKit configuration of `products`.
    public static func config(_ products: [Product], file: String = "App.storekit") -> Catalog {
        test(products, file: file, format: .storeKit)
    }

    /// A server catalogue (tally-catalog/1 YAML) of `products`.
    public static func server(_ products: [Product], file: String = "catalog.yaml") -> Catalog {
        test(products, file: file, format: .tallyCatalogYAML)
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
