import TallyModel

/// Every rule Tally knows, in report order. A plain list, not a global registry.
public enum RuleSet {
    public static let comparisonRules: [any ComparisonRule] = [
        MissingInCatalogRule(), MissingInConfigRule(), KindRule(), PriceRule(), PeriodRule(), IntroOfferRule(),
        PromotionalOfferRule(), GroupRule(), LevelRule(), FamilySharingRule(),
    ]

    public static let lintRules: [any LintRule] = [
        DuplicateIDRule(), InvalidIDRule(), SubscriptionWithoutGroupRule(), GroupIDMismatchRule(), DisallowedPeriodRule(),
        InvalidPeriodRule(), InvalidPriceRule(), NegativePriceRule(), FreeTrialWithPriceRule(), InvalidOfferRule(),
        UnpricedTerritoryRule(),
    ]

    /// Descriptions of every rule, cross-source first.
    public static var descriptions: [RuleDescription] {
        comparisonRules.map { type(of: $0).description } + lintRules.map { type(of: $0).description }
    }

    public static func description(of id: String) -> RuleDescription? {
        descriptions.first { $0.id == id }
    }
}

/// Runs lint on every source and compares every configuration with every catalogue.
public struct Checker: Sendable {
    public var comparisonRules: [any ComparisonRule]
    public var lintRules: [any LintRule]
    /// Subscription groups to pair explicitly (from the policy), before matching by members.
    public var groupCorrespondences: [GroupCorrespondence]

    public init(comparisonRules: [any ComparisonRule] = RuleSet.comparisonRules, lintRules: [any LintRule] = RuleSet.lintRules,
                groupCorrespondences: [GroupCorrespondence] = []) {
        self.comparisonRules = comparisonRules
        self.lintRules = lintRules
        self.groupCorrespondences = groupCorrespondences
    }

    /// Lint only.
    public func lint(_ catalogs: [Catalog]) -> CheckResult {
        var result = CheckResult(sources: catalogs.map(\.file))
        for catalog in catalogs {
            for rule in lintRules { rule.lint(catalog, findings: &result.findings, checked: &result.checked) }
        }
        return result
    }

    /// Lint every source, then compare each configuration with each catalogue.
    ///
    /// With several configurations (or catalogues), a product counts as missing only when no
    /// source on that side has it, and is reported once.
    public func check(configurations: [Catalog], catalogs: [Catalog]) -> CheckResult {
        var result = lint(configurations + catalogs)
        let configIDs = Set(configurations.flatMap { $0.products.map(\.id) })
        let catalogIDs = Set(catalogs.flatMap { $0.products.map(\.id) })
        var reportedMissing = Set<String>()
        for configuration in configurations {
            for catalog in catalogs {
                var comparison = Comparison(configuration: configuration, catalog: catalog)
                comparison.groupCorrespondences = groupCorrespondences
                result.comparisons.append(Checker.describe(comparison))
                var findings: [Finding] = []
                for rule in comparisonRules { rule.evaluate(comparison, findings: &findings, checked: &result.checked) }
                for finding in findings {
                    if finding.ruleID == MissingInCatalogRule.description.id || finding.ruleID == MissingInConfigRule.description.id {
                        let id = finding.productID ?? ""
                        let elsewhere = finding.ruleID == MissingInCatalogRule.description.id ? catalogIDs : configIDs
                        guard !elsewhere.contains(id), reportedMissing.insert("\(finding.ruleID) \(id)").inserted else { continue }
                    }
                    result.findings.append(finding)
                }
            }
        }
        return result
    }

    /// "App.storekit (USA) vs catalog.yaml: 14 products in both; compared: ..."
    static func describe(_ comparison: Comparison) -> String {
        let fields = Field.allCases.filter { comparison.bothKnow($0) && $0 != .id && $0 != .localizations && $0 != .referenceName && $0 != .codeOffers }
        return "\(comparison.configuration.file) (storefront \(comparison.territory)) vs \(comparison.catalog.file): "
            + "\(comparison.sharedIDs.count) products in both; compared \(fields.map(\.rawValue).joined(separator: ", "))"
    }
}
