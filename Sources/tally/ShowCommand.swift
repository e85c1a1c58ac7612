import ArgumentParser
import TallyRun

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print the normalised catalogue Tally reads from a file.",
        discussion: """
        A table for people, or stable JSON for scripts (--format json): every product with its \
        kind, prices per territory as decimal strings, period, group, level and offers, and which \
        fields the source knows at all. The JSON schema is described in docs/show-json.md.

        Examples:
          tally show configs/ExampleApp.storekit
          tally show catalog/products.yaml --format json | jq '.products[].id'
          tally show examples/app/Products.plist
          tally show examples/finance/prices.csv
          tally show examples/server/products.json \\
              --mapping examples/server/tally-mapping.yml
          tally show examples/app-store/metadata.xml \\
              --price-tiers examples/app-store/tiers.csv
          tally show examples/asc-export/ --include-state ALL
          tally show examples/code/ios/StoreModel.swift \\
              examples/code/ios/ProductID.swift
          tally show 'examples/code/**/*.swift'
          tally show examples/code/android/
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: ArgumentHelp("A StoreKit configuration, property list, tally-catalog/1 file, CSV catalogue, mapped server file, metadata.xml, an App Store Connect export folder, its in-app purchases catalog report, or the app's code that asks for products (Swift, Kotlin, Java, Objective-C, Dart, JavaScript/TypeScript, C#): several code files, a folder or a quoted glob are read together as one code source, as check reads them.", valueName: "file"))
    var files: [String]

    @Option(name: .long, help: "Output format: text or json.")
    var format: Format = .text

    @OptionGroup var input: SourceOptions

    @OptionGroup var output: OutputOptions

    func run() throws {
        try ShowRun.perform(ShowRequest(sources: input.request(files), json: format == .json, output: output.output))
    }
}
