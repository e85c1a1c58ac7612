import Foundation
import TallyCode
import TallyModel

/// The formats `tally convert` writes.
public enum ConvertTarget: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case tallyCatalogYAML = "tally-catalog-yaml"
    case tallyCatalogJSON = "tally-catalog-json"
    case storeKit = "storekit"
    case csv = "csv"
    /// Product-ID constants an app asks the store through: `enum ProductID` (Swift), `object
    /// ProductIds` (Kotlin, Dart, TypeScript). Tally reads the file back as code.
    case swift
    case kotlin
    case dart
    case typeScript = "typescript"

    public var description: String { rawValue }

    /// Whether the target is a file of code: product-ID constants.
    public var isCode: Bool { language != nil }

    /// The language of a constants target; nil for the catalogue, StoreKit and CSV targets.
    public var language: CodeLanguage? {
        switch self {
        case .tallyCatalogYAML, .tallyCatalogJSON, .storeKit, .csv: return nil
        case .swift: return .swift
        case .kotlin: return .kotlin
        case .dart: return .dart
        case .typeScript: return .typeScript
        }
    }

    /// The usual file name ending for the format.
    public var fileExtension: String {
        switch self {
        case .tallyCatalogYAML: return "yaml"
        case .tallyCatalogJSON: return "json"
        case .storeKit: return "storekit"
        case .csv: return "csv"
        case .swift: return "swift"
        case .kotlin: return "kt"
        case .dart: return "dart"
        case .typeScript: return "ts"
        }
    }
}

/// A StoreKit configuration file format version Tally writes.
public enum StoreKitVersion: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case v3 = "3.0"
    case v4 = "4.0"
    case v5 = "5.0"
    /// Xcode 27: subscription suites and bundles (`subscriptionSuiteGroups`, `subscriptionBundleGroups`).
    case v6_3 = "6.3"

    public var description: String { rawValue }
    var major: Int {
        switch self {
        case .v3: return 3
        case .v4: return 4
        case .v5: return 5
        case .v6_3: return 6
        }
    }
    var minor: Int { self == .v6_3 ? 3 : 0 }
    /// Billing plans and several introductory offers per subscription (5.0 and later).
    var hasBillingPlans: Bool { major >= 5 }
    /// Subscription suites and bundles (6.3 and later).
    var hasSuites: Bool { self == .v6_3 }
}

/// How to convert.
public struct ConvertOptions: Sendable {
    public var target: ConvertTarget
    /// The storefront a StoreKit configuration prices in; nil: the source's default territory.
    public var storefront: Territory?
    public var storeKitVersion: StoreKitVersion
    /// Whose product IDs a constants target writes; nil: the source's store (Google Play IDs for a
    /// Google Play source, App Store IDs for every other).
    public var store: Store?

    public init(target: ConvertTarget, storefront: Territory? = nil, storeKitVersion: StoreKitVersion = .v4, store: Store? = nil) {
        self.target = target
        self.storefront = storefront
        self.storeKitVersion = storeKitVersion
        self.store = store
    }

    /// A file name for the converted file: `output` as given, or with the language's extension
    /// when a constants file's name has none and nothing is there yet (a compiler, and Tally, know
    /// a source file by its extension).
    public func outputPath(_ output: String?, exists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }) -> String? {
        guard let output, target.isCode else { return output }
        let name = output.split(separator: "/").last ?? ""
        guard !output.hasSuffix("/"), !name.contains("."), !exists(output) else { return output }
        return output + "." + target.fileExtension
    }
}

/// A converted file and what the target could not hold.
public struct Conversion: Sendable, Equatable {
    /// The whole file, ending with a newline.
    public var text: String
    /// One sentence per kind of loss ("2 products have prices in 174 other territories: ..."), for standard error.
    public var notes: [String]
}

/// Writes a normalised catalogue in another format. Every loss is named in the notes, never
/// dropped silently.
public enum Converter {
    /// The whole converted file as one value.
    public static func convert(_ catalog: Catalog, options: ConvertOptions) -> Conversion {
        var sink = ByteSink()
        let notes = write(catalog, options: options, to: &sink)
        return Conversion(text: sink.text, notes: notes)
    }

