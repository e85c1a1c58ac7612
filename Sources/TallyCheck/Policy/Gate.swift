import TallyModel

/// The check as a CI gate runs it: rules configured by the policy, the policy applied to the
/// result, and the findings a baseline holds taken out. The CLI and `TallyTesting` both use it.
public struct Gate: Sendable {
    public var policy: Policy
    public var baseline: Baseline?
    /// The baseline's file, for messages.
    public var baselineFile: String?
    /// Whether the result lists every subject examined (for JUnit's passing test cases).
    public var recordsSubjects: Bool
    /// Findings about the repository rather than a source (a scheme's StoreKit file), added to
    /// every result before the policy applies (so severities, ignores and the baseline hold).
    public var repositoryFindings: [Finding] = []

    public init(policy: Policy = Policy(), baseline: Baseline? = nil, baselineFile: String? = nil, recordsSubjects: Bool = true) {
        self.policy = policy
        self.baseline = baseline
        self.baselineFile = baselineFile
        self.recordsSubjects = recordsSubjects
    }

    /// Lints every source and compares each configuration with each catalogue.
    public func check(configurations: [Catalog], catalogs: [Catalog]) -> GateOutcome {
        let raw = policy.checker(recordsSubjects: recordsSubjects).check(configurations: configurations, catalogs: catalogs)
        return finish(raw, sources: configurations + catalogs, unmatchedGroups: policy.unmatchedGroups(configurations: configurations, catalogs: catalogs))
    }

    /// Lints every source and compares them as `SourcePairing` pairs them: what `tally check`,
    /// `TallyAssert.policy()` and the plugin run. The sources that name others' products (a
    /// paywall, the app's code: `SourceRole.refersToOthers`) are each checked against the stores'
    /// sources by their own rules (`Checker.checkReferring`). Nil when there is nothing to compare.
    public func check(sources: [Catalog]) -> GateOutcome? {
        let stores = sources.filter { !$0.format.role.refersToOthers }
        let referring = sources.filter { $0.format.role.refersToOthers }
        guard !referring.isEmpty else {
            guard let pairs = SourcePairing.pairs(sources) else { return nil }
            return check(sources: sources, pairs: pairs)
        }
        // A paywall is checked on its own too; code alone asks nothing of anything.
        let paywallInRun = referring.contains { $0.paywall != nil }
        guard !stores.isEmpty || paywallInRun else { return nil }
        let checker = policy.checker(recordsSubjects: recordsSubjects)
        // Beside a paywall, Google Play and the App Store are each compared with it, not with
        // each other (a server catalogue still pairs with both, as the hub).
        let pairs = (SourcePairing.pairs(stores) ?? []).filter { left, right in
            !paywallInRun || stores[left].format.store == stores[right].format.store
                || SourcePairing.isServerCatalogue(stores[left].format) || SourcePairing.isServerCatalogue(stores[right].format)
        }
        // The stores' sources among themselves (one source alone is linted).
        var raw = pairs.isEmpty ? checker.lint(stores) : checker.check(sources: stores, pairs: pairs)
        let unmatched = pairs.isEmpty ? [] : unmatchedGroups(in: stores)
        let found = checker.checkReferring(referring, stores: stores)
        raw.sources += referring.map(\.file)
        raw.findings = Checker.withoutRepeatedStoreStates(raw.findings + found.findings)
        raw.checked += found.checked
        raw.comparisons += found.comparisons
        raw.mergeCompared(found)
        raw.productsChecked = Checker.distinctIDs(stores + referring)
        raw.names = Checker.names(of: raw.findings, in: stores + referring)
        return finish(raw, sources: stores + referring, unmatchedGroups: unmatched)
    }

    /// Lints every source and compares the given pairs (indices into `sources`, the
    /// configuration's side first).
    public func check(sources: [Catalog], pairs: [(Int, Int)]) -> GateOutcome {
        let raw = policy.checker(recordsSubjects: recordsSubjects).check(sources: sources, pairs: pairs)
        return finish(raw, sources: sources, unmatchedGroups: unmatchedGroups(in: sources))
    }

    /// The policy's group pairs that name a group no source of the run has. A pair joins a
    /// configuration's group with a catalogue's: in a run without both (a .storekit file and the
    /// app's product list), it does not apply and is not named.
    func unmatchedGroups(in sources: [Catalog]) -> [GroupCorrespondence] {
        let configurations = sources.filter { $0.format.role == .configuration }
        let catalogs = sources.filter { $0.format.role == .catalog }
        guard !configurations.isEmpty, !catalogs.isEmpty else { return [] }
        return policy.unmatchedGroups(configurations: configurations, catalogs: catalogs)
    }

    /// One product source as a gate: everything that needs no second copy (lint, review
    /// readiness) runs, and the `compared:` line says there was nothing to compare it with and
    /// what would give it something.
    public func checkAlone(_ source: Catalog) -> GateOutcome {
        var outcome = lint([source])
        outcome.result.comparisons.insert(.alone(AloneSource(file: source.file, isConfiguration: source.format.role == .configuration)), at: 0)
        outcome.result.coverage = Coverage.measure([source], compared: [:])
        return outcome
    }

    /// Lints sources on their own.
    public func lint(_ catalogs: [Catalog]) -> GateOutcome {
        // A lint compares nothing by design: it has no coverage.
        finish(policy.checker(recordsSubjects: recordsSubjects).lint(catalogs), sources: nil, unmatchedGroups: [])
    }

    private func finish(_ raw: CheckResult, sources: [Catalog]?, unmatchedGroups: [GroupCorrespondence]) -> GateOutcome {
        var raw = raw
        raw.findings += repositoryFindings
        raw.coverage = sources.map { Coverage.measure($0, compared: raw.compared) }
        let applied = policy.apply(to: raw)
        var result = applied.result
        let current = result.findings
        if let baseline { result = baseline.apply(to: result, file: baselineFile) }
        return GateOutcome(policy: policy, result: result, current: current, unusedIgnores: applied.unusedIgnores,
                           unmatchedGroups: unmatchedGroups)
    }
}

/// What a gate run found.
public struct GateOutcome: Sendable, Hashable {
    public var policy: Policy
    /// What to report: the policy applied and the baseline's findings taken out.
    public var result: CheckResult
    /// Every finding under the policy, baseline or not: what `--write-baseline` records.
    public var current: [Finding]
    /// Ignores that matched no finding.
    public var unusedIgnores: [Ignore]
    /// Group pairs naming a group that no source has.
    public var unmatchedGroups: [GroupCorrespondence]

    /// Whether the gate fails: a reported finding at or above the policy's `fail_on` (or a
    /// warning, with `strict`). Baseline entries that match no finding (fixed, or changed
    /// values) count as warnings: they fail the gate with `strict` or `fail_on: warning`.
    public func fails(strict: Bool = false) -> Bool {
        FailBar(policy: policy, strict: strict).fails(result)
    }

    /// A baseline of today's findings.
    public var baseline: Baseline { Baseline(findings: current) }
}
