import TallyModel

/// A paywall source beside the store sources and configurations of a run: each product the
/// paywall shows looked up, once, in every source of its store.
public struct PaywallContext: Sendable {
    public let source: Catalog
    public let paywall: Paywall
    public let sides: [PaywallSide]
    /// Every product shown, in every source of its store.
    public let matches: [PaywallMatch]

    /// Per side, what `renamePartner` compares, gathered once.
    private let renames: [RenameIndex]

    public init(source: Catalog, paywall: Paywall, others: [Catalog]) {
        self.source = source
        self.paywall = paywall
        let sides = others.filter { $0.format.role != .paywall }.map(PaywallSide.init)
        self.sides = sides
        var matches: [PaywallMatch] = []
        for shown in paywall.shown {
            for (index, side) in sides.enumerated() where side.sells(shown.product) {
                matches.append(PaywallMatch(shown: shown, side: index, lookup: side.lookup(shown.product)))
            }
        }
        self.matches = matches
        renames = sides.map { RenameIndex(paywall: paywall, side: $0) }
    }

    /// The store product a paywall product missing from side `index` looks renamed to: a product
    /// of that side that no paywall product of its store has, a subscription of the period the
    /// paywall states, each the other's only such partner (`contractorai_monthly` in RevenueCat,
    /// `com.elevated.contractorai.starter.monthly` in the StoreKit file). Nil for a product of no
    /// stated store or kind. A lookup by period: the products on both sides are grouped once, so
    /// that a paywall of N missing products is checked in linear time.
    func renamePartner(of product: PaywallProduct, side index: Int) -> Product? {
        let side = sides[index]
        guard product.store == side.store, product.kind != nil, product.kind == .subscription, let period = product.period else { return nil }
        let candidates = renames[index].free[period] ?? []
        guard candidates.count == 1, let partner = candidates.first, let partnerPeriod = partner.period else { return nil }
        let back = renames[index].missing[partnerPeriod] ?? []
        return back.count == 1 && back[0].storeID == product.storeID ? partner : nil
    }

    /// One side's products no paywall product of its store has (auto-renewable, by period), and
    /// the paywall's products of that store the side lacks (subscriptions, by period, once per
    /// store ID): the two halves of `alike`, grouped.
    private struct RenameIndex: Sendable {
        var free: [Period: [Product]] = [:]
        var missing: [Period: [PaywallProduct]] = [:]

        init(paywall: Paywall, side: PaywallSide) {
            var taken = Set<String>()
            var seen = Set<String>()
            for item in paywall.products where item.store == side.store {
                if let found = side.find(item.storeID) {
                    taken.insert(found.id)
                } else if seen.insert(item.storeID).inserted, item.kind == .subscription, let period = item.period {
                    missing[period, default: []].append(item)
                }
            }
            for product in side.products.values where !taken.contains(product.id) && product.kind.isAutoRenewable {
                if let period = product.period { free[period, default: []].append(product) }
            }
        }
    }

    /// Whether a store product could be the paywall product under another ID: both
    /// subscriptions, with the period both state (a one-time product has nothing but its kind to
    /// go by, which is too little).
    static func alike(_ product: PaywallProduct, _ store: Product) -> Bool {
        guard product.kind == .subscription, store.kind.isAutoRenewable, let period = product.period, let other = store.period else { return false }
        return period == other
    }

    /// The paywall's side of a finding, at `position` in the paywall source.
    func paywallSide(_ value: FindingValue?, at position: Position) -> FindingSide {
        FindingSide(role: .paywall, value: value, location: source.location(position))
    }

    /// How messages name the paywall source: "RevenueCat".
    var noun: String { paywall.platform }
}

/// One store source or configuration as the paywall checks see it.
public struct PaywallSide: Sendable {
    public let catalog: Catalog
    /// Products by their ID in this source's store (a catalogue's Play-only products left out
    /// of the App Store's side).
    public let products: [String: Product]

    init(_ catalog: Catalog) {
        self.catalog = catalog
        var products: [String: Product] = [:]
        for product in catalog.products where products[product.id] == nil {
            if !product.isSold(in: catalog.format.store) { continue }
            products[product.id] = product
        }
        self.products = products
    }

    public var store: Store { catalog.format.store }
    /// Whether this is what the app ships (its `.storekit` file, a product list), not a store's own export.
    public var isApp: Bool { catalog.format.role == .configuration }

    /// "the app's StoreKit configuration App.storekit", "Google Play (play)", "the App Store catalogue (asc)".
    var noun: String {
        let name = catalog.file.split(separator: "/").last.map(String.init) ?? catalog.file
        if isApp { return "\(catalog.format.appSourceNoun) \(name)" }
        return store.namesItsSide ? "\(store.displayName) (\(name))" : "\(name)"
    }

    /// Whether the paywall product is sold in this source's store (a product of no stated store
    /// is looked up everywhere).
    func sells(_ product: PaywallProduct) -> Bool {
        if let store = product.store { return store == self.store }
        return product.storeName == nil
    }

    /// The store's product for a paywall store ID, without hints: the product itself, or a Play
    /// subscription's only base plan.
    func find(_ id: String) -> Product? {
        if let found = products[id] { return found }
        guard let separator = store.basePlanSeparator, !id.contains(separator) else { return nil }
        let plans = basePlans(of: id)
        return plans.count == 1 ? products["\(id):\(plans[0])"] : nil
    }

    func lookup(_ product: PaywallProduct) -> PaywallLookup {
        let id = product.storeID
        if let found = products[id] { return .found(found) }
        guard let separator = store.basePlanSeparator else { return .missing(hint: NearMatch.productID(for: id, among: products.keys)) }
        if let colon = id.firstIndex(of: separator) {
            let subscription = String(id[..<colon])
            let plans = basePlans(of: subscription)
            if !plans.isEmpty {
                return .basePlanMissing(subscription: subscription, basePlans: plans,
                                        hint: NearMatch.productID(for: id, among: plans.map { "\(subscription):\($0)" }))
            }
            return .missing(hint: NearMatch.productID(for: id, among: products.keys))
        }
        let plans = basePlans(of: id)
        if plans.count == 1, let only = products["\(id):\(plans[0])"] { return .found(only) }
        if plans.count > 1 { return .basePlanUnnamed(basePlans: plans) }
        return .missing(hint: NearMatch.productID(for: id, among: products.keys))
    }

    /// The base plans the store has for a Play subscription, sorted.
    func basePlans(of subscription: String) -> [String] {
        let prefix = subscription + ":"
        return products.keys.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }.sorted()
    }
}

/// One shown product in one source of its store.
public struct PaywallMatch: Sendable {
    public let shown: PaywallShown
    /// Index into `PaywallContext.sides`.
    public let side: Int
    public let lookup: PaywallLookup
}

/// What a source has of a product the paywall shows.
public enum PaywallLookup: Sendable {
    case found(Product)
    /// Not there; the nearest ID, if any.
    case missing(hint: String?)
    /// A Play `subscription:base-plan` whose subscription the store has, without that base plan.
    case basePlanMissing(subscription: String, basePlans: [String], hint: String?)
    /// A Play subscription named without a base plan, where the store has several.
    case basePlanUnnamed(basePlans: [String])

    public var product: Product? {
        if case .found(let product) = self { return product }
        return nil
    }
}
