import ArgumentParser
import Foundation
import TallyCheck
import TallyFormats
import TallyModel
import TallyReport

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Compare StoreKit configurations with server catalogues and report every mismatch.",
        discussion: """
        Each .storekit file is a configuration (what the app sells); each tally-catalog/1 file \
        (.json, .yaml, .yml) is a catalogue (what the server grants), and so are an App Store \
        package's metadata.xml and an App Store Connect export (a folder of saved API pages). Every configuration is \
        compared with every catalogue, and every source is linted on its own. Prices are compared \
        in the configuration's storefront (settings._storefront, USA when absent).

        With no SOURCE arguments, Tally reads configs/*.storekit and catalog/*.{json,yaml,yml} \
        in the current directory.

        Exit codes: 0 consistent, 1 mismatches (errors; warnings too with --strict), \
        2 usage or input error.

        Examples:
          tally check
          tally check configs/App.storekit catalog/products.yaml
          tally check App.storekit catalog.json --format junit --output build/tally.xml
          tally check App.storekit metadata.xml --price-tiers tiers.csv
          tally check App.storekit asc-export/ --include-state READY_TO_SUBMIT
          tally check --format json --strict
        """
    )

    @Argument(help: "StoreKit configurations and catalogues to compare (default: configs/ and catalog/ here).")
    var sources: [String] = []

    @Option(name: .long, help: "Report format: \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: ReportFormat = .text

    @OptionGroup var input: SourceOptions

    @OptionGroup var output: OutputOptions

    @Flag(name: .long, help: "Fail (exit 1) on warnings too, not only on errors.")
    var strict = false

    mutating func validate() throws {
        if sources.isEmpty {
            let found = SourceReading.discover(in: ".")
            guard !found.configurations.isEmpty || !found.catalogs.isEmpty else {
                throw ValidationError("no sources given, and no configs/*.storekit or catalog/* files here. Name the files to compare, e.g. 'tally check App.storekit catalog.yaml'.")
            }
            sources = found.configurations + found.catalogs
        }
    }

    func run() throws {
        let catalogs = try SourceReading.readAll(sources, options: input)
        let configurations = catalogs.filter { $0.format.role == .configuration }
        let serverCatalogs = catalogs.filter { $0.format.role == .catalog }
        guard !configurations.isEmpty, !serverCatalogs.isEmpty else {
            let missing = configurations.isEmpty ? "a StoreKit configuration (.storekit)" : "a catalogue (tally-catalog/1, .json or .yaml)"
            var standardError = StandardError()
            print("tally: check needs at least one configuration and one catalogue; no \(missing) was given. To examine one file on its own, use 'tally lint FILE'.", to: &standardError)
            throw TallyExit.usageOrInput.code
        }
        let result = Checker().check(configurations: configurations, catalogs: serverCatalogs)
        try output.write(format.reporter(color: output.useColor).report(result))
        if result.fails(strict: strict) { throw TallyExit.mismatches.code }
    }
}

extension ReportFormat: ExpressibleByArgument {}
