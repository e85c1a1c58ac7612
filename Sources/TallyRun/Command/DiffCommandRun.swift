import TallyDiff
import TallyModel
import TallyReport

/// `tally diff` as its flags ask for it: what to compare (`DiffRequest`), how to read it, the
/// reports, `--verbose` and `--exit-code`.
public struct DiffCommandRequest: Sendable {
    public var diff: DiffRequest
    /// How the sources are read (`arguments` unused: `diff.files` names them).
    public var sources: SourceRequest
    public var reports: ReportRequest<DiffFormat>
    public var verbose: Bool
    /// `--exit-code`: 1 when there are changes.
    public var failsOnChanges: Bool
    /// The totals and where the reports went on the console, when every report named with
    /// `--report` went to a file.
    public var consoleSummary: Bool

    public init(diff: DiffRequest, sources: SourceRequest, reports: ReportRequest<DiffFormat>, verbose: Bool = false,
                failsOnChanges: Bool = false, consoleSummary: Bool = false) {
        self.diff = diff
        self.sources = sources
        self.reports = reports
        self.verbose = verbose
        self.failsOnChanges = failsOnChanges
        self.consoleSummary = consoleSummary
    }
}

extension DiffRun {
    /// `tally diff`, whole: plans, reads both sides, compares them, streams the reports and
    /// returns the verdict `main` exits with. A stage that fails stops it (`Stop`, exit 2).
    public static func perform(_ request: DiffCommandRequest) throws(Stop) -> Verdict {
        let reports = request.reports, input = request.sources
        if reports.silent { Diagnostics.quiet.turnOn() }
        let readsAll = try input.mappingChoice(outcome: "nothing was compared").general != nil
        let plan = try Diagnostics.orExit("nothing was compared") { () throws(RunFailure) in
            try request.diff.plan(format: input.format, readsAll: readsAll, store: GitRevisionStore(), rawName: input.rawName)
        }
        // A file compared as it is now is an input: no report may be written over it (`RunFiles`).
        for file in request.diff.files { RunFiles.shared.noteInput(file) }
        Diagnostics.emit(plan.skipped.map(\.diagnostic))
        let options = try input.readOptions(consequence: "nothing was compared")
        let outcome = try Diagnostics.orExit("nothing was compared") { () throws(RunFailure) in
            try DiffRun(plan: plan, options: options).run(events: Diagnostics.progress)
        }
        Diagnostics.readingDone(outcome.catalogs)
        let result = outcome.result
        let verbose = request.verbose
        try reports.stream { format, color, stream in format.reporter(color: color, verbose: verbose).write(result, to: &stream) }
        if request.consoleSummary {
            // Every report went to a file: the console gets the totals and where the reports went.
            reports.printConsoleSummary { _ in DiffTextReporter.totals(result) }
        }
        return Verdict(outcome.status(failsOnChanges: request.failsOnChanges), keeping: outcome)
    }
}
