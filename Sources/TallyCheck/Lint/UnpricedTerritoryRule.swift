import TallyModel

/// A product without a price in a territory where it must have one: a territory the policy
/// requires (`required_territories` in `.tally.yml`), or one where the store sells it (a store
/// snapshot's availability, App Store Connect's `availableTerritories`). One finding per product,
/// naming every such territory (as a list value, so JSON, SARIF and baselines keep them apart and
/// a newly unpriced territory changes the finding).
///
/// Every catalogue-side source is examined: server catalogues, spreadsheets and the stores' own
/// exports and snapshots. A StoreKit configuration prices one storefront by design and is not.
public struct UnpricedTerritoryRule: LintRule {
    public static let description = describe(
        id: .unpricedTerritory, defaultSeverity: .error,
        summary: "A product has no price in territories where the store sells it (a snapshot's availability) or that the policy requires (required_territories in .tally.yml); one finding per product names them all.",
        rationale: "A product sold in a storefront without a price there cannot be bought there and keeps its submission from App Store review (Missing Metadata); without a price the server falls back to one that is not the store's.",
        fix: "Price the product in those territories (in App Store Connect, or in the catalogue), or take them out of its availability or of required_territories; for a product not sold there on purpose, add an ignore with the reason.")

    /// The territories every catalogue product must be priced in, in report order.
    public var territories: [Territory]

    public init(territories: [Territory] = []) {
        self.territories = territories
    }

    public func lint(_ catalog: Catalog, findings: inout [Finding], checked: inout CheckedLog) {
        // An App Store Connect catalog report holds no prices at all: it cannot show one missing.
        guard catalog.format.role == .catalog, catalog.format.holdsPrices else { return }
        for product in catalog.products {
            let sold = product.availability?.territories ?? []
            guard !territories.isEmpty || !sold.isEmpty else { continue }
            markChecked(catalog, product, &checked)
            let priced = Set(product.prices.map(\.territory))
            let required = territories.filter { !priced.contains($0) }
            let unsold = sold.filter { !priced.contains($0) && !required.contains($0) }
            let missing = required + unsold
            guard !missing.isEmpty else { continue }
            var parts: [FindingMessage] = []
            if !required.isEmpty {
                parts.append(territories.count == 1 && unsold.isEmpty
                    ? "\(product: product.id) has no price in \(required[0]), which the policy requires"
                    : "\(product: product.id) has no price in \(count: required.count) of the \(count: territories.count) territories the policy requires: \(required)")
            }
            if !unsold.isEmpty {
                let count = sold.count
                let text: FindingMessage = "no price in \(count: unsold.count) of the \(count: count) territor\(words: count == 1 ? "y" : "ies") where the store sells it: \(unsold)"
                parts.append(required.isEmpty ? "\(product: product.id) is sold without a price: \(text)" : "and \(text)")
            }
            let position = unsold.isEmpty ? product.position(of: .prices) : (product.availability?.position ?? product.position(of: .prices))
            findings.append(Finding(
                ruleID: Self.description.id, severity: Self.description.defaultSeverity, productID: product.id,
                field: .prices, message: FindingMessage.joined(parts, separator: "; "),
                left: FindingSide(role: nil, value: .territories(missing), location: catalog.location(position))))
        }
    }
}

extension UnpricedTerritoryRule {
    /// The policy's required territories.
    public func configured(by policy: Policy) -> any LintRule { UnpricedTerritoryRule(territories: policy.requiredTerritories) }
}
