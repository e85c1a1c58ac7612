import TallyModel

/// Computes what changed between two versions of a catalogue, of the same or of different formats.
///
/// Products are matched by exact ID, prices by territory, promotional, code and win-back offers by
/// offer ID, localisations by locale and subscription groups by their members (StoreKit's hex
/// group IDs change, the members stay): never by position in the file. Every step is a
/// dictionary lookup or a sort, so the work grows linearly (up to a logarithm) with the catalogue.
///
/// ```swift
/// let diff = CatalogDiffer().diff(old: try SourceLoader.load(path: "v1.storekit"),
///                                 new: try SourceLoader.load(path: "v2.storekit"))
/// for product in diff.products { print(product.productID, product.status) }
/// ```
public struct CatalogDiffer: Sendable {
    public init() {}

    /// The changes from `old` to `new`. `oldAbsent` / `newAbsent` mark a side whose file does
    /// not exist (pass an empty catalogue for it): every product is then added or removed.
    public func diff(old: Catalog, new: Catalog, oldAbsent: Bool = false, newAbsent: Bool = false) -> CatalogDiff {
        let context = DiffContext(old: old, new: new, oldAbsent: oldAbsent, newAbsent: newAbsent)
        let levels = GroupDiffer.levelChanges(context)
        var products: [ProductChanges] = []
        var unchanged = 0
        for (id, product) in context.oldProducts where context.newProducts[id] == nil {
            products.append(ProductChanges(productID: id, status: .removed, changes: [Change(
                .product, .removed, productID: id, old: .product(ProductOutline(product, storefront: old.defaultTerritory)),
                oldPosition: product.position, attention: [.productRemoved])], name: product.nameForPeople))
        }
        for (id, product) in context.newProducts {
            guard let before = context.oldProducts[id] else {
                products.append(ProductChanges(productID: id, status: .added, changes: [Change(
                    .product, .added, productID: id, new: .product(ProductOutline(product, storefront: new.defaultTerritory)),
                    newPosition: product.position)], name: product.nameForPeople))
                continue
            }
            let changes = ProductDiffer.changes(before, product, level: levels[id], context: context)
            if changes.isEmpty {
                unchanged += 1
            } else {
                products.append(ProductChanges(productID: id, status: .changed, changes: changes, name: product.nameForPeople))
            }
        }
        products.sort { $0.productID < $1.productID }
        return CatalogDiff(old: context.oldSource, new: context.newSource, sourceChanges: sourceChanges(context),
                           products: products, unchangedProducts: unchanged)
    }

    /// Changes to the sources as a whole: the storefront, then subscription groups.
    private func sourceChanges(_ context: DiffContext) -> [Change] {
        var changes: [Change] = []
        let (old, new) = (context.oldSource, context.newSource)
        if !old.absent, !new.absent, old.storefront != new.storefront {
            let note = context.storefrontPair != nil
                ? "each file holds one price per product, in its storefront: prices are compared storefront to storefront"
                : "offer prices follow the \(new.storefrontName)"
            changes.append(Change(.storefront, .changed, productID: nil, old: .text(old.storefront.code), new: .text(new.storefront.code), note: note))
        }
        changes += GroupDiffer.groupChanges(context)
        return changes
    }
}

/// The two catalogues being compared, their products by ID, and what both know.
struct DiffContext {
    let old: Catalog
    let new: Catalog
    let oldSource: DiffSource
    let newSource: DiffSource
    let oldProducts: [String: Product]
    let newProducts: [String: Product]
    let groups: GroupPairing
    /// `USA → COL` when both sides are single-storefront sources with different storefronts:
    /// each product's one price is then compared with the other's, across currencies.
    let storefrontPair: String?

    init(old: Catalog, new: Catalog, oldAbsent: Bool, newAbsent: Bool) {
        self.old = old
        self.new = new
        oldSource = DiffSource(old, absent: oldAbsent)
        newSource = DiffSource(new, absent: newAbsent)
        oldProducts = old.productsByID
        newProducts = new.productsByID
        groups = GroupPairing(old: old, new: new, oldProducts: oldProducts, newProducts: newProducts)
        storefrontPair = oldSource.singleStorefront && newSource.singleStorefront && oldSource.storefront != newSource.storefront
            ? "\(oldSource.storefront) → \(newSource.storefront)" : nil
    }

    /// Whether both sources know a field; fields only one side knows are not compared.
    func bothKnow(_ field: Field) -> Bool {
        old.knownFields.contains(field) && new.knownFields.contains(field)
    }
}
