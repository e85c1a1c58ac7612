import TallyModel

/// A configuration and a catalogue side by side, with their products matched by exact ID.
public struct Comparison: Sendable {
    public let configuration: Catalog
    public let catalog: Catalog
    public let configProducts: [String: Product]
    public let catalogProducts: [String: Product]
    /// IDs present on both sides, in the configuration's order.
    public let sharedIDs: [String]
    /// The products behind `sharedIDs`, looked up once for every rule.
    public let pairs: [(config: Product, catalog: Product)]
    /// Groups paired explicitly (by ID or name), ahead of matching groups by their members.
    public let groupCorrespondences: [GroupCorrespondence]
    /// Configuration groups matched with catalogue groups: the explicit pairs, then by members.
    public let groupPairing: GroupPairing
    /// Products each side has alone that look like one product under two IDs (`RenamedProductRule`);
    /// the presence rules leave them to it.
    public let renames: RenamePairing
    /// The territory whose prices are compared: the configuration's storefront.
    public var territory: Territory { configuration.defaultTerritory }

    /// How messages name each file of the run: the shortest path that is unique among the run's
    /// sources (`SourceNames`); a file not in it goes by its path.
    public let names: [String: String]
    /// The nouns more than one source of the run goes by (`SourceNames.crowdedNouns`): a side
    /// that goes by one is named with its file, and so is the other side of its findings.
    public let crowdedNouns: Set<String>

    public init(configuration: Catalog, catalog: Catalog, groupCorrespondences: [GroupCorrespondence] = [], names: [String: String] = [:],
                crowdedNouns: Set<String> = []) {
        let (configuration, catalog) = StoreIdentity.inOneStore(configuration, catalog)
        self.names = names.isEmpty ? SourceNames.shortest([configuration.file, catalog.file]) : names
        self.crowdedNouns = crowdedNouns
        self.configuration = configuration
        self.catalog = catalog
        self.groupCorrespondences = groupCorrespondences
        let configProducts = configuration.productsByID
        let catalogProducts = catalog.productsByID
        self.configProducts = configProducts
        self.catalogProducts = catalogProducts
        var seen = Set<String>()
        seen.reserveCapacity(configProducts.count)
        var pairs: [(config: Product, catalog: Product)] = []
        pairs.reserveCapacity(configProducts.count)
        for product in configuration.products {
            guard let other = catalogProducts[product.id], seen.insert(product.id).inserted,
                  let first = configProducts[product.id] else { continue }
            pairs.append((first, other))
        }
        self.pairs = pairs
        sharedIDs = pairs.map(\.config.id)
        groupPairing = Self.pairGroups(configuration, catalog, pairs, groupCorrespondences)
        renames = RenamePairing.pair(configuration: configuration, catalog: catalog, configProducts: configProducts,
                                     catalogProducts: catalogProducts, groupPairing: groupPairing)
    }

    /// Whether both sides know a field; rules compare only such fields.
    public func bothKnow(_ field: Field) -> Bool {
        configuration.knownFields.contains(field) && catalog.knownFields.contains(field)
    }

    func configSide(_ product: Product, _ field: Field, value: FindingValue?, position: Position? = nil) -> FindingSide {
        FindingSide(role: configRole, store: configStore, value: value,
                    location: configuration.location(position ?? product.position(of: field), path: product.path(of: field)))
    }

    func catalogSide(_ product: Product, _ field: Field, value: FindingValue?, position: Position? = nil) -> FindingSide {
        FindingSide(role: catalogRole, store: catalogStore, value: value,
                    location: catalog.location(position ?? product.position(of: field), path: product.path(of: field)))
    }

    func configSide(_ product: Product, _ field: Field, value: String?, position: Position? = nil) -> FindingSide {
        configSide(product, field, value: value.map(FindingValue.text), position: position)
    }

    func catalogSide(_ product: Product, _ field: Field, value: String?, position: Position? = nil) -> FindingSide {
        catalogSide(product, field, value: value.map(FindingValue.text), position: position)
    }

    /// How messages name the configuration's side: "the configuration", "Google Play" when it
    /// is a Google Play source, or its file name when both sides are configurations.
    /// Where a noun does not tell one file of the run (two sides "Google Play", or a run of three
    /// sources two of which are Google Play), both sides of the finding are named with their
    /// files: "Google Play (play/a.csv)" and "the catalogue (catalog.yaml)".
    public var configNoun: String {
        if sameKind { return name(of: configuration) }
        return distinct(Self.noun(configuration, otherwise: "the configuration"), configuration,
                        from: Self.noun(catalog, otherwise: "the catalogue"))
    }
    /// How messages name the catalogue's side: "the catalogue", "Google Play", or its file name
    /// when both sides are configurations (two .storekit files: neither is a catalogue).
    public var catalogNoun: String {
        if sameKind { return name(of: catalog) }
        return distinct(Self.noun(catalog, otherwise: "the catalogue"), catalog,
                        from: Self.noun(configuration, otherwise: "the configuration"))
    }

    /// `noun`, with the source's name when it does not tell the source (the other side goes by
    /// the same noun, or either noun is one several sources of the run go by).
    private func distinct(_ noun: String, _ source: Catalog, from other: String) -> String {
        noun == other || crowdedNouns.contains(noun) || crowdedNouns.contains(other) ? "\(noun) (\(name(of: source)))" : noun
    }

    /// The noun a source goes by in messages when it is not compared with one of its own kind:
    /// "Google Play", "the configuration" or "the catalogue" (nil for a paywall, which is not a side).
    public static func runNoun(_ source: Catalog) -> String? {
        if source.format.store.namesItsSide { return source.format.store.displayName }
        switch source.format.role {
        case .configuration: return "the configuration"
        case .catalog: return "the catalogue"
        case .paywall, .code: return nil
        }
    }

