import ArgumentParser
import Foundation
import TallyCheck
import TallyConfig
import TallyFormats
import TallyModel
import TallyReport

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Compare StoreKit configurations with server catalogues and report every mismatch.",
        discussion: """
        Each .storekit file is a configuration (what the app sells); each tally-catalog/1 file \
        (.json, .yaml, .yml) is a catalogue (what the server grants). Every configuration is \
        compared with every catalogue, and every source is linted on its own. Prices are compared \
        in the configuration's storefront (settings._storefront, USA when absent).

        With no SOURCE arguments, Tally reads the sources of ./.tally.yml (see 'tally init'), or \
        else configs/*.storekit and catalog/*.{json,yaml,yml} in the current directory. The \
        policy file also sets severities, ignores, required territories, group pairs and a baseline.

        Baseline: --write-baseline FILE records today's findings (by rule, product and field, not \
        by line) and exits 0; --baseline FILE then reports only findings it does not hold, and \
        names the entries that no longer occur.

        Reports: any number of --report FORMAT[:FILE]; text goes to standard output unless a \
        report is named. On GitHub Actions (GITHUB_ACTIONS=true), annotations are the default.

        Exit codes: 0 consistent, 1 mismatches (errors; warnings too with --strict or \
        fail_on: warning), 2 usage or input error.

        Examples:
          tally check
          tally check configs/App.storekit catalog/products.yaml
          tally check --report text --report junit:build/tally.xml
          tally check --report sarif:build/tally.sarif --report markdown:build/tally.md
          tally check --format markdown --output build/tally.md
          tally check --write-baseline .tally-baseline.json
          tally check --baseline .tally-baseline.json --strict
        """
    )

    @Argument(help: "StoreKit configurations and catalogues to compare (default: the policy's sources, or configs/ and catalog/ here).")
    var sources: [String] = []

    @OptionGroup var policy: PolicyOptions

    @Option(name: .long, help: ArgumentHelp("Report only findings this baseline file does not hold (default: the policy's baseline).", valueName: "file"))
    var baseline: String?

    @Option(name: .long, help: ArgumentHelp("Record today's findings in FILE as the baseline, report them, and exit 0.", valueName: "file"))
    var writeBaseline: String?

    @OptionGroup var input: SourceOptions

    @OptionGroup var reports: ReportOptions

    @Flag(name: .long, help: "Fail (exit 1) on warnings too, not only on errors.")
    var strict = false

    func validate() throws {
        if baseline != nil && writeBaseline != nil {
            throw ValidationError("--baseline and --write-baseline do not go together: write the baseline first, then check against it")
        }
    }

    func run() throws {
        let policyFile = try policy.load()
        let catalogs = try SourceReading.readAll(try sourcePaths(policyFile), options: input)
        let configurations = catalogs.filter { $0.format.role == .configuration }
        let serverCatalogs = catalogs.filter { $0.format.role == .catalog }
        guard !configurations.isEmpty, !serverCatalogs.isEmpty else {
            let missing = configurations.isEmpty ? "a StoreKit configuration (.storekit)" : "a catalogue (tally-catalog/1, .json or .yaml)"
            var standardError = StandardError()
            print("tally: check needs at least one configuration and one catalogue; no \(missing) was given. To examine one file on its own, use 'tally lint FILE'.", to: &standardError)
            throw TallyExit.usageOrInput.code
        }
        let baselinePath = writeBaseline == nil ? (baseline ?? policyFile?.baselinePath) : nil
        let known = try baselinePath.map { path in try Reading.orExit { try BaselineFile.read(path: path) } }
        let gate = Gate(policy: policyFile?.policy ?? Policy(), baseline: known, baselineFile: baselinePath)
        let outcome = gate.check(configurations: configurations, catalogs: serverCatalogs)
        Reading.warn(about: outcome, policyFile: policyFile)
        if let writeBaseline {
            try ReportFile.writeOrExit(BaselineFile.encode(outcome.baseline), to: writeBaseline, what: "the baseline")
            var standardError = StandardError()
            print("tally: wrote \(outcome.current.count) finding\(outcome.current.count == 1 ? "" : "s") to the baseline \(writeBaseline)", to: &standardError)
        }
        try reports.write { format, color in format.reporter(color: color).report(outcome.result) }
        if !reports.mentionsSuppressionsOnStandardOutput {
            var standardError = StandardError()
            for line in TextReporter.suppressionLines(outcome.result.suppressed) { print("tally: \(line)", to: &standardError) }
        }
        if writeBaseline == nil && outcome.fails(strict: strict) { throw TallyExit.mismatches.code }
    }

    /// The files to read: the arguments, else the policy's sources, else configs/ and catalog/.
    private func sourcePaths(_ policyFile: PolicyFile?) throws -> [String] {
        if !sources.isEmpty { return sources }
        if let policyFile, !policyFile.sources.isEmpty { return try Reading.orExit { try policyFile.sourcePaths() } }
        let found = SourceReading.discover(in: ".")
        guard !found.configurations.isEmpty || !found.catalogs.isEmpty else {
            var standardError = StandardError()
            print("tally: no sources given, no .tally.yml with sources, and no configs/*.storekit or catalog/* files here. Name the files to compare (e.g. 'tally check App.storekit catalog.yaml') or run 'tally init'.", to: &standardError)
            throw TallyExit.usageOrInput.code
        }
        return found.configurations + found.catalogs
    }
}

extension ReportFormat: ExpressibleByArgument {}
