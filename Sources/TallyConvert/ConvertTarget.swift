import Foundation
import TallyModel

/// The formats `tally convert` writes.
public enum ConvertTarget: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case tallyCatalogYAML = "tally-catalog-yaml"
    case tallyCatalogJSON = "tally-catalog-json"
    case storeKit = "storekit"
    case csv = "csv"

    public var description: String { rawValue }

    /// The usual file name ending for the format.
    public var fileExtension: String {
        switch self {
        case .tallyCatalogYAML: return "yaml"
        case .tallyCatalogJSON: return "json"
        case .storeKit: return "storekit"
        case .csv: return "csv"
        }
    }
}

/// A StoreKit configuration file format version Tally writes.
public enum StoreKitVersion: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case v3 = "3.0"
    case v4 = "4.0"
    case v5 = "5.0"

    public var description: String { rawValue }
    var major: Int {
        switch self {
        case .v3: return 3
        case .v4: return 4
        case .v5: return 5
        }
    }
}

/// How to convert.
public struct ConvertOptions: Sendable {
    public var target: ConvertTarget
    /// The storefront a StoreKit configuration prices in; nil: the source's default territory.
    public var storefront: Territory?
    public var storeKitVersion: StoreKitVersion

    public init(target: ConvertTarget, storefront: Territory? = nil, storeKitVersion: StoreKitVersion = .v4) {
        self.target = target
        self.storefront = storefront
        self.storeKitVersion = storeKitVersion
    }
}

/// A converted file and what the target could not hold.
public struct Conversion: Sendable, Equatable {
    /// The whole file, ending with a newline.
    public var text: String
    /// One sentence per kind of loss ("2 products have prices in 174 other territories: ..."), for standard error.
    public var notes: [String]
}

/// Writes a normalised catalogue in another format. Every loss is named in `Conversion.notes`,
/// never dropped silently.
public enum Converter {
    public static func convert(_ catalog: Catalog, options: ConvertOptions) -> Conversion {
        var notes = ConvertNotes()
        let text: String
        switch options.target {
        case .tallyCatalogYAML:
            let tree = CatalogWriter(catalog: catalog).document(notes: &notes)
            text = YAMLText.render(tree, header: CatalogWriter.header(for: catalog))
        case .tallyCatalogJSON:
            text = JSONText.render(CatalogWriter(catalog: catalog).document(notes: &notes), style: .catalog)
        case .storeKit:
            let writer = StoreKitWriter(catalog: catalog, storefront: options.storefront ?? catalog.defaultTerritory,
                                        version: options.storeKitVersion)
            text = JSONText.render(writer.document(notes: &notes), style: .xcode)
        case .csv:
            text = CSVWriter(catalog: catalog).text(notes: &notes)
        }
        return Conversion(text: text, notes: notes.sentences)
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
            let shown = ids.prefix(3).joined(separator: ", ") + (ids.count > 3 ? ", …" : "")
            return "\(ids.count) product\(ids.count == 1 ? "" : "s") (\(shown)): \(what)"
        }
    }
}

/// Money as text that keeps its written digits: `10.90` stays `10.90`, `129` stays `129`.
enum DecimalLiteral {
    static func text(_ amount: Decimal) -> String {
        guard amount.isFinite else { return Money.plain(amount) }
        let exponent = amount.exponent
        let digitsText = Money.plain(amount.significand.magnitude)
        guard exponent < 0, digitsText.allSatisfy(\.isNumber) else {
            return Money.plain(amount)
        }
        var digits = digitsText
        let places = -exponent
        if digits.count <= places { digits = String(repeating: "0", count: places - digits.count + 1) + digits }
        digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -places))
        return (amount.sign == .minus && amount != 0 ? "-" : "") + digits
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
