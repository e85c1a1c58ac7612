import TallyModel

/// A team's decisions about the check, as `.tally.yml` states them: severity per rule, accepted
/// findings, the territories every catalogue product must be priced in, explicit group pairs,
/// and what fails the gate. A plain value: reading the file is `TallyConfig`'s business.
public struct Policy: Sendable, Hashable {
    /// Rule ID → severity (or off). Rules not listed keep their default severity.
    public var rules: [RuleID: RuleSetting]
    public var ignores: [Ignore]
    /// Territories every catalogue product must have a price in (`unpriced-territory`); where two
    /// sources price a product in different territories, one of these makes it an error (`priced-territories`).
    public var requiredTerritories: [Territory]
    /// Locales every product and subscription group must be described in (`missing-locale`).
    public var requiredLocales: [String] = []
    /// Subscription groups paired explicitly between configurations and catalogues.
    public var groups: [GroupCorrespondence]
    /// The lowest severity that fails the gate: `.error` (the default) or `.warning`.
    public var failOn: Severity
    /// How much of a check must be compared for it to pass (`require_compared`): by default
    /// something (a check of two or more sources that compared nothing fails, exit 3); `all`:
    /// every product of every source and every code request.
    public var requireCompared: CoverageRequirement = .some

    public init(rules: [RuleID: RuleSetting] = [:], ignores: [Ignore] = [], requiredTerritories: [Territory] = [],
                groups: [GroupCorrespondence] = [], failOn: Severity = .error) {
        self.rules = rules
        self.ignores = ignores
        self.requiredTerritories = requiredTerritories
        self.groups = groups
        self.failOn = failOn
    }

    /// The severity a rule's findings get under this policy, or nil when the rule is off.
    public func severity(of rule: RuleDescription) -> Severity? {
        guard let setting = rules[rule.id] else { return rule.defaultSeverity }
        return setting.severity
    }

    /// A checker with every rule, configured as the policy says.
    public func checker(recordsSubjects: Bool = true) -> Checker {
        // Each rule reads what it needs of the policy (`configured(by:)`).
        let lintRules = RuleSet.lintRules.map { $0.configured(by: self) }
        let comparisonRules = RuleSet.comparisonRules.map { $0.configured(by: self) }
        return Checker(comparisonRules: comparisonRules, lintRules: lintRules, recordsSubjects: recordsSubjects,
                       groupCorrespondences: groups)
    }

    /// The result as the policy sees it: rules turned off leave no trace (neither findings nor
    /// passing checks, nor their fields in the comparison summaries), severities are overridden, and ignored findings are taken out and counted.
    public func apply(to result: CheckResult) -> PolicyOutcome {
        var kept: [Finding] = []
        var ignored: [Finding] = []
        var used = Set<Int>()
        for var finding in result.findings {
            if let setting = rules[finding.ruleID] {
                guard let severity = setting.severity else { continue }
                finding.severity = severity
            }
            if let index = ignores.firstIndex(where: { $0.matches(finding) }) {
                used.insert(index)
                ignored.append(finding)
            } else {
                kept.append(finding)
            }
        }
        var applied = result
        applied.findings = kept
        applied.checked = result.checked.filter { rules[$0.ruleID] != .off }
        let fieldsOff = Set(PairSummary.fieldRules.filter { $0.value.allSatisfy { rules[$0] == .off } }.keys)
        if !fieldsOff.isEmpty {
            applied.pairs = result.pairs.map { $0.without(fieldsOff) }
            // Lines without a pair summary (the paywall's coverage) stay as they are.
            applied.comparisons = result.comparisons.map { line in line.pair.map { .pair($0.without(fieldsOff)) } ?? line }
        }
        if rules[.pricePoint] == .off { applied.comparisons.removeAll(where: PricePointCoverage.isLine) }
        applied.suppressed.ignored += ignored.count
        let unused = ignores.indices.filter { !used.contains($0) }.map { ignores[$0] }
        return PolicyOutcome(result: applied, ignored: ignored, unusedIgnores: unused)
    }

    /// Group pairs that name a group no configuration (or no catalogue) has: most likely a typo.
    public func unmatchedGroups(configurations: [Catalog], catalogs: [Catalog]) -> [GroupCorrespondence] {
        groups.filter { pair in
            !configurations.contains { pair.configurationGroup(in: $0) != nil } || !catalogs.contains { pair.catalogGroup(in: $0) != nil }
        }
    }

    /// Whether the findings fail the gate under this policy (`strict` lowers the bar to warnings).
    public func fails(_ result: CheckResult, strict: Bool = false) -> Bool {
        result.findings.contains(where: FailBar(policy: self, strict: strict).fails)
    }

    /// The lowest severity that fails the gate: `fail_on`, lowered to warnings by `strict`.
    public func failBar(strict: Bool = false) -> Severity {
        strict ? min(failOn, .warning) : failOn
    }
}

/// What applying a policy did.
public struct PolicyOutcome: Sendable, Hashable {
    /// The result to report.
    public var result: CheckResult
    /// Findings an ignore took out.
    public var ignored: [Finding]
    /// Ignores that matched nothing: stale, or a typo in the rule or product pattern.
    public var unusedIgnores: [Ignore]
}
