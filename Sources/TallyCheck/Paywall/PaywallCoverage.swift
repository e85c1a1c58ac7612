import TallyModel

/// What the paywall checks compared, in words, for the coverage lines of every report: one line
/// for the paywall on its own, one per store source or configuration it was compared with.
/// A store product that no offering shows is said here, never as a finding: apps sell outside
/// the paywall too.
public enum PaywallCoverage {
    public static func sentences(_ context: PaywallContext) -> [String] {
        [own(context)] + context.sides.indices.map { pair(context, side: $0) }
    }

    /// `revenuecat (RevenueCat): 3 offerings (current: default), 7 packages, 9 products, 2 entitlements; checked ...`.
    static func own(_ context: PaywallContext) -> String {
        let paywall = context.paywall
        let packages = paywall.offerings.reduce(0) { $0 + $1.packages.count }
        var text = "\(context.source.file) (\(paywall.platform)): \(count(paywall.offerings.count, "offering"))"
        if paywall.statesCurrentOffering {
            text += " (current: \(paywall.offerings.filter(\.isCurrent).map(\.key).joined(separator: ", ").ifEmpty("none")))"
        }
        text += ", \(count(packages, "package")), \(count(paywall.products.count, "product"))"
        var checked = ["offerings have packages"]
        if paywall.statesCurrentOffering || paywall.listsOfferings { checked.append("an offering is current") }
        if paywall.listsOfferings { checked.append("every product is in an offering") }
        var skipped: [String] = []
        if let entitlements = paywall.entitlements {
            text += ", \(count(entitlements.count, "entitlement"))"
            checked.append("entitlements grant what is sold")
        } else {
            skipped.append("entitlements: the source has none (save the entitlements with their products)")
        }
        let unstated = paywall.offerings.filter { !$0.statesPackages }.count
            + paywall.offerings.flatMap(\.packages).filter { !$0.statesProducts }.count
        if unstated > 0 {
            skipped.append("\(count(unstated, "offering or package", "offerings or packages")) whose contents the pages do not hold "
                           + "(save offerings with expand=items.package.product)")
        }
        let elsewhere = paywall.products.filter { $0.store == nil && $0.storeName != nil }
        if !elsewhere.isEmpty {
            let stores = Set(elsewhere.compactMap(\.storeName)).sorted().joined(separator: ", ")
            skipped.append("\(count(elsewhere.count, "product")) of stores Tally does not read (\(stores))")
        }
        if paywall.products.contains(where: { $0.store == nil && $0.storeName == nil }) {
            skipped.append("the store of products no app names is not known: they are looked up in every source")
        }
        text += "; checked " + checked.joined(separator: ", ")
        if !skipped.isEmpty { text += "; skipped " + skipped.joined(separator: "; ") }
        return text
    }

    /// `revenuecat vs App.storekit: 4 App Store products shown, 3 in both; compared IDs, kind (3), period (2); 2 products of App.storekit in no offering: a, b`.
    /// Products the paywall has in this store that no package it states holds are looked up
    /// too, so that a product on one side only is named even when the pages do not say what the
    /// packages hold.
    static func pair(_ context: PaywallContext, side index: Int) -> String {
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
        let store = side.store.name
        let platform = context.paywall.platform
        let unstated = context.paywall.offerings.filter { !$0.statesPackages }.count
            + context.paywall.offerings.flatMap(\.packages).filter { !$0.statesProducts }.count
        if matches.isEmpty && unshownKnown.isEmpty {
            return "\(context.source.file) vs \(side.catalog.file): the paywall shows no \(store) product; nothing compared"
        }
        var text = "\(context.source.file) vs \(side.catalog.file): "
        if matches.isEmpty {
            text += "the paywall shows no \(store) product"
            if unstated > 0 { text += " (\(count(unstated, "offering or package", "offerings or packages")) do not say what they hold)" }
        } else {
            text += "\(count(shownIDs.count, "\(store) product")) shown, \(inBoth.count) in both; "
            var compared = ["IDs"]
            if !kinds.isEmpty { compared.append("kind (\(kinds.count))") }
            if !periods.isEmpty { compared.append("period (\(periods.count))") }
            if side.store.basePlanSeparator != nil { compared.append("base plans") }
            text += "compared " + compared.joined(separator: ", ")
        }
        if !unshownKnown.isEmpty {
            let place = unstated > 0 ? "that no package is known to hold" : "in no offering"
            text += "; \(count(unshownKnown.count, "\(store) product")) \(platform) has \(place): \(unshownKnown.count - knownMissing.count) in both"
            if !knownMissing.isEmpty {
                text += ", \(knownMissing.count) not in \(side.catalog.file): \(names(knownMissing))"
            }
        }
        if unstated > 0 {
            // Which products the packages hold is not known: only a product the paywall does not
            // have at all is surely in no offering.
            let unknown = side.products.keys.filter { !matchedStoreIDs.contains($0) && !knownFound.contains($0) }.sorted()
            if !unknown.isEmpty {
                text += "; \(count(unknown.count, "product")) of \(side.catalog.file) \(platform) does not have (sold outside the paywall, "
                    + "or forgotten): \(names(unknown))"
            }
        } else {
            let unshown = side.products.keys.filter { !matchedStoreIDs.contains($0) }.sorted()
            if !unshown.isEmpty {
                text += "; \(count(unshown.count, "product")) of \(side.catalog.file) in no offering (sold outside the paywall, or forgotten): \(names(unshown))"
            }
        }
        return text
    }

    /// The first five of `ids`, and an ellipsis for the rest.
    private static func names(_ ids: [String]) -> String {
        ids.prefix(5).joined(separator: ", ") + (ids.count > 5 ? ", …" : "")
    }

    private static func count(_ number: Int, _ noun: String, _ plural: String? = nil) -> String {
        number == 1 ? "1 \(noun)" : "\(number) \(plural ?? noun + "s")"
    }
}

private extension String {
    func ifEmpty(_ other: String) -> String { isEmpty ? other : self }
}
