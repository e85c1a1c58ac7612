import TallyModel

/// Products each side has alone that look like one product under two IDs (issue 36, class 3): a
/// RevenueCat project's `contractorai_monthly`, `_quarterly`, `_annual` and a StoreKit file's
/// `com.….starter.monthly`, `.basic.3months`, `.basic.1year`. One finding per pair names both IDs;
/// the presence rules leave the two products to it.
public struct RenamedProductRule: ComparisonRule {
    public static let description = describe(
        id: .renamedProduct, defaultSeverity: .error,
        summary: "Two products, each on one side only, are alike in kind, period, group and price: one product renamed on one side.",
        rationale: "Two sources that name one product with two IDs (a product renamed in one place, or created under a new ID in one "
            + "store) sell nothing that matches: the app asks the store for an ID it does not have, the server grants an ID the "
            + "store never sells. Read as two unrelated missing products, the cause hides; alike in kind, period, group and price, "
            + "and each the other's only such partner, they are one product named twice.",
        fix: "Give the product one ID on both sides: keep the ID the store has (an App Store or Google Play product ID cannot change "
            + "once created) and correct the other source. If they really are two products, add each to the source that lacks it.")

    public init() {}

    public func evaluate(_ comparison: Comparison, findings: inout [Finding], checked: inout CheckedLog) {
        for pair in comparison.renames.pairs {
            let (config, catalog) = (pair.config, pair.catalog)
            mark(config.id, at: comparison.configuration.location(config.position), &checked)
            findings.append(Finding(
                ruleID: Self.description.id, severity: Self.description.defaultSeverity, productID: config.id, field: .id,
                message: "\(product: config.id) is in \(source: comparison.configNoun) and \(product: catalog.id) in \(source: comparison.catalogNoun), "
                    + "each missing from the other side, and alike (\(pair.alike)): renamed on one side?",
                left: comparison.configSide(config, .id, value: config.id),
                right: comparison.catalogSide(catalog, .id, value: catalog.id),
                hint: "one product under two IDs: give it the ID the store has on both sides; if they are two products, add each where it is missing"))
        }
    }
}

/// The one-sided products of a comparison paired as one product under two IDs. A product only
/// the configuration has and one only the catalogue has pair when they are of one kind, with
/// the same period (subscriptions), the same prices where both price a territory in one
/// currency, and groups that correspond where both sides' groups are paired; with enough in
/// common (two of price, group and name, and a subscription its period besides); and each is the
/// other's only such partner. A
/// pair whose IDs are a near miss (`NearMatch`) is left to the presence rules' "did you mean".
public struct RenamePairing: Sendable {
    public struct Pair: Sendable {
        public let config: Product
        public let catalog: Product
        /// What the two have in common, for the message: `auto-renewable-subscription, every 1 month, 34.99 USD in USA`.
        public let alike: FindingMessage
    }

    public let pairs: [Pair]
    public let configIDs: Set<String>
    public let catalogIDs: Set<String>

    static let none = RenamePairing(pairs: [])

    init(pairs: [Pair]) {
        self.pairs = pairs
        configIDs = Set(pairs.map(\.config.id))
        catalogIDs = Set(pairs.map(\.catalog.id))
    }

    /// The pairs of a comparison's sides (`configProducts`, `catalogProducts` already built).
    static func pair(configuration: Catalog, catalog: Catalog, configProducts: [String: Product], catalogProducts: [String: Product],
                     groupPairing: GroupPairing) -> RenamePairing {
        guard configuration.knownFields.contains(.kind), catalog.knownFields.contains(.kind) else { return .none }
        let left = Self.unique(configuration.products.filter { catalogProducts[$0.id] == nil })
        let right = Self.unique(catalog.products.filter { configProducts[$0.id] == nil })
        guard !left.isEmpty, !right.isEmpty else { return .none }
        let context = Context(configuration: configuration, catalog: catalog, groupPairing: groupPairing)
        var rightByKey: [String: [Product]] = [:]
        for product in right { rightByKey[context.key(product), default: []].append(product) }
        var leftByKey: [String: [Product]] = [:]
        for product in left { leftByKey[context.key(product), default: []].append(product) }
        var pairs: [Pair] = []
        for (key, mine) in leftByKey.sorted(by: { $0.key < $1.key }) {
            guard let theirs = rightByKey[key] else { continue }
            // Many alike products on both sides (a whole catalogue under new IDs): only those that
            // share a name are compared, so that the work stays linear.
            let crowded = mine.count * theirs.count > 10_000
            let theirsByName = crowded ? Self.byName(theirs) : [:]
            let mineByName = crowded ? Self.byName(mine) : [:]
            for a in mine {
                let pool = crowded ? Self.sharingName(a, theirsByName) : theirs
                let candidates = pool.filter { context.alike(a, $0) != nil }
                guard candidates.count == 1, let b = candidates.first else { continue }
                let back = (crowded ? Self.sharingName(b, mineByName) : mine).filter { context.alike($0, b) != nil }
                guard back.count == 1, back[0].id == a.id, let alike = context.alike(a, b) else { continue }
                pairs.append(Pair(config: a, catalog: b, alike: alike))
            }
        }
        guard !pairs.isEmpty else { return .none }
        // A near miss is a typo the presence rules name with "did you mean", not a rename.
        let rightIndex = NearMatch.Index(right.map(\.id), productIDs: true)
        let leftIndex = NearMatch.Index(left.map(\.id), productIDs: true)
        return RenamePairing(pairs: pairs.filter { pair in
            rightIndex.best(for: pair.config.id) != pair.catalog.id && leftIndex.best(for: pair.catalog.id) != pair.config.id
        })
    }

