import Foundation
import TallyCheck
import TallyConfig
import TallyFormats
import TallyModel

/// One `tally check` (or `tally lint`) run as typed stages: the source set, reading, pairing
/// (`SourcePairing`, through the gate), the gate (policy and baseline) and the outcome. The CLI,
/// `TallyAssert` and the plugin (which runs the CLI) all run checks through it, so that they give
/// the same findings for the same policy by construction.
public struct CheckRun: Sendable {
    /// Which baseline the gate takes out.
    public enum BaselineUse: Sendable, Hashable {
        /// The policy file's `baseline:` when it names one.
        case policy
        /// This file, whatever the policy says.
        case file(String)
        /// None: every finding is reported (recording a baseline, or a test that wants them all).
        case none
    }

    public var sources: SourceSet
    public var policyFile: PolicyFile?
    public var baseline: BaselineUse
    public var format: SourceFormat?
    public var options: ReadOptions
    /// Whether the result lists every subject examined (JUnit's passing test cases).
    public var recordsSubjects: Bool
    /// Warnings fail too.
    public var strict: Bool
    /// The run records its findings as the baseline: nothing fails it.
    public var recordingBaseline: Bool

    public init(sources: SourceSet, policyFile: PolicyFile? = nil, baseline: BaselineUse = .policy, format: SourceFormat? = nil,
                options: ReadOptions = ReadOptions(), recordsSubjects: Bool = false, strict: Bool = false, recordingBaseline: Bool = false) {
        self.sources = sources
        self.policyFile = policyFile
        self.baseline = baseline
        self.format = format
        self.options = options
        self.recordsSubjects = recordsSubjects
        self.strict = strict
        self.recordingBaseline = recordingBaseline
    }

    /// The baseline file this run uses, if any.
    public var baselinePath: String? {
        switch baseline {
        case .policy: policyFile?.baselinePath.map(sources.location)
        case .file(let path): sources.location(of: path)
        case .none: nil
        }
    }

    /// Reads every source, then lints each and compares them as `SourcePairing` pairs them.
    public func check(events: RunEvents? = nil) throws(RunFailure) -> RunOutcome {
        try check(read(events: events))
    }

    /// Reads every source of the set (the first stage of `check`, on its own so that a caller can
    /// time reading apart from checking).
    public func read(events: RunEvents? = nil) throws(RunFailure) -> [Catalog] {
        try sources.read(format: format, options: readOptions, events: events)
    }

    /// The options sources are read with: the policy's `code: {ids:}` where the run sets none.
    var readOptions: ReadOptions {
        var options = self.options
        if options.codeIDPattern == nil { options.codeIDPattern = policyFile?.codeIDs }
        return options
    }

    /// Lints each catalogue read by `read(events:)` and compares them as `SourcePairing` pairs them.
    public func check(_ catalogs: [Catalog]) throws(RunFailure) -> RunOutcome {
        let catalogs = pooled(catalogs)
        var gate = try gate()
        // The Xcode schemes of the repository: the StoreKit file each runs the app against (issue 50).
        let root = sources.location(of: policyFile?.directory ?? ".")
        gate.repositoryFindings = SchemeFindings.findings(XcodeSchemes.references(in: root), root: root,
                                                              checked: catalogs.filter { $0.format.isWrittenByXcode }.map { sources.location(of: $0.file) })
        guard var outcome = gate.check(sources: catalogs) ?? catalogs.first.map(gate.checkAlone) else { throw .noSources }
        // Group pairs are written for the policy's own sources: files named on the command line
        // (another catalogue, a store export) need not have those groups, and are not warned about.
        if case .arguments = sources.origin { outcome.unmatchedGroups = [] }
        return RunOutcome(gate: outcome, catalogs: catalogs, policyFile: policyFile, failBar: failBar(outcome.policy), skipped: sources.skipped)
    }

    /// Reads every source and lints each on its own.
    public func lint(events: RunEvents? = nil) throws(RunFailure) -> RunOutcome {
        let catalogs = try sources.read(format: format, options: readOptions, events: events)
        let outcome = try gate().lint(catalogs)
        return RunOutcome(gate: outcome, catalogs: catalogs, policyFile: policyFile, failBar: failBar(outcome.policy), skipped: sources.skipped)
    }

