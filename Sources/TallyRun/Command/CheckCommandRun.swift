import TallyCheck
import TallyConfig
import TallyModel
import TallyReport

/// `tally check` as its flags ask for it: the sources, the policy, the baseline to take out or
/// to write, the reports and `--strict`.
public struct CheckRequest: Sendable {
    public var sources: SourceRequest
    public var policy: PolicyChoice
    /// `--baseline FILE`: report only findings it does not hold (nil: the policy's baseline).
    public var baseline: String?
    /// `--write-baseline FILE`: record today's findings there.
    public var writeBaseline: String?
    public var reports: ReportRequest<ReportFormat>
    public var strict: Bool

    public init(sources: SourceRequest, policy: PolicyChoice, baseline: String? = nil, writeBaseline: String? = nil,
                reports: ReportRequest<ReportFormat>, strict: Bool = false) {
        self.sources = sources
        self.policy = policy
        self.baseline = baseline
        self.writeBaseline = writeBaseline
        self.reports = reports
        self.strict = strict
    }
}

/// `tally lint` as its flags ask for it.
public struct LintRequest: Sendable {
    public var sources: SourceRequest
    public var policy: PolicyChoice
    public var reports: ReportRequest<ReportFormat>
    public var strict: Bool

    public init(sources: SourceRequest, policy: PolicyChoice, reports: ReportRequest<ReportFormat>, strict: Bool = false) {
        self.sources = sources
        self.policy = policy
        self.reports = reports
        self.strict = strict
    }
}

extension CheckRun {
    /// `tally check`, whole: reads, checks, writes the baseline and the reports, says what the run
    /// left out or took out (`Diagnostics`), and returns the verdict `main` exits with. A stage
    /// that fails stops it (`Stop`, exit 2).
    public static func perform(_ request: CheckRequest) throws(Stop) -> Verdict {
        let reports = request.reports
        if reports.silent { Diagnostics.quiet.turnOn() }
        var timings = Timings()
        let policyFile = try request.policy.load()
        // Passing checks are listed only where a report shows them (JUnit's passing test cases).
        let listsPassingChecks = reports.targets.listsPassingChecks
        let writeBaseline = request.writeBaseline
        let run = CheckRun(
            sources: try request.sources.sourceSet(policy: policyFile), policyFile: policyFile,
            baseline: writeBaseline != nil ? .none : request.baseline.map { .file($0) } ?? .policy,
            format: request.sources.format, options: try request.sources.readOptions(), recordsSubjects: listsPassingChecks,
            strict: request.strict, recordingBaseline: writeBaseline != nil)
        if let baselinePath = run.baselinePath { RunFiles.shared.noteInput(baselinePath) }
        let catalogs = try Diagnostics.orExit { () throws(RunFailure) in try run.read(events: Diagnostics.progress) }
        timings.lap("read")
        let outcome = try Diagnostics.orExit { () throws(RunFailure) in try run.check(catalogs) }
        timings.lap("check")
        Diagnostics.readingDone(outcome.catalogs)
        Diagnostics.warn(outcome.notices)
        if let writeBaseline {
            try ReportFile.writeOrExit(BaselineFile.encode(outcome.gate.baseline), to: writeBaseline, what: "the baseline", regularOnly: true)
            let count = outcome.gate.current.count
            Diagnostics.note("wrote \(count) finding\(count == 1 ? "" : "s") to the baseline \(writeBaseline)")
        }
        var context = ReportContext.forRun(outcome, recordingBaseline: writeBaseline, policyFile: policyFile,
                                           needsRoot: reports.targets.needsRepositoryRoot)
        context.diagnostics = Diagnostics.log.all
        try reports.write { format, color in format.reporter(color: color, context: context).report(outcome.result) }
        if !reports.targets.mentionsSuppressionsOnStandardOutput {
            for line in TextReporter.suppressionLines(outcome.result.suppressed) { Diagnostics.note(line) }
        }
        reports.printConsoleSummary { color in TextReporter(color: color, context: context).summary(outcome.result) }
        timings.lap("report")
        return Verdict(outcome.status, keeping: outcome)
    }

    /// `tally lint`, whole: reads and lints each source on its own, writes the reports and
    /// returns the verdict.
    public static func perform(_ request: LintRequest) throws(Stop) -> Verdict {
        let reports = request.reports
        if reports.silent { Diagnostics.quiet.turnOn() }
        let policyFile = try request.policy.load()
        let run = CheckRun(sources: try request.sources.sourceSet(policy: policyFile, outcome: "nothing was linted"),
                           policyFile: policyFile, baseline: .none, format: request.sources.format, options: try request.sources.readOptions(),
                           recordsSubjects: reports.targets.listsPassingChecks, strict: request.strict)
        let outcome = try Diagnostics.orExit("nothing was linted") { () throws(RunFailure) in try run.lint(events: Diagnostics.progress) }
        Diagnostics.readingDone(outcome.catalogs)
        Diagnostics.emit(run.sources.skipped.map(\.diagnostic))
        var context = ReportContext.forRun(outcome, policyFile: policyFile, needsRoot: reports.targets.needsRepositoryRoot)
        context.run = .lint
        context.diagnostics = Diagnostics.log.all
        try reports.write { format, color in format.reporter(color: color, context: context).report(outcome.result) }
        reports.printConsoleSummary { color in TextReporter(color: color, context: context).summary(outcome.result) }
        return Verdict(outcome.status, keeping: outcome)
    }
}
