import ArgumentParser
import TallyConvert
import TallyModel
import TallyRun

struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Write any source Tally reads as a tally-catalog/1 catalogue, a StoreKit configuration, a CSV catalogue, or product-ID constants in Swift, Kotlin, Dart or TypeScript.",
        discussion: """
        Keep one source of truth and generate the others. The catalogue (tally-catalog-yaml, \
        tally-catalog-json) holds every field the source knows and nothing it does not: a source \
        that knows only product IDs gives a catalogue with known_fields: [id]. 'tally check \
        SOURCE CONVERTED' finds the two consistent.

        A StoreKit configuration (storekit) holds the prices of one storefront (--storefront, \
        default: the source's default territory) and is written as Xcode writes it: keys in \
        alphabetical order, identifiers derived from the product IDs (converting twice gives the \
        same bytes), format 4.0 unless --storekit-version says otherwise.

        Constants (swift, kotlin, dart, typescript) let an app ask for its products through names \
        the compiler checks: enum ProductID in Swift, ProductIds in Kotlin, Dart and TypeScript, \
        with the IDs of each kind and the subscription group IDs. They are sorted, with no date: \
        writing twice gives the same bytes, and Tally reads the file back as code. They hold App \
        Store product IDs, or a Google Play source's Play IDs (--store says which). -o without an \
        extension gets the language's (.swift, .kt, .dart, .ts).

        Whatever the target cannot hold (prices in other storefronts, offer codes in a catalogue, \
        names in CSV) is listed on standard error. The output is written atomically.

        Examples:
          tally convert configs/ExampleApp.storekit --to tally-catalog-yaml \\
              -o build/products.yaml
          tally convert catalog/products.yaml --to storekit -o build/App.storekit
          tally convert catalog/products.yaml --to storekit --storefront JPN \\
              --storekit-version 5.0 -o build/Japan.storekit
          tally convert examples/app-store/metadata.xml --to csv \\
              --price-tiers examples/app-store/tiers.csv
          tally convert configs/ExampleApp.storekit --to swift -o ProductID.swift
          tally convert examples/google-play/catalog.json --to kotlin \\
              --store google-play -o ProductIds.kt
        """
    )

    @Argument(help: "Any source Tally reads: a StoreKit configuration, property list, tally-catalog/1 file, CSV catalogue, mapped server file, metadata.xml, or an App Store Connect export folder.")
    var source: String

    @Option(name: .long, help: ArgumentHelp("The format to write: \(ConvertTarget.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "format"))
    var to: ConvertTarget

    @Option(name: [.short, .long], help: ArgumentHelp("Write to FILE (atomically) instead of standard output.", valueName: "file"))
    var output: String?

    @Option(name: .long, help: ArgumentHelp("The storefront a StoreKit configuration prices in (default: the source's default territory).", valueName: "territory"))
    var storefront: String?

    @Option(name: .long, help: ArgumentHelp("The StoreKit configuration format: 3.0, 4.0 or 5.0.", valueName: "version"))
    var storekitVersion: StoreKitVersion = .v4

    @Option(name: .long, help: ArgumentHelp("Whose product IDs constants hold: app-store or google-play (default: the source's store).", valueName: "store"))
    var store: Store?

    @OptionGroup var input: SourceOptions

    func validate() throws {
        if let storefront, Territory(storefront) == nil {
            throw ValidationError("--storefront: \(Territory.notAStorefront(storefront))")
        }
        if store != nil, !to.isCode {
            throw ValidationError("--store chooses the product IDs of constants (--to swift, kotlin, dart or typescript), not of \(to)")
        }
    }

    func run() throws {
        let options = ConvertOptions(target: to, storefront: storefront.flatMap { Territory($0) }, storeKitVersion: storekitVersion, store: store)
        try ConvertRun.perform(ConvertRequest(source: input.request([source]), options: options, output: output))
    }
}

extension ConvertTarget: ExpressibleByArgument {}
extension StoreKitVersion: ExpressibleByArgument {}
extension Store: ExpressibleByArgument {}
