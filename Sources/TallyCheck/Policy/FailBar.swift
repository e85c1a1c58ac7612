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

    public init(policy: Policy, strict: Bool = false, recordingBaseline: Bool = false) {
        severity = recordingBaseline ? nil : policy.failBar(strict: strict)
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