    /// Writes the converted file into `sink` as it is made (product by product, for the
    /// catalogue and CSV targets), ending with a newline, and returns the notes: what the target
    /// could not hold. Call `sink.finish()` afterwards. When the sink closes (its reader went
    /// away), writing stops early.
    public static func write(_ source: Catalog, options: ConvertOptions, to sink: inout ByteSink) -> [String] {
        var notes = ConvertNotes()
        let catalog = FreeTrialPrice.withoutLeftoverPrices(source, notes: &notes)
        switch options.target {
        case .tallyCatalogYAML:
            var writer = CatalogWriter(catalog: catalog)
            writer.write(.yaml, to: &sink, notes: &notes)
        case .tallyCatalogJSON:
            var writer = CatalogWriter(catalog: catalog)
            writer.write(.json, to: &sink, notes: &notes)
        case .storeKit:
            let writer = StoreKitWriter(catalog: catalog, storefront: options.storefront ?? catalog.defaultTerritory,
                                        version: options.storeKitVersion)
            JSONText.write(writer.document(notes: &notes), indent: 0, style: .xcode, to: &sink)
            sink.append("\n")
        case .csv:
            CSVWriter(catalog: catalog).write(to: &sink, notes: &notes)
        case .swift, .kotlin, .dart, .typeScript:
            ConstantsWriter.write(catalog, target: options.target, store: options.store ?? catalog.format.store, to: &sink, notes: &notes)
        }
        // A paywall platform's offerings, packages and entitlements have no place in a catalogue.
        var paywall: [String] = []
        if let platform = source.paywall {
            let (offerings, entitlements) = (platform.offerings.count, platform.entitlements?.count ?? 0)
            paywall.append("the \(offerings) offering\(offerings == 1 ? "" : "s") (with their packages) and \(entitlements) "
                           + "entitlement\(entitlements == 1 ? "" : "s") of \(source.file) (\(platform.platform)) are not written: "
                           + "the target holds products only")
        }
        return notes.sentences + paywall
    }
}

extension Converter {
    /// Why the target cannot hold this catalogue at all, or nil. A StoreKit configuration and a
    /// CSV catalogue are keyed by App Store product IDs: the products of a Google Play source
    /// (and catalogue products sold on Google Play only) have none, and writing their Play
    /// identities (`premium:monthly`) as App Store IDs would make a file that fails its own lint.
    public static func refusal(_ catalog: Catalog, options: ConvertOptions) -> String? {
        switch options.target {
        case .tallyCatalogYAML, .tallyCatalogJSON: return nil
        case .storeKit, .csv: break
        case .swift, .kotlin, .dart, .typeScript:
            // A source of a store that does not key catalogues names its own IDs alone.
            let source = catalog.format.store
            guard let wanted = options.store, wanted != source, !source.keysCatalogues else { return nil }
            return "\(catalog.file) is a \(source.name) source: its products have \(source.name) IDs and no \(wanted.name) product ID; "
                + "write its \(source.name) IDs (the default for a \(source.name) source)"
        }
        let playOnly = catalog.products.filter { catalog.id(of: $0, in: Store.keyOfCatalogues) == nil }
        guard !playOnly.isEmpty else { return nil }
        let shown = playOnly.prefix(3).map { SafeText.line($0.id) }.joined(separator: ", ") + (playOnly.count > 3 ? ", …" : "")
        let target = options.target == .storeKit ? "a StoreKit configuration" : "a CSV catalogue"
        return "\(playOnly.count) product\(playOnly.count == 1 ? "" : "s") of \(catalog.file) (\(shown)) \(playOnly.count == 1 ? "has" : "have") a Google Play identity "
            + "and no App Store product ID, which \(target) is keyed by: convert to a catalogue (--to tally-catalog-yaml), which keeps "
            + "Google Play identities as google_play, and give each product its App Store id there"
    }
}

/// Losses collected while writing, counted per kind, not one line per value.
struct ConvertNotes {
    private var order: [String] = []
    private var products: [String: [String]] = [:]

    /// Records that `productID` lost something; the same `what` for many products makes one sentence.
    mutating func add(_ what: String, _ productID: String) {
        if products[what] == nil { order.append(what) }
        products[what, default: []].append(productID)
    }

    var sentences: [String] {
        order.map { what in
            let ids = products[what] ?? []
            let shown = ids.prefix(3).map { SafeText.line($0) }.joined(separator: ", ") + (ids.count > 3 ? ", …" : "")
            return "\(ids.count) product\(ids.count == 1 ? "" : "s") (\(shown)): \(what)"
        }
    }
}

/// Money as text in minor units: `10.90`, not `10.9`; `129` stays `129`. (The model holds the
/// value, not the text: `Decimal` drops trailing zeros, so a fraction is written with at least
/// the two decimals of every App Store currency that has fractions.)
enum DecimalLiteral {
    static func text(_ amount: Decimal) -> String {
        let plain = MachineText.decimal(amount)
        guard let dot = plain.firstIndex(of: ".") else { return plain }
        let decimals = plain.distance(from: dot, to: plain.endIndex) - 1
        return decimals == 1 ? plain + "0" : plain
    }
}

/// Stable 8-hex-digit identifiers, as Xcode writes them (`internalID`, group `id`), derived from
/// a name so that converting twice gives the same file.
enum StableID {
    static func hex(_ name: String) -> String {
        var hash: UInt32 = 0x811C_9DC5
        for byte in name.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        let text = String(hash, radix: 16, uppercase: true)
        return String(repeating: "0", count: 8 - text.count) + text
    }

    static func isHex8(_ text: String) -> Bool {
        text.utf8.count == 8 && text.utf8.allSatisfy { (48...57).contains($0) || (65...70).contains($0) }
    }
}
