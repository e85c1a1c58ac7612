import TallyModel

/// What every rule has, whatever it examines: its description and its examples. The kinds of rule
/// refine it by what they examine: `ComparisonRule` (two sources), `LintRule` (one),
/// `PaywallRule` (a paywall platform's configuration against the stores), `CodeRule` (the app's code).
public protocol Rule: Sendable {
    static var description: RuleDescription { get }
    /// Small inputs the rule fires on (at least one) and passes: files as the readers take them, in
    /// `Sources/TallyCheck/Examples/`. `RuleExampleTests` runs each through `tally check`'s own run
    /// and asserts the rule fires, or not; docs/rules.md shows them.
    static var examples: [RuleExample] { get }
    /// The kind's category (`cross-source`, `lint`, `paywall`, `code`): `tally rules` groups by it.
    static var category: String { get }
}

extension Rule {
    /// A description in the rule's category: a rule says only its ID, severity and words.
    static func describe(id: RuleID, defaultSeverity: Severity, summary: String, rationale: String, fix: String) -> RuleDescription {
        RuleDescription(id: id, defaultSeverity: defaultSeverity, summary: summary, category: category, rationale: rationale, fix: fix)
    }

    /// A finding of this rule with its default severity: what every kind's `finding` helper builds.
    static func finding(productID: String?, field: Field, message: FindingMessage, territory: Territory? = nil, offerID: String? = nil,
                        left: FindingSide?, right: FindingSide? = nil, hint: String? = nil) -> Finding {
        Finding(ruleID: description.id, severity: description.defaultSeverity, productID: productID, territory: territory,
                offerID: offerID, field: field, message: message, left: left, right: right, hint: hint)
    }

    /// Records that the rule examined `subject` (reports that list passing checks show it).
    func mark(_ subject: String, at location: SourceLocation?, _ checked: inout CheckedLog) {
        checked.append(CheckedSubject(ruleID: Self.description.id, subject: subject, location: location))
    }
}
