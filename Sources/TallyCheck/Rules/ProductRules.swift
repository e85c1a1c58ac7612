import TallyModel

/// The same ID is a different kind of product on each side.
public struct KindRule: ProductPairRule {
    public static let description = RuleDescription(
        id: "kind", defaultSeverity: .error,
        summary: "The product kind (consumable, non-consumable, subscription) differs.", category: "cross-source")

    public init() {}

    public func applies(to config: Product, _ catalog: Product, in comparison: Comparison) -> Bool {
        comparison.bothKnow(.kind)
    }

    public func compare(_ config: Product, _ catalog: Product, in comparison: Comparison) -> [Finding] {
        guard config.kind != catalog.kind else { return [] }
        return [finding(config.id, .kind, "\(config.id) is \(config.kind) in the configuration but \(catalog.kind) in the catalogue",
                        left: comparison.configSide(config, .kind, value: config.kind.rawValue),
                        right: comparison.catalogSide(catalog, .kind, value: catalog.kind.rawValue))]
    }
}

/// The price in the configuration's storefront differs from the catalogue's price there.
public struct PriceRule: ProductPairRule {
    public static let description = RuleDescription(
        id: "price", defaultSeverity: .error,
        summary: "The price in the configuration's storefront differs, or the catalogue has no price there.", category: "cross-source")

    public init() {}

    public func applies(to config: Product, _ catalog: Product, in comparison: Comparison) -> Bool {
        comparison.bothKnow(.prices) && config.price(in: comparison.territory) != nil
    }

    public func compare(_ config: Product, _ catalog: Product, in comparison: Comparison) -> [Finding] {
        let territory = comparison.territory
        guard let configPrice = config.price(in: territory) else { return [] }
        let left = comparison.configSide(config, .prices, value: configPrice.money.description, position: configPrice.position)
        guard let catalogPrice = catalog.price(in: territory) else {
            return [finding(config.id, .prices,
                            "\(config.id) costs \(configPrice.money) in \(territory) in the configuration, but the catalogue has no \(territory) price",
                            left: left, right: comparison.catalogSide(catalog, .prices, value: nil), territory: territory)]
        }
        guard configPrice.money.amount != catalogPrice.money.amount else { return [] }
        return [finding(config.id, .prices,
                        "\(config.id) costs \(configPrice.money) in \(territory) in the configuration but \(catalogPrice.money) in the catalogue",
                        left: left,
                        right: comparison.catalogSide(catalog, .prices, value: catalogPrice.money.description, position: catalogPrice.position),
                        territory: territory)]
    }
}

/// Family sharing is on for one side and off for the other.
public struct FamilySharingRule: ProductPairRule {
    public static let description = RuleDescription(
        id: "family-sharing", defaultSeverity: .warning,
        summary: "Family sharing is enabled on one side and not the other.", category: "cross-source")

    public init() {}

    public func applies(to config: Product, _ catalog: Product, in comparison: Comparison) -> Bool {
        comparison.bothKnow(.familyShareable) && config.familyShareable != nil && catalog.familyShareable != nil
    }

    public func compare(_ config: Product, _ catalog: Product, in comparison: Comparison) -> [Finding] {
        guard let left = config.familyShareable, let right = catalog.familyShareable, left != right else { return [] }
        func words(_ value: Bool) -> String { value ? "shareable" : "not shareable" }
        return [finding(config.id, .familyShareable,
                        "\(config.id) is \(words(left)) with family in the configuration but \(words(right)) in the catalogue",
                        left: comparison.configSide(config, .familyShareable, value: String(left)),
                        right: comparison.catalogSide(catalog, .familyShareable, value: String(right)))]
    }
}
