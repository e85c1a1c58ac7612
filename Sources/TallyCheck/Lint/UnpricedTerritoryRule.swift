import TallyModel

/// A catalogue product without a price in a territory the policy requires.
///
/// Configured by `required_territories` in `.tally.yml`; with no territories it finds nothing.
/// Only catalogues are examined: a StoreKit configuration prices one storefront by design.
public struct UnpricedTerritoryRule: LintRule {
    public static let description = RuleDescription(
        id: "unpriced-territory", defaultSeverity: .error,
        summary: "A catalogue product has no price in a territory the policy requires (required_territories in .tally.yml).",
        category: "lint",
        rationale: "A product without a price in a storefront cannot be sold there, or the server falls back to a price that is not the store's.",
        fix: "Add the missing price to the catalogue, or take the territory out of required_territories; for a product not sold there on purpose, add an ignore with the reason.")

    /// The territories every catalogue product must be priced in, in report order.
    public var territories: [Territory]

    public init(territories: [Territory] = []) {
        self.territories = territories
    }

    public func lint(_ catalog: Catalog, findings: inout [Finding], checked: inout CheckedLog) {
        guard !territories.isEmpty, catalog.format.role == .catalog else { return }
        for product in catalog.products {
            markChecked(catalog, product, &checked)
            let priced = Set(product.prices.map(\.territory))
            for territory in territories where !priced.contains(territory) {
                findings.append(Finding(
                    ruleID: Self.description.id, severity: Self.description.defaultSeverity, productID: product.id,
                    territory: territory, field: .prices,
                    message: "\(product.id) has no price in \(territory), which the policy requires",
                    left: FindingSide(role: nil, value: nil as FindingValue?, location: catalog.location(product.position(of: .prices)))))
            }
        }
    }
}
