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
        "Refuse input files larger than this many megabytes (\(ReadSettings.inputMegabytes.lowerBound) to \(ReadSettings.inputMegabytes.upperBound); default 512).",
        valueName: "MB"), transform: { text in try Usage.checked { () throws(RunFailure) in try ReadSettings.number(text, in: ReadSettings.inputMegabytes, of: "megabytes") } })
    var maxInputMb: Int = 512

    @Option(name: .long, help: ArgumentHelp(
        "Refuse documents nested deeper than this many levels (\(ReadSettings.depth.lowerBound) to \(ReadSettings.depth.upperBound); default 256).",
        valueName: "levels"), transform: { text in try Usage.checked { () throws(RunFailure) in try ReadSettings.number(text, in: ReadSettings.depth, of: "levels") } })
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

    /// The settings as the run takes them.
    var settings: ReadSettings {
        var settings = ReadSettings()
        settings.maxInputMegabytes = maxInputMb
        settings.maxDepth = maxDepth
        settings.mapping = mapping
        settings.priceTiers = priceTiers
        settings.includeStates = includeState
        settings.playDefaultTerritory = playDefaultTerritory
        settings.playDefaultCurrency = playDefaultCurrency
        settings.reportApp = reportApp
        return settings
    }

    func validate() throws {
        try Usage.checked { () throws(RunFailure) in try settings.validate() }
    }

    /// What a command reads, as `TallyRun` takes it: `arguments` (none: the policy's sources, or
    /// configs/ and catalog/ here), read as these options say. A file name that is not UTF-8 is
    /// opened with the bytes given (see RawArguments).
    func request(_ arguments: [String]) -> SourceRequest {
        SourceRequest(arguments: arguments, format: inputFormat, settings: settings, rawName: { RawArguments.bytes(for: $0) })
    }
}

extension SourceFormat: ExpressibleByArgument {}

/// A usage problem found by a library (`RunFailure.usage`) as ArgumentParser reports it: the
/// command's usage line and the message, exit 2.
enum Usage {
    static func checked<T>(_ body: () throws(RunFailure) -> T) throws -> T {
        do {
            return try body()
        } catch {
            if case .usage(let message) = error { throw ValidationError(message) }
            throw ValidationError("\(error)")
        }
    }
}
