import TallyCheck
import TallyModel

/// What a report needs to know beyond the result: which findings fail the run, and where the
/// repository root is. The command line works these out (the policy's `fail_on`, `--strict`,
/// `git rev-parse --show-toplevel`); libraries never run git.
public struct ReportContext: Sendable, Hashable {
    /// What produced the result: a check (sources compared) or a lint (each source on its own).
    public enum Run: String, Sendable, Hashable {
        case check, lint

        /// What the summary says when nothing was found: a check's sources are `consistent`
        /// with each other; a lint compared nothing, so it has `no findings`.
        public var cleanWord: String { self == .lint ? "no findings" : "consistent" }
    }

    /// What produced the result; decides the words of the summary and headings.
    public var run: Run = .check
    /// What fails the run: the run's `FailBar`, the same value its exit status reads.
    public var failBar: FailBar
    /// The lowest severity that fails the run: `.error` by default, `.warning` with `--strict`
    /// or `fail_on: warning`; nil when nothing fails (a run that records a baseline).
    public var failsAt: Severity? {
        get { failBar.severity }
        set { failBar.severity = newValue }
    }
    /// The baseline file the run records its findings in (`--write-baseline`), if any.
    public var recordingBaseline: String?
    /// The repository root, an absolute path: SARIF locations are relative to it
    /// (`%SRCROOT%`). Nil: paths are written as given.
    public var repositoryRoot: String?
    /// The absolute directory relative source paths are relative to (the working directory).
    public var workingDirectory: String?
    /// Rules the policy turned off: reports that list rules (SARIF's `tool.driver.rules`) leave them out.
    public var rulesOff: Set<RuleID> = []
    /// What the run said besides its findings, for the reports that list it (JSON).
    public var diagnostics: [Diagnostic] = []

    public init(failsAt: Severity? = .error, recordingBaseline: String? = nil, repositoryRoot: String? = nil, workingDirectory: String? = nil,
                run: Run = .check) {
        self.run = run
        failBar = FailBar(severity: failsAt)
        self.recordingBaseline = recordingBaseline
        self.repositoryRoot = repositoryRoot
        self.workingDirectory = workingDirectory
    }

    /// Whether this finding fails the run.
    public func fails(_ finding: Finding) -> Bool {
        failBar.fails(finding)
    }

    /// Whether the run fails: a finding at or above `failsAt`, or, when warnings fail it, a
    /// baseline entry that no longer matches a finding (`Suppressed.unmatchedEntries`).
    public func fails(_ result: CheckResult) -> Bool {
        failBar.fails(result)
    }

    /// `path` (absolute, or relative to the working directory) relative to the repository root:
    /// nil without a root, or for a file outside it.
    public func pathInRepository(_ path: String) -> String? {
        guard let root = repositoryRoot.map(Self.normalised) else { return nil }
        let base = workingDirectory ?? root
        let absolute = Self.normalised(path.hasPrefix("/") ? path : base + "/" + path)
        let prefix = root == "/" ? "/" : root + "/"
        guard absolute.hasPrefix(prefix) else { return nil }
        return String(absolute.dropFirst(prefix.count))
    }

    /// `path` made absolute against the working directory (or the root), without `.` and `..`.
    public func absolute(_ path: String) -> String {
        Self.normalised(path.hasPrefix("/") ? path : (workingDirectory ?? repositoryRoot ?? "") + "/" + path)
    }

    /// An absolute path without `.`, `..`, repeated or trailing slashes (text only: no symlinks resolved).
    static func normalised(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
