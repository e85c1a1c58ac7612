import TallyModel

/// Products of two stores compared through one catalogue: a catalogue product's identity in
/// another store is its `storeIDs` entry (`google_play:` in `tally-catalog/1`), or its own ID when
/// it names none (`Catalog.id(of:in:)`). Against a source of a store that does not key catalogues
/// (Google Play), the other side's products are matched under that identity; `google_play: null`
/// (an empty identity) leaves a product out of the comparison, and a comparison of two App Store
/// sources leaves out the products sold on Google Play only.
enum StoreIdentity {
    static func inOneStore(_ left: Catalog, _ right: Catalog) -> (Catalog, Catalog) {
        let store = [left.format.store, right.format.store].first { !$0.keysCatalogues } ?? left.format.store
        return (inStore(left, store), inStore(right, store))
    }

    /// The catalogue with every product under its ID in `store`, without the products it has no
    /// ID for there.
    static func inStore(_ catalog: Catalog, _ store: Store) -> Catalog {
        var renamed: [String: String?] = [:]
        for product in catalog.products {
            let id = catalog.id(of: product, in: store)
            if id != product.id, renamed[product.id] == nil { renamed[product.id] = .some(id) }
        }
        guard !renamed.isEmpty else { return catalog }
        var mapped = catalog
        mapped.products = catalog.products.compactMap { product in
            guard let id = catalog.id(of: product, in: store) else { return nil }
            var copy = product
            copy.id = id
            return copy
        }
        mapped.groups = catalog.groups.map { group in
            var group = group
            group.productIDs = group.productIDs.compactMap { id in
                guard let entry = renamed[id] else { return id }
                return entry
            }
            return group
        }
        return mapped
    }
}
