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
        Each .storekit file and app property list (.plist) is a configuration (what the app \
        sells); each tally-catalog/1 file (.json, .yaml, .yml), CSV catalogue (.csv), server \
        file read through --mapping, App Store package metadata.xml and App Store Connect export \
        (a folder of saved API pages) is a catalogue (what the server or the store holds). Every \
        configuration is compared with every catalogue, and every source is linted on its own; \
        when all sources are of one side, the first is compared with each of the others. Prices \
        are compared in the configuration's storefront (settings._storefront, USA when absent). \
        A field one source does not know (a property list has no prices) is skipped, and the \
        report says so.

        With no SOURCE arguments, Tally reads configs/*.{storekit,plist} and \
        catalog/*.{json,yaml,yml,csv} in the current directory.

        Exit codes: 0 consistent, 1 mismatches (errors; warnings too with --strict), \
        2 usage or input error.

        Examples:
          tally check
          tally check configs/App.storekit catalog/products.yaml
          tally check App.storekit catalog.json --format junit --output build/tally.xml
          tally check configs/App.storekit App/Products.plist
          tally check configs/App.storekit finance/prices.csv
          tally check App.storekit server/products.json --mapping tally-mapping.yml
          tally check App.storekit metadata.xml --price-tiers tiers.csv
          tally check App.storekit asc-export/ --include-state READY_TO_SUBMIT
          tally check --format json --strict
        """
    )

    @Argument(help: "Configurations (.storekit, .plist) and catalogues (tally-catalog/1, .csv, mapped server files) to compare (default: configs/ and catalog/ here).")
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
                throw ValidationError("no sources given, and no configs/*.{storekit,plist} or catalog/* files here. Name the files to compare, e.g. 'tally check App.storekit catalog.yaml'.")
            }
            sources = found.configurations + found.catalogs
        }
    }

    func run() throws {
        var timings = Timings()
        let catalogs = try SourceReading.readAll(sources, options: input)
        timings.lap("read")
        guard let (configurations, serverCatalogs) = SourcePairing.sides(catalogs) else {
            var standardError = StandardError()
            print("tally: check compares sources, and only one was given. To examine one file on its own, use 'tally lint FILE'.", to: &standardError)
            throw TallyExit.usageOrInput.code
        }
        let result = Checker(recordsSubjects: format == .junit).check(configurations: configurations, catalogs: serverCatalogs)
        timings.lap("check")
        try output.write(format.reporter(color: output.useColor).report(result))
        timings.lap("report")
        // Exit here rather than unwinding: freeing a large model costs time and shows nothing.
        TallyExit.finish(result.fails(strict: strict) ? .mismatches : .consistent)
    }
}

extension ReportFormat: ExpressibleByArgument {}
