import TallyModel

/// What the comparison of one configuration with one catalogue covered: the fields compared,
/// and the fields skipped because a source does not know them, with the reason in words.
///
/// Sources know different things: a property list knows IDs (sometimes kinds and groups), a CSV
/// may leave out offer columns. A field only one side knows is skipped and said so, never
/// reported as a mismatch.
public struct PairSummary: Sendable, Hashable, Codable {
    /// The configuration's file (the reference side).
    public var configuration: String
    /// The catalogue's file.
    public var catalog: String
    /// The territory whose prices were compared: the configuration's storefront.
    public var territory: Territory
    /// Products present on both sides.
    public var sharedProducts: Int
    /// Fields the rules compared, in rule order (IDs are always compared).
    public var compared: [Field]
    /// Fields not compared, each with why.
    public var skipped: [Skipped]
    /// Whether prices were compared in every territory both sides price (Google Play against a
    /// catalogue) rather than in `territory` only; nil when not.
    public var everyTerritory: Bool? = nil

    /// A field that was not compared.
    public struct Skipped: Sendable, Hashable, Codable {
        public var field: Field
        /// Who lacks it, in words: "the property list", "neither source".
        public var subject: String
        /// The files that do not know the field.
        public var missingIn: [String]

        public init(field: Field, subject: String, missingIn: [String]) {
            self.field = field
            self.subject = subject
            self.missingIn = missingIn
        }

        /// "the property list has no prices", "neither source has periods".
        public var reason: String {
            subject == Self.neither ? "\(subject) has \(field.plural)" : "\(subject) has no \(field.plural)"
        }

        static let neither = "neither source"
    }

    public init(configuration: String, catalog: String, territory: Territory, sharedProducts: Int,
                compared: [Field], skipped: [Skipped]) {
        self.configuration = configuration
        self.catalog = catalog
        self.territory = territory
        self.sharedProducts = sharedProducts
        self.compared = compared
        self.skipped = skipped
    }

    /// The fields cross-source rules compare, in report order. IDs are matched, not listed here.
    public static let comparableFields: [Field] = [
        .kind, .familyShareable, .prices, .period, .introductoryOffer, .promotionalOffers, .group, .level,
    ]

    /// What `comparison` compares and skips.
    public init(_ comparison: Comparison) {
        let configuration = comparison.configuration
        let catalog = comparison.catalog
        var compared: [Field] = []
        var skipped: [Skipped] = []
        for field in Self.comparableFields {
            let configKnows = configuration.knownFields.contains(field)
            let catalogKnows = catalog.knownFields.contains(field)
            if configKnows && catalogKnows {
                compared.append(field)
                continue
            }
            let subject: String
            switch (configKnows, catalogKnows) {
            case (false, false): subject = Skipped.neither
            case (false, _): subject = Self.noun(configuration, beside: catalog)
            default: subject = Self.noun(catalog, beside: configuration)
            }
            let missingIn = (configKnows ? [] : [configuration.file]) + (catalogKnows ? [] : [catalog.file])
            skipped.append(Skipped(field: field, subject: subject, missingIn: missingIn))
        }
        self.init(configuration: configuration.file, catalog: catalog.file, territory: comparison.territory,
                  sharedProducts: comparison.sharedIDs.count, compared: compared, skipped: skipped)
        if comparison.comparesEveryTerritory { everyTerritory = true }
    }

    /// One line for people. With nothing skipped:
    /// `App.storekit (storefront USA) vs products.yaml: 14 products in both; compared kind, prices, period`;
    /// otherwise `...; compared IDs, group and level only; skipped kind, prices: the property list has no kinds or prices`.
    public var sentence: String {
        let prices = everyTerritory == true ? "prices in every region both price" : "storefront \(territory)"
        var text = "\(configuration) (\(prices)) vs \(catalog): \(sharedProducts) product\(sharedProducts == 1 ? "" : "s") in both; "
        let names = compared.map(\.rawValue)
        if skipped.isEmpty {
            text += "compared \(names.joined(separator: ", "))"
            return text
        }
        text += "compared \(Self.list(["IDs"] + names, conjunction: "and")) only; "
        text += "skipped \(skipped.map(\.field.rawValue).joined(separator: ", ")): "
        var subjects: [String] = []
        var fields: [String: [Field]] = [:]
        for item in skipped {
            if fields[item.subject] == nil { subjects.append(item.subject) }
            fields[item.subject, default: []].append(item.field)
        }
        text += subjects.map { subject in
            let plural = (fields[subject] ?? []).map(\.plural)
            return subject == Skipped.neither
                ? "\(subject) has \(Self.list(plural, conjunction: "or"))"
                : "\(subject) has no \(Self.list(plural, conjunction: "or"))"
        }.joined(separator: "; ")
        return text
    }

    /// "the property list", or "the property list Products.plist" when both sources are of one kind.
    private static func noun(_ source: Catalog, beside other: Catalog) -> String {
        let noun = source.format.sourceNoun
        guard noun == other.format.sourceNoun else { return noun }
        return "\(noun) \(source.file.split(separator: "/").last.map(String.init) ?? source.file)"
    }

    private static func list(_ items: [String], conjunction: String) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " \(conjunction) " + (items.last ?? "")
    }
}

extension Field {
    /// The field in words, plural: "prices", "introductory offers".
    var plural: String {
        switch self {
        case .id: return "IDs"
        case .kind: return "kinds"
        case .referenceName: return "reference names"
        case .familyShareable: return "family-sharing flags"
        case .localizations: return "localizations"
        case .prices: return "prices"
        case .period: return "periods"
        case .introductoryOffer: return "introductory offers"
        case .promotionalOffers: return "promotional offers"
        case .codeOffers: return "code offers"
        case .group: return "subscription groups"
        case .level: return "levels"
        }
    }
}

extension SourceFormat {
    /// The source in words, for "the property list has no prices".
    var sourceNoun: String {
        switch self {
        case .storeKit: return "the StoreKit configuration"
        case .tallyCatalogJSON, .tallyCatalogYAML: return "the tally-catalog/1 file"
        case .propertyList: return "the property list"
        case .appStorePackage: return "the App Store package"
        case .appStoreConnect: return "the App Store Connect export"
        case .csv: return "the CSV catalogue"
        case .mapped: return "the mapped server file"
        case .googlePlay: return "Google Play"
        }
    }
}
