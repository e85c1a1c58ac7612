import TallyCheck
import TallyModel
import TallyTestSupport

// The model factories (`Product.test`, `Offer.test`, `Catalog.config`, ...) are TallyTestSupport's.

/// Runs the full check and returns (rule, product) pairs, sorted.
func findings(_ config: [Product], _ catalog: [Product]) -> [Finding] {
    Checker().check(configurations: [.config(config)], catalogs: [.server(catalog)]).findings
}

func pairs(_ findings: [Finding]) -> [String] {
    findings.map { "\($0.ruleID) \($0.productID ?? "-")" }.sorted()
}

extension LintRule {
    /// What the rule finds in one source, on its own.
    func findings(in catalog: Catalog) -> [Finding] {
        var findings: [Finding] = []
        var checked = CheckedLog()
        lint(catalog, findings: &findings, checked: &checked)
        return findings
    }
}
