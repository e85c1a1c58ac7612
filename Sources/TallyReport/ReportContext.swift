import TallyCheck

/// What a report needs to know beyond the result: which findings fail the run, and where the
/// repository root is. The command line works these out (the policy's `fail_on`, `--strict`,
/// `git rev-parse --show-toplevel`); libraries never run git.
public struct ReportContext: Sendable, Hashable {
    /// The lowest severity that fails the run: `.error` by default, `.warning` with `--strict`
    /// or `fail_on: warning`; nil when nothing fails (a run that records a baseline).
    public var failsAt: Severity?
    /// The baseline file the run records its findings in (`--write-baseline`), if any.
    public var recordingBaseline: String?
    /// The repository root, an absolute path: SARIF locations are relative to it
    /// (`%SRCROOT%`). Nil: paths are written as given.
    public var repositoryRoot: String?
    /// The absolute directory relative source paths are relative to (the working directory).
    public var workingDirectory: String?

    public init(failsAt: Severity? = .error, recordingBaseline: String? = nil, repositoryRoot: String? = nil, workingDirectory: String? = nil) {
        self.failsAt = failsAt
        self.recordingBaseline = recordingBaseline
        self.repositoryRoot = repositoryRoot
        self.workingDirectory = workingDirectory
    }

    /// Whether this finding fails the run.
    public func fails(_ finding: Finding) -> Bool {
        guard let failsAt else { return false }
        return finding.severity >= failsAt
    }

    /// Whether the run fails: a finding at or above `failsAt`.
    public func fails(_ result: CheckResult) -> Bool {
        result.findings.contains(where: fails)
    }
}
