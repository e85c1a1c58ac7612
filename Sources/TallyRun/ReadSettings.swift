import Foundation
import TallyConfig
import TallyFormats
import TallyModel

/// How sources are to be read, in the words a person gives (`--max-input-mb 64`, `--include-state
/// INACTIVE`, `--play-default-territory US`): checked once (`validate`), then turned into the
/// readers' `ReadOptions` with the mapping file and the price-tier table loaded (`readOptions`).
/// The command line fills it from its flags; every message names the flag it is about.
public struct ReadSettings: Sendable, Hashable {
    /// Refuse input files larger than this (`--max-input-mb`).
    public var maxInputMegabytes = 512
    /// Refuse documents nested deeper than this (`--max-depth`).
    public var maxDepth = 256
    /// `--mapping`: `MAPPING` or `SOURCE=MAPPING`, as given.
    public var mapping: [String] = []
    /// A CSV table of App Store price tiers (`--price-tiers`).
    public var priceTiers: String?
    /// States to count besides "for sale" (`--include-state`), as given.
    public var includeStates: [String] = []
    /// The territory of Google Play's default price (`--play-default-territory`): USA or US.
    public var playDefaultTerritory: String?
    /// The currency of that price (`--play-default-currency`), ISO 4217.
    public var playDefaultCurrency: String?
    /// In an App Store Connect catalog report, the app whose rows are read (`--report-app`).
    public var reportApp: String?

    public init() {}

    /// Megabytes `--max-input-mb` takes: up to 1 TB, whose bytes fit an `Int` many times over.
    public static let inputMegabytes = 1...(ReadOptions.maxBytesLimit >> 20)
    /// Levels `--max-depth` takes: up to the depth the readers follow within their stack.
    public static let depth = 1...ReadOptions.maxDepthLimit

    /// `text` as a whole number in `range`; anything else is a usage error that names the range
    /// (never a trap: `--max-input-mb` becomes bytes by multiplication).
    public static func number(_ text: String, in range: ClosedRange<Int>, of unit: String) throws(RunFailure) -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
            throw .usage("give a whole number of \(unit) from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// A usage error for the first setting that cannot be used.
    public func validate() throws(RunFailure) {
        _ = try mappingChoice()
        for state in includeStates where ProductStates.normalise(state) == nil {
            throw .usage("--include-state \(state) is not a state Tally knows; use one of: \(ProductStates.known.joined(separator: ", "))")
        }
        if let playDefaultTerritory, Self.territory(playDefaultTerritory) == nil {
            throw .usage("--play-default-territory \(playDefaultTerritory) is not a territory: give an ISO 3166-1 code such as USA or US")
        }
        if let playDefaultCurrency, !Self.isCurrencyCode(playDefaultCurrency) {
            throw .usage("--play-default-currency \(playDefaultCurrency) is not a currency code: give three letters (ISO 4217) such as USD")
        }
        if playDefaultCurrency != nil, playDefaultTerritory == nil {
            throw .usage("--play-default-currency needs --play-default-territory: a price is read as one territory's price")
        }
    }

    /// `--mapping` as the source set takes it.
    public func mappingChoice() throws(RunFailure) -> SourceSet.MappingChoice {
        try SourceSet.MappingChoice.parse(mapping)
    }

    /// The reader settings these ask for. A mapping file or price-tier table that cannot be read
    /// is an input error (`RunFailure.needed`), reported like an unreadable source.
    /// - Parameter noteInput: told of every file read here, so that no output is written over one.
    public func readOptions(noteInput: (String) -> Void = { _ in }) throws(RunFailure) -> ReadOptions {
        var options = ReadOptions(maxBytes: maxInputMegabytes * 1024 * 1024, maxDepth: maxDepth)
        if let general = try mappingChoice().general {
            noteInput(general)
            do {
                options.mapping = try TallyMapping.load(path: general)
            } catch let error as FormatError {
                throw .needed(error, what: "the mapping file")
            } catch {
                throw .usage("the mapping file \(general) could not be read: \(error)")
            }
        }
        options.includeStates = Set(includeStates.compactMap(ProductStates.normalise))
        options.playDefaultTerritory = playDefaultTerritory.flatMap(Self.territory)
        options.playDefaultCurrency = playDefaultCurrency?.uppercased()
        options.reportApp = reportApp
        if let priceTiers {
            noteInput(priceTiers)
            do {
                options.priceTiers = try PriceTierTable.load(path: priceTiers, maxBytes: options.maxBytes)
            } catch let error as FormatError {
                throw .needed(error, what: "the price-tier table")
            } catch {
                throw .usage("the price-tier table \(priceTiers) could not be read: \(error)")
            }
        }
        return options
    }

    /// A territory given as an App Store storefront (USA) or a Play region (US).
    public static func territory(_ text: String) -> Territory? {
        let code = text.trimmingCharacters(in: .whitespaces).uppercased()
        return code.count == 2 ? Territory(region: code) : Territory(code)
    }

    static func isCurrencyCode(_ text: String) -> Bool {
        text.count == 3 && text.allSatisfy { $0.isASCII && $0.isLetter }
    }
}