    /// The source's name in messages: the shortest path unique in the run.
    public func name(of source: Catalog) -> String { names[source.file] ?? source.file }

    /// The role each side reports: its source's own (a configuration compared with a
    /// configuration stays one, a catalogue compared with a catalogue too).
    var configRole: SourceRole { configuration.format.role == .catalog ? .catalog : .configuration }
    var catalogRole: SourceRole { catalog.format.role == .configuration ? .configuration : .catalog }

    /// Whether both sides are of one kind (two copies of what the app ships, or two catalogues
    /// outside Google Play): neither is "the configuration" or "the catalogue", each goes by its
    /// file, and a product one has and the other lacks is `missing-in-copy`.
    public var sameKind: Bool {
        configuration.format.role == catalog.format.role && !comparesEveryTerritory
    }

    /// The second side's storefront when both sides are StoreKit configurations for different
    /// storefronts (USA and COL): each prices its own storefront, in its currency, so prices are
    /// not compared (`tally diff` shows them storefront to storefront); nil otherwise.
    public var otherStorefront: Territory? {
        guard configuration.format.pricesOneStorefront, catalog.format.pricesOneStorefront,
              catalog.defaultTerritory != configuration.defaultTerritory else { return nil }
        return catalog.defaultTerritory
    }

    /// The side's role in findings: `configuration`, `catalog`, or `google-play` for a Google Play source.
    /// The store a side stands for, when a Google Play source takes that side.
    var configStore: Store? { configuration.format.store.namesItsSide ? configuration.format.store : nil }
    var catalogStore: Store? { catalog.format.store.namesItsSide ? catalog.format.store : nil }

    private static func noun(_ source: Catalog, otherwise: String) -> String {
        source.format.store.namesItsSide ? source.format.store.displayName : otherwise
    }

    /// Whether prices are compared in every territory both sides price (a Google Play source
    /// against a catalogue), rather than in the configuration's storefront only.
    public var comparesEveryTerritory: Bool {
        configuration.format.store.pricesEveryTerritory || catalog.format.store.pricesEveryTerritory
    }

    /// The store whose product IDs this comparison matches: Google Play when either side is a
    /// Google Play source (the other side's products then stand under their Play IDs, `Product.storeIDs`).
    public var store: Store { comparesEveryTerritory ? .googlePlay : .appStore }
}

/// A cross-source rule: compares a configuration with a catalogue.
public protocol ComparisonRule: Rule {
    /// Appends findings and the subjects examined.
    func evaluate(_ comparison: Comparison, findings: inout [Finding], checked: inout CheckedLog)
    /// This rule as `policy` configures it; a rule with nothing to configure is itself (see `LintRule`).
    func configured(by policy: Policy) -> any ComparisonRule
}

extension ComparisonRule {
    public static var category: String { "cross-source" }
    public func configured(by policy: Policy) -> any ComparisonRule { self }
}

/// A rule that looks at one product present on both sides at a time.
public protocol ProductPairRule: ComparisonRule {
    /// Whether the rule applies to this pair (e.g. both are subscriptions).
    func applies(to config: Product, _ catalog: Product, in comparison: Comparison) -> Bool
    func compare(_ config: Product, _ catalog: Product, in comparison: Comparison) -> [Finding]
}

extension ProductPairRule {
    public func evaluate(_ comparison: Comparison, findings: inout [Finding], checked: inout CheckedLog) {
        for (config, catalog) in comparison.pairs where applies(to: config, catalog, in: comparison) {
            mark(config.id, at: comparison.configuration.location(config.position), &checked)
            findings.append(contentsOf: compare(config, catalog, in: comparison))
        }
    }

    /// A finding of this rule with its default severity.
    func finding(_ productID: String, _ field: Field, _ message: FindingMessage, left: FindingSide?, right: FindingSide?,
                 territory: Territory? = nil, offerID: String? = nil) -> Finding {
        Self.finding(productID: productID, field: field, message: message, territory: territory, offerID: offerID, left: left, right: right)
    }
}

/// How messages name files: each by the shortest trailing part of its path that no other file of
/// the run ends with (`Products.storekit`, or `ios/Products.storekit` beside a second
/// `Products.storekit`).
public enum SourceNames {
    /// The nouns (`Comparison.runNoun`) that more than one of the run's sources goes by: "Google
    /// Play" in a run of two Play Console files and a catalogue.
    public static func crowdedNouns(_ sources: [Catalog]) -> Set<String> {
        var counts: [String: Int] = [:]
        for file in Set(sources.map(\.file)) {
            guard let source = sources.first(where: { $0.file == file }), let noun = Comparison.runNoun(source) else { continue }
            counts[noun, default: 0] += 1
        }
        return Set(counts.filter { $0.value > 1 }.keys)
    }

    public static func shortest(_ files: [String]) -> [String: String] {
        let unique = Array(Set(files))
        let parts = Dictionary(uniqueKeysWithValues: unique.map { ($0, $0.split(separator: "/", omittingEmptySubsequences: false).map(String.init)) })
        var names: [String: String] = [:]
        for file in unique {
            let components = parts[file] ?? [file]
            var chosen = file
            for count in 1...max(components.count, 1) {
                let suffix = components.suffix(count)
                let clash = unique.contains { other in
                    guard other != file, let otherParts = parts[other], otherParts.count >= count else { return false }
                    return Array(otherParts.suffix(count)) == Array(suffix)
                }
                if !clash {
                    chosen = suffix.joined(separator: "/")
                    break
                }
            }
            names[file] = chosen
        }
        return names
    }
}