    /// Products by each of their names (`Context.names`).
    private static func byName(_ products: [Product]) -> [String: [Product]] {
        var table: [String: [Product]] = [:]
        for product in products {
            for name in Context.names(product) { table[name, default: []].append(product) }
        }
        return table
    }

    /// The products of `table` that share a name with `product`, each once.
    private static func sharingName(_ product: Product, _ table: [String: [Product]]) -> [Product] {
        var seen = Set<String>()
        return Context.names(product).sorted().flatMap { table[$0] ?? [] }.filter { seen.insert($0.id).inserted }
    }

    /// The first product of each ID.
    private static func unique(_ products: [Product]) -> [Product] {
        var seen = Set<String>()
        return products.filter { seen.insert($0.id).inserted }
    }

    private struct Context {
        let configuration: Catalog
        let catalog: Catalog
        let groupPairing: GroupPairing
        var comparesPeriods: Bool { configuration.knownFields.contains(.period) && catalog.knownFields.contains(.period) }
        var comparesPrices: Bool { configuration.knownFields.contains(.prices) && catalog.knownFields.contains(.prices) }
        var oneTimeAlike: Bool { !(configuration.distinguishesConsumables && catalog.distinguishesConsumables) }

        /// The bucket a product pairs within: its kind (one-time products alike where a side
        /// does not tell consumables apart), for subscriptions its period, and its price in the
        /// configuration's storefront.
        func key(_ product: Product) -> String {
            var key = product.kind.rawValue
            if oneTimeAlike, product.kind == .consumable || product.kind == .nonConsumable { key = "one-time" }
            if product.kind.isAutoRenewable, comparesPeriods { key += " " + (product.period?.literal ?? "-") }
            // Alike products cost the same wherever both price: the configuration's storefront decides.
            if comparesPrices { key += " " + (product.price(in: configuration.defaultTerritory).map { "\($0.money.amount) \($0.money.currency ?? "")" } ?? "-") }
            return key
        }

        /// What `a` (configuration) and `b` (catalogue) have in common, or nil when they
        /// disagree on something both state or have too little in common: two of price,
        /// corresponding group and name, and a subscription its period besides.
        func alike(_ a: Product, _ b: Product) -> FindingMessage? {
            var parts: [FindingMessage] = ["\(words: a.kind)"]
            var period = false
            var others = 0
            if a.kind.isAutoRenewable, comparesPeriods, let shared = a.period, b.period == shared {
                parts.append("every \(duration: shared)")
                period = true
            }
            if comparesPrices {
                var shared: [Price] = []
                for price in a.prices {
                    guard let other = b.price(in: price.territory), other.money.currency == price.money.currency else { continue }
                    guard other.money.amount == price.money.amount else { return nil }
                    shared.append(price)
                }
                if let first = shared.first(where: { $0.territory == configuration.defaultTerritory }) ?? shared.first {
                    let more: FindingMessage = shared.count > 1 ? " and \(count: shared.count - 1) more territories" : ""
                    parts.append("\(first.money) in \(first.territory)" + more)
                    others += 1
                }
            }
            if let groupA = a.group?.groupID, let groupB = b.group?.groupID, let paired = groupPairing.rightGroup[groupA] {
                guard paired == groupB else { return nil }
                parts.append("group \"\(name: GroupRule.name(of: groupB, in: catalog))\"")
                others += 1
            }
            if let name = Self.names(a).intersection(Self.names(b)).min() {
                parts.append("name \"\(name: name)\"")
                others += 1
            }
            // A monthly plan at 4.99 USD is the commonest product there is: period and price alone are too little.
            let enough = others >= 2 && (period || !(a.kind.isAutoRenewable && comparesPeriods))
            return enough ? FindingMessage.joined(parts, separator: ", ") : nil
        }

        /// The product's reference name and display names, lower-cased, for comparing.
        static func names(_ product: Product) -> Set<String> {
            var names = Set<String>()
            for name in [product.referenceName] + product.localizations.map(\.displayName) {
                guard let name = name?.trimmingCharacters(in: .whitespacesAndNewlines).lowercased(), !name.isEmpty else { continue }
                names.insert(name)
            }
            return names
        }
    }
}
