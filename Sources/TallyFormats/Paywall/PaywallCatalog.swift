import TallyModel

/// A paywall platform's configuration as a `Catalog`: the store products it knows become the
/// catalogue's products (so that `show`, `diff` and `convert` handle the source like any other),
/// and the offerings, packages and entitlements ride along as `Catalog.paywall`.
enum PaywallCatalog {
    /// The catalogue knows kinds and periods when every product states its kind (RevenueCat v1
    /// and older Adapty files name products without one, a one-time product may be consumable or
    /// not); otherwise only the products that state a kind show it, through the position it is
    /// read from.
    static func build(_ paywall: Paywall, file: String, format: SourceFormat, parts: [SourcePart] = [],
                      issues: [SourceIssue] = []) -> Catalog {
        var products: [Product] = []
        var knowsKinds = true
        var seen = Set<String>()
        for item in paywall.products {
            // Products of stores Tally does not read (Stripe, Amazon) stay in `paywall` only.
            if item.store == nil, item.storeName != nil { continue }
            guard seen.insert("\(item.store?.rawValue ?? "") \(item.storeID)").inserted else { continue }
            var product = Product(id: item.storeID, kind: item.kind?.productKind ?? .nonConsumable, period: item.period,
                                  position: item.position)
            // A one-time product of unknown consumability is shown as an unstated kind, not as
            // the non-consumable placeholder it becomes.
            if item.kind == nil || item.kind == .oneTime { knowsKinds = false }
            if item.kindPosition.isKnown, item.kind != .oneTime { product.fieldPositions[.kind] = item.kindPosition }
            if item.periodPosition.isKnown { product.fieldPositions[.period] = item.periodPosition }
            // A product of a store that does not key catalogues (Google Play) is sold there alone.
            if let store = item.store, !store.keysCatalogues {
                product.storeIDs[store] = item.storeID
                product.soleStore = store
            }
            products.append(product)
        }
        var known: Set<Field> = [.id]
        if knowsKinds { known.formUnion([.kind, .period]) }
        var catalog = Catalog(file: file, format: format, defaultTerritory: .usa, products: products, groups: [],
                              knownFields: known, issues: issues)
        catalog.parts = parts
        catalog.paywall = paywall
        return catalog
    }

    /// A position `lines` further down (pages of a folder are numbered on from the page before).
    static func shift(_ position: Position, _ lines: Int) -> Position {
        position.isKnown ? Position(line: Int(position.line) + lines, column: Int(position.column)) : position
    }
}