    /// The catalogues with the copy each belongs to, where the policy names copies
    /// (`{path: GLOB, copy: NAME}`): the files the entry's glob matches form one copy.
    func pooled(_ catalogs: [Catalog]) -> [Catalog] {
        guard let policyFile, policyFile.sources.contains(where: { $0.copy != nil }) else { return catalogs }
        var copies: [String: String] = [:]
        for source in policyFile.sources {
            guard let copy = source.copy,
                  let match = try? source.match(in: FileTree(root: sources.root), base: policyFile.directory, policyFile: policyFile.file) else { continue }
            for path in match.paths where copies[path] == nil { copies[path] = copy }
        }
        return catalogs.map { catalog in
            var catalog = catalog
            catalog.copy = copies[catalog.file]
            return catalog
        }
    }

    /// What fails this run under `policy`: computed here once, read by the exit status and the reports.
    func failBar(_ policy: Policy) -> FailBar {
        FailBar(policy: policy, strict: strict, recordingBaseline: recordingBaseline)
    }

    /// The gate: the policy's rules, ignores and settings, and the baseline.
    func gate() throws(RunFailure) -> Gate {
        let path = baselinePath
        var known: Baseline?
        // The policy's baseline is repository content: it must not lead out (RepositoryBoundary).
        if case .policy = baseline, let path, let policyFile,
           let real = RepositoryBoundary(around: sources.location(of: policyFile.directory)).escape(path) {
            throw .policy(outsideRepository("the baseline \"\(SafeText.line(policyFile.baseline ?? path))\"", leadsTo: real,
                                            at: SourceLocation(file: policyFile.file)))
        }
        if let path {
            do { known = try BaselineFile.read(path: path) } catch {
                var failure = SourceSet.formatError(error, file: path)
                failure.message = "the baseline: " + failure.message
                throw .policy(failure)
            }
        }
        return Gate(policy: policyFile?.policy ?? Policy(), baseline: known, baselineFile: path, recordsSubjects: recordsSubjects)
    }
}

/// What a run found, and how it ends.
public struct RunOutcome: Sendable {
    public var gate: GateOutcome
    /// The catalogues read, in the order of the source set.
    public var catalogs: [Catalog]
    /// Warnings about the run's own settings (an ignore that matched nothing, a group pair naming
    /// no group): they do not fail the run.
    public var notices: [RunNotice]
    /// What fails the run (`fail_on`, `--strict`, recording a baseline): the exit status and the
    /// reports both read it.
    public var failBar: FailBar

    init(gate: GateOutcome, catalogs: [Catalog], policyFile: PolicyFile?, failBar: FailBar, skipped: [SkippedSource] = []) {
        self.gate = gate
        self.catalogs = catalogs
        self.failBar = failBar
        let file = SourceLocation(file: policyFile?.file ?? PolicyFile.defaultName)
        notices = skipped.map { source in
            RunNotice(location: source.location, message: source.message)
        } + gate.unusedIgnores.map { ignore in
            RunNotice(location: ignore.location ?? file,
                      message: "the ignore of \(ignore) matched no finding; remove it if it is no longer needed")
        } + gate.unmatchedGroups.map { pair in
            RunNotice(location: pair.location ?? file,
                      message: "the group pair \(pair) names a group that no configuration or no catalogue has")
        }
    }

    /// What to report.
    public var result: CheckResult { gate.result }

    /// 1 when the run fails by its `failBar` (a reported finding at or above it, or a stale
    /// baseline entry when warnings fail), else 0.
    public var status: ExitStatus {
        if failBar.fails(gate.result) { return .mismatches }
        return failBar.coverageFailure(gate.result) == nil ? .consistent : .notCompared
    }
}

/// A warning about a run's settings, at the place that set it.
public struct RunNotice: Sendable, Hashable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String

    public var description: String { diagnostic.description }

    public var diagnostic: Diagnostic { Diagnostic(.warning, message, at: location) }
}
