import TallyModel

/// A product the app's configuration sells that the catalogue does not know.
public struct MissingInCatalogRule: ComparisonRule {
    public static let description = RuleDescription(
        id: "missing-in-catalog", defaultSeverity: .error,
        summary: "A product in the StoreKit configuration is missing from the catalogue.", category: "cross-source",
        rationale: "The app sells a product the server does not know: a purchase the user pays for may never be granted, or receipt validation rejects it.",
        fix: "Add the product to the catalogue with exactly the same ID, or remove it from the StoreKit configuration if the app no longer sells it. When a hint names a near-identical ID, one side has a typo: correct it.")

    public init() {}

    public func evaluate(_ comparison: Comparison, findings: inout [Finding], checked: inout CheckedLog) {
        let unmatchedOther = NearMatch.Index(comparison.catalog.products.map(\.id).filter { comparison.configProducts[$0] == nil })
        var reported = Set<String>()
        for product in comparison.configuration.products {
            checked.append(CheckedSubject(ruleID: Self.description.id, subject: product.id,
                                          location: comparison.configuration.location(of: product, .id)))
            guard comparison.catalogProducts[product.id] == nil, reported.insert(product.id).inserted else { continue }
            let location = comparison.configuration.location(of: product, .id)
            let near = unmatchedOther.best(for: product.id)
            findings.append(Finding(
                ruleID: Self.description.id, severity: Self.description.defaultSeverity, productID: product.id, field: .id,
                message: "\(product.id) is in the configuration but not in the catalogue",
                left: FindingSide(role: "configuration", value: product.id, location: location),
                right: FindingSide(role: "catalog", value: nil, location: SourceLocation(file: comparison.catalog.file)),
                hint: near.map { "did you mean \($0)? (the catalogue has it, and the configuration does not)" }))
        }
    }
}

/// A product the catalogue grants that the app's configuration does not sell.
public struct MissingInConfigRule: ComparisonRule {
    public static let description = RuleDescription(
        id: "missing-in-config", defaultSeverity: .error,
        summary: "A product in the catalogue is missing from the StoreKit configuration.", category: "cross-source",
        rationale: "The server grants a product the app's configuration does not sell: StoreKit testing cannot exercise it, and the app may still reference a retired product or miss a new one.",
        fix: "Add the product to the .storekit configuration, or remove it from the catalogue if it is retired. When a hint names a near-identical ID, one side has a typo: correct it.")

    public init() {}

    public func evaluate(_ comparison: Comparison, findings: inout [Finding], checked: inout CheckedLog) {
        let unmatchedOther = NearMatch.Index(comparison.configuration.products.map(\.id).filter { comparison.catalogProducts[$0] == nil })
        var reported = Set<String>()
        for product in comparison.catalog.products {
            checked.append(CheckedSubject(ruleID: Self.description.id, subject: product.id,
                                          location: comparison.catalog.location(of: product, .id)))
            guard comparison.configProducts[product.id] == nil, reported.insert(product.id).inserted else { continue }
            let location = comparison.catalog.location(of: product, .id)
            let near = unmatchedOther.best(for: product.id)
            findings.append(Finding(
                ruleID: Self.description.id, severity: Self.description.defaultSeverity, productID: product.id, field: .id,
                message: "\(product.id) is in the catalogue but not in the configuration",
                left: FindingSide(role: "configuration", value: nil, location: SourceLocation(file: comparison.configuration.file)),
                right: FindingSide(role: "catalog", value: product.id, location: location),
                hint: near.map { "did you mean \($0)? (the configuration has it, and the catalogue does not)" }))
        }
    }
}
