import TallyModel

/// A catalogue product without a price in territories the policy requires: one finding per
/// product, naming every such territory (as a list value, so JSON, SARIF and baselines keep them
/// apart and a newly unpriced territory changes the finding).
///
/// Configured by `required_territories` in `.tally.yml`; with no territories it finds nothing.
/// Only catalogues are examined: a StoreKit configuration prices one storefront by design.
public struct UnpricedTerritoryRule: LintRule {
    public static let description = RuleDescription(
        id: .unpricedTerritory, defaultSeverity: .error,
        summary: "A catalogue product has no price in territories the policy requires (required_territories in .tally.yml); one finding per product names them all.",
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
            let missing = territories.filter { !priced.contains($0) }
            guard !missing.isEmpty else { continue }
            let message = territories.count == 1
                ? "\(product.id) has no price in \(missing[0]), which the policy requires"
                : "\(product.id) has no price in \(missing.count) of the \(territories.count) territories the policy requires: \(FindingValue.territories(missing))"
            findings.append(Finding(
                ruleID: Self.description.id, severity: Self.description.defaultSeverity, productID: product.id,
                field: .prices, message: message,
                left: FindingSide(role: nil, value: .territories(missing), location: catalog.location(product.position(of: .prices)))))
        }
    }
}
