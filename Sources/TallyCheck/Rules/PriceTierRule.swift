import TallyModel

/// Both sides give App Store price tiers (an App Store package's `wholesale_price_tier`, a
/// property list's `Tier`) and the tiers differ. A tier is never compared with an amount.
public struct PriceTierRule: ProductPairRule {
    public static let description = describe(
        id: .priceTier, defaultSeverity: .error,
        summary: "The App Store price tier differs (compared only where both sources give tiers).",
        rationale: "A tier stands for a whole ladder of prices in every storefront: two sources on different tiers charge different amounts everywhere, even where no amount is written down to compare.",
        fix: "Set the same tier on both sides, or give --price-tiers FILE so that tiers become amounts and the price rule compares them in each territory.")

    public init() {}

    public func applies(to config: Product, _ catalog: Product, in comparison: Comparison) -> Bool {
        config.priceTier != nil && catalog.priceTier != nil
    }

    public func compare(_ config: Product, _ catalog: Product, in comparison: Comparison) -> [Finding] {
        guard let left = config.priceTier, let right = catalog.priceTier, left != right else { return [] }
        return [finding(config.id, .prices, "\(product: config.id) is price tier \(count: left) in \(source: comparison.configNoun) but tier \(count: right) in \(source: comparison.catalogNoun)",
                        left: comparison.configSide(config, .prices, value: "tier \(left)"),
                        right: comparison.catalogSide(catalog, .prices, value: "tier \(right)"))]
    }
}
