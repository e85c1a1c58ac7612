import TallyModel

/// What the paywall checks compared, as values for the coverage lines of every report (TallyReport
/// words them): one line for the paywall on its own, one per store source or configuration it
/// was compared with. A store product that no offering shows is said here, never as a finding:
/// apps sell outside the paywall too.
public enum PaywallCoverage {
    public static func lines(_ context: PaywallContext) -> [ComparedLine] {
        [.paywall(own(context))] + context.sides.indices.map { .paywallSide(pair(context, side: $0)) }
    }

    /// The paywall on its own: its offerings, packages, products and entitlements, what was checked and skipped.
    static func own(_ context: PaywallContext) -> PaywallSummary {
        let paywall = context.paywall
        let packages = paywall.offerings.reduce(0) { $0 + $1.packages.count }
        let current = paywall.statesCurrentOffering ? paywall.offerings.filter(\.isCurrent).map(\.key) : nil
        var checked: [PaywallSummary.Check] = [.offeringsHavePackages]
        if paywall.statesCurrentOffering || paywall.listsOfferings { checked.append(.currentOffering) }
        if paywall.listsOfferings { checked.append(.everyProductInOffering) }
        var skipped: [PaywallSummary.Skip] = []
        if paywall.entitlements != nil {
            checked.append(.entitlementsGrantSold)
        } else {
            skipped.append(.noEntitlements)
        }
        let unstated = paywall.offerings.filter { !$0.statesPackages }.count
            + paywall.offerings.flatMap(\.packages).filter { !$0.statesProducts }.count
        if unstated > 0 { skipped.append(.unstatedContents(unstated)) }
        let elsewhere = paywall.products.filter { $0.store == nil && $0.storeName != nil }
        if !elsewhere.isEmpty {
            skipped.append(.otherStores(products: elsewhere.count, stores: Set(elsewhere.compactMap(\.storeName)).sorted()))
        }
        if paywall.products.contains(where: { $0.store == nil && $0.storeName == nil }) { skipped.append(.storeUnknown) }
        return PaywallSummary(file: context.source.file, platform: paywall.platform, offerings: paywall.offerings.count,
                              currentOfferings: current, packages: packages, products: paywall.products.count,
                              entitlements: paywall.entitlements?.count, checked: checked, skipped: skipped)
    }

    /// The paywall against side `index`: what it shows of the side's store, what was compared,
    /// and the products on one side only. Products the paywall has in this store that no package it states holds are looked up
    /// too, so that a product on one side only is named even when the pages do not say what the
    /// packages hold.
    static func pair(_ context: PaywallContext, side index: Int) -> PaywallSideSummary {
        let side = context.sides[index]
        let matches = context.matches.filter { $0.side == index }
        var shownIDs = Set<String>()
        var inBoth = Set<String>()
        var matchedStoreIDs = Set<String>()
        var kinds = Set<String>()
        var periods = Set<String>()
        for match in matches {
            shownIDs.insert(match.shown.product.storeID)
            guard let product = match.lookup.product else { continue }
            inBoth.insert(match.shown.product.storeID)
            matchedStoreIDs.insert(product.id)
            if match.shown.product.kind != nil, side.catalog.knownFields.contains(.kind) { kinds.insert(product.id) }
            if match.shown.product.period != nil, product.period != nil, product.kind.isAutoRenewable { periods.insert(product.id) }
        }
        // The paywall's products of this store that no package it states holds.
        var unshownKnown: [String] = []
        var knownFound = Set<String>()
        var knownMissing: [String] = []
        // (A product of no known store is looked up in every store's source, as the rules do.)
        for product in context.paywall.products where (product.store == side.store || (product.store == nil && product.storeName == nil)) && !shownIDs.contains(product.storeID)
            && !unshownKnown.contains(product.storeID) {
            unshownKnown.append(product.storeID)
            if let found = side.lookup(product).product { knownFound.insert(found.id) } else { knownMissing.append(product.storeID) }
        }
        let unstated = context.paywall.offerings.filter { !$0.statesPackages }.count
            + context.paywall.offerings.flatMap(\.packages).filter { !$0.statesProducts }.count
        // Which products the packages hold is not known when some do not say: then only a
        // product the paywall does not have at all is surely in no offering.
        let outside = unstated > 0
            ? side.products.keys.filter { !matchedStoreIDs.contains($0) && !knownFound.contains($0) }.sorted()
            : side.products.keys.filter { !matchedStoreIDs.contains($0) }.sorted()
        return PaywallSideSummary(paywall: context.source.file, side: side.catalog.file, store: side.store, platform: context.paywall.platform,
                                  shown: shownIDs.count, inBoth: inBoth.count, kinds: kinds.count, periods: periods.count,
                                  basePlans: side.store.basePlanSeparator != nil, unstatedContents: unstated, notShown: unshownKnown.count,
                                  notShownMissing: knownMissing, outside: outside)
    }
}
