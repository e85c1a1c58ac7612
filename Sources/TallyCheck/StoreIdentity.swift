import TallyModel

/// Products of two stores compared through one catalogue: a catalogue product's Google Play
/// identity is its `googlePlayID` (`google_play:` in `tally-catalog/1`), or its own ID when it
/// names none. Against a Google Play source, the other side's products are matched under that
/// identity; `google_play: null` (an empty identity) leaves a product out of the comparison.
enum StoreIdentity {
    static func inOneStore(_ left: Catalog, _ right: Catalog) -> (Catalog, Catalog) {
        switch (left.format.store, right.format.store) {
        case (.googlePlay, .appStore): return (left, asGooglePlay(right))
        case (.appStore, .googlePlay): return (asGooglePlay(left), right)
        case (.appStore, .appStore): return (onTheAppStore(left), onTheAppStore(right))
        default: return (left, right)
        }
    }

    /// The catalogue without its products sold on Google Play only (no App Store ID): an App
    /// Store comparison leaves them out, as a Google Play one leaves out `google_play: null`.
    static func onTheAppStore(_ catalog: Catalog) -> Catalog {
        guard catalog.products.contains(where: \.isGooglePlayOnly) else { return catalog }
        var mapped = catalog
        let playOnly = Set(catalog.products.filter(\.isGooglePlayOnly).map(\.id))
        mapped.products = catalog.products.filter { !$0.isGooglePlayOnly }
        mapped.groups = catalog.groups.map { group in
            var group = group
            group.productIDs = group.productIDs.filter { !playOnly.contains($0) }
            return group
        }
        return mapped
    }

    /// The catalogue with every product under its Google Play identity.
    static func asGooglePlay(_ catalog: Catalog) -> Catalog {
        guard catalog.products.contains(where: { $0.googlePlayID != nil }) else { return catalog }
        var mapped = catalog
        var renamed: [String: String] = [:]
        mapped.products = catalog.products.compactMap { product in
            guard let playID = product.googlePlayID else { return product }
            if renamed[product.id] == nil { renamed[product.id] = playID }
            guard !playID.isEmpty else { return nil }
            var copy = product
            copy.id = playID
            return copy
        }
        mapped.groups = catalog.groups.map { group in
            var group = group
            group.productIDs = group.productIDs.compactMap { id in
                guard let playID = renamed[id] else { return id }
                return playID.isEmpty ? nil : playID
            }
            return group
        }
        return mapped
    }
}
