import TallyModel

/// Prices, the field a check is most trusted for, were compared for none of the products both
/// sources hold, although both sources state prices: no storefront or territory is priced on
/// both sides. Without this warning the summary would read `✔` while no price was compared.
///
/// Sources that cannot state prices at all (a property list) are not reported: the comparison
/// line already says "the property list has no prices" on every run. Nor are products whose
/// price tiers were compared on both sides (`price-tier`).
public struct PricesNotComparedRule: ComparisonRule {
    public static let description = describe(
        id: .pricesNotCompared, defaultSeverity: .warning,
        summary: "Both sources state prices, but prices were compared for none of the products in both: no storefront or territory is priced on both sides.",
        rationale: "A check that compared no price passes whatever the prices are: without this warning, a ✔ would hide that the field users pay by was never compared (a StoreKit file priced for USA beside a catalogue priced only in other territories, or two StoreKit files of different storefronts).",
        fix: "Price the configuration's storefront (its settings._storefront; USA when absent) in the catalogue, or make the catalogue's default_territory and prices the storefront the StoreKit file uses. Two StoreKit files of different storefronts are not compared by price: compare each with the catalogue ('tally diff' shows their prices side by side).")

    public init() {}

    public func evaluate(_ comparison: Comparison, findings: inout [Finding], checked: inout CheckedLog) {
        guard comparison.bothKnow(.prices), let first = comparison.pairs.first else { return }
        let coverage = PairSummary.count(.prices, in: comparison)
        guard coverage.compared == 0, coverage.applicable > 0 else { return }
        // Price tiers on both sides stand for prices everywhere: `price-tier` compared them.
        guard !comparison.pairs.contains(where: { $0.config.priceTier != nil && $0.catalog.priceTier != nil }) else { return }
        let left = Self.territories(comparison.pairs.map(\.config))
        let right = Self.territories(comparison.pairs.map(\.catalog))
        let products = coverage.applicable == 1 ? "the 1 product" : "any of the \(coverage.applicable) products"
        let message: FindingMessage = "prices were compared for none of the \(count: coverage.applicable) product\(words: coverage.applicable == 1 ? "" : "s") in both "
            + "\(source: comparison.configuration.file) and \(source: comparison.catalog.file): \(Self.why(comparison, left: left, right: right, products: products))"
        findings.append(Finding(
            ruleID: Self.description.id, severity: Self.description.defaultSeverity, productID: nil, field: .prices, message: message,
            left: FindingSide(role: comparison.configRole, store: comparison.configStore, value: left.isEmpty ? nil : .territories(left),
                              location: comparison.configuration.location(first.config.position(of: .prices), path: first.config.path(of: .prices))),
            right: FindingSide(role: comparison.catalogRole, store: comparison.catalogStore, value: right.isEmpty ? nil : .territories(right),
                               location: comparison.catalog.location(first.catalog.position(of: .prices), path: first.catalog.path(of: .prices)))))
    }

    /// Why nothing was compared, in words that name both sides' territories.
    static func why(_ comparison: Comparison, left: [Territory], right: [Territory], products: String) -> FindingMessage {
        let (here, there) = (comparison.configNoun, comparison.catalogNoun)
        if let other = comparison.otherStorefront {
            return "\(source: here) prices storefront \(comparison.territory) and \(source: there) storefront \(other), each in its own currency, "
                + "and prices of different storefronts are not compared"
        }
        if comparison.comparesEveryTerritory {
            return "\(source: here) prices \(words(left)) and \(source: there) prices \(words(right)): no territory is priced on both sides"
        }
        return "\(source: here) states no price in its storefront \(comparison.territory) for \(words: products)"
            + (right.isEmpty ? "" :  " (\(source: there) prices \(words(right)))" as FindingMessage)
    }

    /// Every territory the products price, in order of first appearance.
    static func territories(_ products: [Product]) -> [Territory] {
        var seen = Set<Territory>()
        var result: [Territory] = []
        for product in products {
            for price in product.prices where seen.insert(price.territory).inserted { result.append(price.territory) }
        }
        return result
    }

    /// "DEU, FRA" or, for a long list, "DEU, FRA, GBR and 40 more"; "nothing" when empty.
    private static func words(_ territories: [Territory]) -> FindingMessage {
        guard !territories.isEmpty else { return "nothing" }
        return territories.count <= 6 ? "\(territories)" : "\(Array(territories.prefix(5))) and \(count: territories.count - 5) more"
    }
}
