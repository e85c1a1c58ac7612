import TallyModel

/// What fails a run, decided once and read by everything that says whether it failed: the exit
/// status (`RunOutcome.status`), the reports (`ReportContext`) and `TallyAssert`.
///
/// The bar is the policy's `fail_on`, lowered to warnings by `strict` (`--strict`); a run that
/// records a baseline fails on nothing. When warnings fail a run, so do baseline entries that
/// match no finding any more (fixed, or found with other values).
public struct FailBar: Sendable, Hashable {
    /// The lowest severity that fails the run; nil when nothing does (recording a baseline).
    public var severity: Severity?

    public init(severity: Severity?) {
        self.severity = severity
    }

    /// How much must be compared (`require_compared`).
    public var requireCompared: CoverageRequirement = .some

    public init(policy: Policy, strict: Bool = false, recordingBaseline: Bool = false) {
        severity = recordingBaseline ? nil : policy.failBar(strict: strict)
        requireCompared = policy.requireCompared
    }

    /// Why the run fails for what it did not compare, or nil: a check of two or more sources
    /// that compared nothing across them (whatever `require_compared` says), or, with
    /// `require_compared: all`, one that left anything uncompared. One source alone is a lint
    /// and never fails here; nor does a run that records a baseline.
    public func coverageFailure(_ result: CheckResult) -> String? {
        guard severity != nil, let coverage = result.coverage else { return nil }
        // One source that holds no product is never green: there was nothing to check (a code
        // source whose calls all build their IDs at run time, an empty catalogue).
        let unfollowed = coverage.notCompared.filter { $0.reason == .notStaticallyKnown }.count
        if coverage.sources == 1, coverage.products == 0, coverage.codeRequests == unfollowed {
            return coverage.codeRequests > 0
                ? "nothing checked: the code asks for products with IDs Tally cannot follow (\(unfollowed) call\(unfollowed == 1 ? "" : "s")); name them with code: {ids: REGEX} in .tally.yml"
                : "nothing checked: the one source holds no product"
        }
        guard coverage.sources >= 2 else { return nil }
        if !coverage.comparedAnything {
            let counts = "\(coverage.products) product\(coverage.products == 1 ? "" : "s")"
                + (coverage.codeRequests > 0 ? " and \(coverage.codeRequests) code request\(coverage.codeRequests == 1 ? "" : "s")" : "")
            return coverage.products + coverage.codeRequests == 0
                ? "nothing compared: the \(coverage.sources) sources hold no product and the code asks for none"
                : "nothing compared: no product of the \(coverage.sources) sources was compared with another source (\(counts), none in common)"
        }
        if requireCompared == .all, !coverage.notCompared.isEmpty {
            return "require_compared: all, and \(coverage.notCompared.count) of \(coverage.products + coverage.codeRequests) products and code requests were not compared"
        }
        return nil
    }

    /// Whether this finding fails the run.
    public func fails(_ finding: Finding) -> Bool {
        severity.map { finding.severity >= $0 } ?? false
    }

    /// Whether stale baseline entries fail the run (they count as warnings).
    public var failsOnStaleBaseline: Bool {
        severity.map { $0 <= .warning } ?? false
    }

    /// Whether the run fails: a reported finding at or above the bar, or, when warnings fail it,
    /// a baseline entry that no longer matches a finding.
    public func fails(_ result: CheckResult) -> Bool {
        result.findings.contains(where: fails) || (failsOnStaleBaseline && result.suppressed.unmatchedEntries > 0)
    }
}

/// How much of a check must be compared for it to pass (the policy's `require_compared`).
public enum CoverageRequirement: String, Sendable, Hashable, Codable, CaseIterable {
    /// At least one product or code request compared across sources (the default).
    case some
    /// Every product of every source and every code request compared.
    case all
}
