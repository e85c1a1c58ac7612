import ArgumentParser
import TallyReport
import TallyRun

struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check single sources on their own: duplicate or invalid IDs, groups, periods, prices.",
        discussion: """
        Runs every lint rule ('tally rules' lists them) on each FILE, without comparing files \
        with each other. 'tally check' runs the same rules on every source it reads. With no \
        FILE, lints the sources 'tally check' would read: those of ./.tally.yml, or else \
        configs/ and catalog/. The rule severities, ignores and required territories of \
        ./.tally.yml (or --config) apply. Reports as for 'tally check': --report FORMAT[:FILE], \
        repeatable, or --format and --output. With nothing to report it says 'no findings'; \
        each rule that has findings comes with its fix ('tally explain RULE' says more).

        Examples:
          tally lint                    # the sources tally check reads
          tally lint configs/ExampleApp.storekit
          tally lint catalog/products.yaml --format json
          tally lint examples/app/Products.plist examples/finance/prices.csv
          tally lint --report text --report junit:build/lint.xml
        """
    )

    @Argument(help: "StoreKit configurations, property lists, catalogues (tally-catalog/1, CSV) or mapped server files (default: the policy's sources, or configs/ and catalog/ here, as for 'tally check').")
    var files: [String] = []

    @OptionGroup var policy: PolicyOptions

    @OptionGroup var input: SourceOptions

    @OptionGroup var reports: ReportOptions<ReportFormat>

    @Flag(name: .long, help: "Fail (exit 1) on warnings too.")
    var strict = false

    func run() throws {
        throw try CheckRun.perform(LintRequest(sources: input.request(files), policy: policy.choice, reports: reports.request, strict: strict))
    }
}
