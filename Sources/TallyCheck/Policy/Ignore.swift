import TallyModel

/// Findings a team accepts on purpose: one rule (or every rule) on the products a glob matches,
/// with the reason written down.
public struct Ignore: Sendable, Hashable, CustomStringConvertible {
    /// The rule, or nil for every rule (`*` in the policy file).
    public var rule: RuleID?
    public var products: ProductPattern
    /// Why these findings are accepted; required, so that the file explains itself.
    public var reason: String
    /// Where the ignore is written (in `.tally.yml`), for messages about it.
    public var location: SourceLocation?

    public init(rule: RuleID?, products: ProductPattern, reason: String, location: SourceLocation? = nil) {
        self.rule = rule
        self.products = products
        self.reason = reason
        self.location = location
    }

    public func matches(_ finding: Finding) -> Bool {
        (rule == nil || rule == finding.ruleID) && products.matches(finding.productID)
    }

    /// `price on com.example.legacy.*`.
    public var description: String { "\(rule.map(\.rawValue) ?? "every rule") on \(products)" }
}
