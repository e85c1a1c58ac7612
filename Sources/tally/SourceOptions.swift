import ArgumentParser
import TallyFormats
import TallyConfig
import TallyModel
import TallyRun

/// How sources are read: shared by every command that reads files.
struct SourceOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Read every source as this format instead of detecting it (\(SourceFormat.allCases.map(\.rawValue).joined(separator: ", "))).",
        valueName: "format"))
    var inputFormat: SourceFormat?

    @Option(name: .long, help: ArgumentHelp(
        "Refuse input files larger than this many megabytes (\(InputLimits.inputMegabytes.lowerBound) to \(InputLimits.inputMegabytes.upperBound); default 512).",
        valueName: "MB"), transform: { try InputLimits.number($0, in: InputLimits.inputMegabytes, of: "megabytes") })
    var maxInputMb: Int = 512

    @Option(name: .long, help: ArgumentHelp(
        "Refuse documents nested deeper than this many levels (\(InputLimits.depth.lowerBound) to \(InputLimits.depth.upperBound); default 256).",
        valueName: "levels"), transform: { try InputLimits.number($0, in: InputLimits.depth, of: "levels") })
    var maxDepth: Int = 256

    @Option(name: .long, help: ArgumentHelp(
        "Read the server's own JSON or YAML through this tally-mapping/1 file (docs/mapping-format.md): MAPPING reads the .json, .yaml or .yml sources named here that are not tally-catalog/1 (with no sources named, those without a mapping in .tally.yml); SOURCE=MAPPING reads that file only. Repeatable.",
        valueName: "[source=]file"))
    var mapping: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "A CSV table of App Store price tiers (columns tier,territory,price) that turns an App Store package's tiers into prices.",
        valueName: "file"))
    var priceTiers: String?

    @Option(name: .long, help: ArgumentHelp(
        "Also count products in this state (repeatable): by default only products for sale count. States are App Store Connect's (READY_TO_SUBMIT, REMOVED_FROM_SALE, ...), NOT_CLEARED_FOR_SALE for an App Store package, Google Play's (INACTIVE, which the Play Console CSV writes unpublished; DRAFT, ...), or ALL.",
        valueName: "state"))
    var includeState: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "The territory of the Google Play developer's default price (USA or US): a Play Console CSV row with Auto Fill Prices true, or an InAppProduct with only a defaultPrice, is read as this territory's price. Without it, that price is named on standard error and not taken.",
        valueName: "territory"))
    var playDefaultTerritory: String?

    @Option(name: .long, help: ArgumentHelp(
        "The Google Play developer's default currency (ISO 4217, e.g. USD): the currency of an auto-filled default price. Default: the currency of --play-default-territory.",
        valueName: "currency"))
    var playDefaultCurrency: String?

    @Option(name: .long, help: ArgumentHelp(
        "In an App Store Connect in-app purchases catalog report, read only this app's rows: its APP_NAME or APP_APPLE_ID. A report of several apps needs it.",
        valueName: "app"))
    var reportApp: String?

    func validate() throws {
        _ = try mappingChoice()
        for state in includeState where ProductStates.normalise(state) == nil {
            throw ValidationError("--include-state \(state) is not a state Tally knows; use one of: \(ProductStates.known.joined(separator: ", "))")
        }
        if let playDefaultTerritory, Self.territory(playDefaultTerritory) == nil {
            throw ValidationError("--play-default-territory \(playDefaultTerritory) is not a territory: give an ISO 3166-1 code such as USA or US")
        }
        if let playDefaultCurrency, !Self.isCurrencyCode(playDefaultCurrency) {
            throw ValidationError("--play-default-currency \(playDefaultCurrency) is not a currency code: give three letters (ISO 4217) such as USD")
        }
        if playDefaultCurrency != nil, playDefaultTerritory == nil {
            throw ValidationError("--play-default-currency needs --play-default-territory: a price is read as one territory's price")
        }
    }

    /// The reader settings these options ask for. A mapping file or price-tier table that cannot
    /// be read is an input error (exit 2), reported like an unreadable source, ending with
    /// `consequence` ("nothing was checked", "nothing was shown").
    func readOptions(consequence: String = "nothing was checked") throws -> ReadOptions {
        var options = ReadOptions(maxBytes: maxInputMb * 1024 * 1024, maxDepth: maxDepth)
        if let general = try mappingChoice().general {
            RunFiles.shared.noteInput(general)
            options.mapping = try MappingFile.load(general, consequence: consequence)
        }
        options.includeStates = Set(includeState.compactMap(ProductStates.normalise))
        options.playDefaultTerritory = playDefaultTerritory.flatMap(Self.territory)
        options.playDefaultCurrency = playDefaultCurrency?.uppercased()
        options.reportApp = reportApp
        if let priceTiers {
            RunFiles.shared.noteInput(priceTiers)
            do {
                options.priceTiers = try PriceTierTable.load(path: priceTiers, maxBytes: options.maxBytes)
            } catch let error as FormatError {
                throw Stop.unreadable(error, what: "the price-tier table", consequence: consequence)
            }
        }
        return options
    }

    /// A territory given as an App Store storefront (USA) or a Play region (US).
    static func territory(_ text: String) -> Territory? {
        let code = text.trimmingCharacters(in: .whitespaces).uppercased()
        return code.count == 2 ? Territory(region: code) : Territory(code)
    }

    static func isCurrencyCode(_ text: String) -> Bool {
        text.count == 3 && text.allSatisfy { $0.isASCII && $0.isLetter }
    }

    /// `--mapping` as `TallyRun` takes it.
    func mappingChoice() throws -> SourceSet.MappingChoice {
        do { return try SourceSet.MappingChoice.parse(mapping) } catch {
            if case .usage(let message) = error { throw ValidationError(message) }
            throw ValidationError("\(error)")
        }
    }

    /// The files a command reads: `arguments`, else the policy's sources, else configs/ and
    /// catalog/ here; prints why and exits 2 when there are none or the policy's globs fail.
    func sourceSet(arguments: [String], policy: PolicyFile?, outcome: String = "nothing was checked") throws -> SourceSet {
        let choice = try mappingChoice()
        let set = try Diagnostics.orExit(outcome) { () throws(RunFailure) in
            try SourcePlanner.sources(arguments: arguments, policy: policy, mapping: choice, format: inputFormat)
        }
        guard var set else {
            throw Stop.run(.noSources, outcome: outcome)
        }
        // A file name that is not UTF-8 is opened with the bytes given (see RawArguments).
        for index in set.entries.indices { set.entries[index].rawName = RawArguments.bytes(for: set.entries[index].path) }
        // What the run reads, so that no output of it can be written over one (`RunFiles`).
        for entry in set.entries where entry.revision == nil {
            RunFiles.shared.noteInput(set.location(of: entry.path))
            if let mapping = entry.mapping { RunFiles.shared.noteInput(set.location(of: mapping)) }
        }
        return set
    }
}

extension SourceFormat: ExpressibleByArgument {}

/// The bounds of the numeric options that set a reader's limits. A value outside them is a usage
/// error naming them (exit 2), never a trap: `--max-input-mb` becomes bytes by multiplication.
enum InputLimits {
    /// Megabytes `--max-input-mb` takes: up to 1 TB, whose bytes fit an `Int` many times over.
    static let inputMegabytes = 1...(ReadOptions.maxBytesLimit >> 20)
    /// Levels `--max-depth` takes: up to the depth the readers follow within their stack.
    static let depth = 1...ReadOptions.maxDepthLimit

    /// `text` as a whole number in `range`; anything else is a usage error that names the range.
    static func number(_ text: String, in range: ClosedRange<Int>, of unit: String) throws -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
            throw ValidationError("give a whole number of \(unit) from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }
}
