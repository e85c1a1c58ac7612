import ArgumentParser
import TallyCheck
import TallyReport
import TallyRun

struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check single sources on their own: duplicate or invalid IDs, groups, periods, prices.",
        discussion: """
        Runs every lint rule ('tally rules' lists them) on each FILE, without comparing files \
        with each other. 'tally check' runs the same rules on every source it reads. The rule \
        severities, ignores and required territories of ./.tally.yml (or --config) apply.

        Examples:
          tally lint configs/App.storekit
          tally lint catalog/products.yaml --format json
          tally lint App/Products.plist finance/prices.csv
        """
    )

    @Argument(help: "StoreKit configurations, property lists, catalogues (tally-catalog/1, CSV) or mapped server files.")
    var files: [String]

    @Option(name: .long, help: "Report format: \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: ReportFormat = .text

    @OptionGroup var policy: PolicyOptions

    @OptionGroup var input: SourceOptions

    @OptionGroup var output: OutputOptions

    @Flag(name: .long, help: "Fail (exit 1) on warnings too.")
    var strict = false

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one file to lint, e.g. 'tally lint configs/App.storekit'.") }
    }

    func run() throws {
        let policyFile = try policy.load()
        let run = CheckRun(sources: try input.sourceSet(arguments: files, policy: policyFile, outcome: "nothing was linted"),
                           policyFile: policyFile, baseline: .none, format: input.inputFormat, options: try input.readOptions(),
                           recordsSubjects: format == .junit, strict: strict)
        let outcome = try Diagnostics.orExit("nothing was linted") { () throws(RunFailure) in try run.lint(events: Diagnostics.progress) }
        DroppedValues.warn(about: outcome.catalogs)
        try output.write(format.reporter(color: output.useColor).report(outcome.result))
        TallyExit.finish(outcome.status)
    }
}
