import TallyModel

/// A paywall platform's configuration as a `Catalog`: the store products it knows become the
/// catalogue's products (so that `show`, `diff` and `convert` handle the source like any other),
/// and the offerings, packages and entitlements ride along as `Catalog.paywall`.
enum PaywallCatalog {
    /// - Parameter knowsKinds: whether the source states product types (RevenueCat v1 does not).
    static func build(_ paywall: Paywall, file: String, format: SourceFormat, parts: [SourcePart] = [], knowsKinds: Bool = true,
                      issues: [SourceIssue] = []) -> Catalog {
        var products: [Product] = []
        var seen = Set<String>()
        for item in paywall.products {
            // Products of stores Tally does not read (Stripe, Amazon) stay in `paywall` only.
            if item.store == nil, item.storeName != nil { continue }
            guard seen.insert("\(item.store?.rawValue ?? "") \(item.storeID)").inserted else { continue }
            var product = Product(id: item.storeID, kind: item.kind?.productKind ?? .nonConsumable, period: item.period,
                                  position: item.position)
            if item.kindPosition.isKnown { product.fieldPositions[.kind] = item.kindPosition }
            if item.periodPosition.isKnown { product.fieldPositions[.period] = item.periodPosition }
            if item.store == .googlePlay {
                product.googlePlayID = item.storeID
                product.isGooglePlayOnly = true
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
