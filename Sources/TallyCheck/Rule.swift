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
}
