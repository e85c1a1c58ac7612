import ArgumentParser
import TallyReport
import TallyRun

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Compare StoreKit configurations with server catalogues and report every mismatch.",
        discussion: """
        Each .storekit file and app product list (.plist) is a configuration (what the app \
        sells); each tally-catalog/1 file (.json, .yaml, .yml), CSV catalogue (.csv), server \
        file read through --mapping, App Store package metadata.xml and App Store Connect export \
        (a folder of saved API pages) is a catalogue (what the server or the store holds). Every \
        source is compared with every other, whatever their order, and linted on its own; each \
        source that lacks a product another has is named. One source alone is linted, and the \
        report says there was nothing to compare it with. Prices \
        are compared in the configuration's storefront (settings._storefront, USA when absent); \
        two .storekit files of different storefronts are compared in everything but prices (see \
        'tally diff' for those). A field a source does not state (a property list has no prices) \
        is skipped, and the report says, per field, for how many products it was compared.

        With no SOURCE arguments, Tally reads the sources of the nearest .tally.yml (here, or \
        in a folder above up to the repository's top; see 'tally init'), or \
        else configs/*.{storekit,plist} and catalog/*.{json,yaml,yml,csv} in the current \
        directory. The policy file also sets severities, ignores, required territories, group \
        pairs and a baseline.

        Baseline: --write-baseline FILE records today's findings (by rule, product and field, not \
        by line, with both sides' values) and exits 0; --baseline FILE then reports only findings \
        it does not hold (a finding whose values changed is new), and names the entries that no \
        longer match; with --strict (or fail_on: warning) such entries fail the check.

        Reports: any number of --report FORMAT[:FILE]; text goes to standard output unless a \
        report is named. On GitHub Actions (GITHUB_ACTIONS=true), annotations are the default.

        Exit codes: 0 consistent, 1 mismatches (errors; warnings too with --strict or \
        fail_on: warning), 2 usage or input error, 3 nothing compared (two or more sources and \
        not one product or code request compared across them; or less than the policy's \
        require_compared: all asks). What was not compared is named under 'not compared:'.

        Examples:
          tally check
          tally check configs/ExampleApp.storekit catalog/products.yaml
          tally check configs/ExampleApp.storekit catalog/products.yaml \\
              --format junit --output build/tally.xml
          tally check configs/ExampleApp.storekit examples/app/Products.plist
          tally check configs/ExampleApp.storekit examples/finance/prices.csv
          tally check configs/ExampleApp.storekit examples/server/products.json \\
              --mapping examples/server/tally-mapping.yml
          tally check configs/ExampleApp.storekit examples/app-store/metadata.xml \\
              --price-tiers examples/app-store/tiers.csv
          tally check configs/ExampleApp.storekit examples/asc-export/ \\
              --include-state READY_TO_SUBMIT
          tally check --report text --report junit:build/tally.xml
          tally check --report sarif:build/tally.sarif \\
              --report markdown:build/tally.md
          tally check --format markdown --output build/tally.md
          tally check --write-baseline .tally-baseline.json
          tally check --baseline .tally-baseline.json --strict
        """
    )

    @Argument(help: "Configurations (.storekit, .plist) and catalogues (tally-catalog/1, .csv, mapped server files, metadata.xml, App Store Connect exports) to compare (default: the policy's sources, or configs/ and catalog/ here).")
    var sources: [String] = []

    @OptionGroup var policy: PolicyOptions

    @Option(name: .long, help: ArgumentHelp("Report only findings this baseline file does not hold (default: the policy's baseline).", valueName: "file"))
    var baseline: String?

    @Option(name: .long, help: ArgumentHelp("Record today's findings in FILE as the baseline, report them, and exit 0.", valueName: "file"))
    var writeBaseline: String?

    @OptionGroup var input: SourceOptions

    @OptionGroup var reports: ReportOptions<ReportFormat>

    @Flag(name: .long, help: "Fail (exit 1) on warnings too, not only on errors, and on baseline entries that no longer match a finding.")
    var strict = false

    func validate() throws {
        if baseline != nil && writeBaseline != nil {
            throw ValidationError("--baseline and --write-baseline do not go together: write the baseline first, then check against it")
        }
    }

    func run() throws {
        throw try CheckRun.perform(CheckRequest(sources: input.request(sources), policy: policy.choice, baseline: baseline,
                                                writeBaseline: writeBaseline, reports: reports.request, strict: strict))
    }
}

extension ReportFormat: ExpressibleByArgument {}
