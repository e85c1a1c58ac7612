import TallyModel

/// Computes what changed between two versions of a catalogue, of the same or of different formats.
///
/// Products are matched by exact ID (a product removed and one added with the same kind and
/// reference name are one product renamed: one `.id` change, marked for attention), prices by territory, promotional, code and win-back offers by
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
        diff(DiffContext(old: old, new: new, oldAbsent: oldAbsent, newAbsent: newAbsent))
    }

    /// The changes from one set of files to another, as whole catalogues: a product whose file
    /// changed is reported as moved (a `.file` change, not for attention) with any real changes,
    /// never as removed and added (one file against one file moves nothing: a renamed file is the
    /// same catalogue). An empty set is an absent side.
    public func diff(old: CatalogSet, new: CatalogSet) -> CatalogDiff {
        var context = DiffContext(old: old.catalog, new: new.catalog, oldAbsent: old.isEmpty, newAbsent: new.isEmpty)
        // One file against one file is the same catalogue, whatever the files are called.
        if !old.isEmpty, !new.isEmpty, old.files.count > 1 || new.files.count > 1 {
            context.origins = (old.origins, new.origins)
            context.labels = (old.labels, new.labels)
        }
        return diff(context)
    }

    private func diff(_ context: DiffContext) -> CatalogDiff {
        let (old, new) = (context.old, context.new)
        let levels = GroupDiffer.levelChanges(context)
        var products: [ProductChanges] = []
        var unchanged = 0
        let renames = Self.renames(context)
        let renamedOld = Set(renames.values)
        for (id, product) in context.oldProducts where context.newProducts[id] == nil && !renamedOld.contains(id) {
            var entry = ProductChanges(productID: id, status: .removed, changes: [Change(
                .product, .removed, productID: id, old: .product(ProductOutline(product, in: old)),
                // The code no longer asking for an ID retires nothing in the store.
                oldPosition: product.position, attention: old.format.role == .code ? [] : [.productRemoved])], name: product.nameForPeople)
            entry.showName(from: product)
            products.append(entry)
        }
        for (id, product) in context.newProducts {
            if let oldID = renames[id], let before = context.oldProducts[oldID] {
                products.append(Self.renamed(before, product, context: context))
                continue
            }
            guard let before = context.oldProducts[id] else {
                var entry = ProductChanges(productID: id, status: .added, changes: [Change(
                    .product, .added, productID: id, new: .product(ProductOutline(product, in: new)),
                    newPosition: product.position)], name: product.nameForPeople)
                entry.showName(from: product)
                products.append(entry)
                continue
            }
            var changes = ProductDiffer.changes(before, product, level: levels[id], context: context)
            if let origins = context.origins, let from = origins.old[id], let to = origins.new[id], from != to {
                let labels = context.labels
                changes.insert(Change(.file, .changed, productID: id, old: .text(labels?.old[from] ?? from), new: .text(labels?.new[to] ?? to),
                                      oldPosition: before.position, newPosition: product.position), at: 0)
            }
            if changes.isEmpty {
                unchanged += 1
            } else {
                var entry = ProductChanges(productID: id, status: .changed, changes: changes, name: product.nameForPeople ?? before.nameForPeople)
                entry.showName(from: product, or: before)
                products.append(entry)
            }
        }
        products.sort { $0.productID < $1.productID }
        Self.noteRenames(&products, context)
        return CatalogDiff(old: context.oldSource, new: context.newSource, sourceChanges: sourceChanges(context),
                           products: products, unchangedProducts: unchanged)
    }

    /// Removed and added products that are one product renamed: the same kind and the same
    /// reference name, the only removed and the only added product with that name. New ID → old ID.
    static func renames(_ context: DiffContext) -> [String: String] {
        func byName(_ products: [String: Product], absentFrom other: [String: Product]) -> [String: [Product]] {
            var table: [String: [Product]] = [:]
            for (id, product) in products where other[id] == nil {
                guard let name = product.referenceName?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty else { continue }
                table[name, default: []].append(product)
            }
            return table
        }
        // The code no longer asking for an ID, or asking for a new one, names no reference name.
        guard context.old.format.role != .code, context.new.format.role != .code else { return [:] }
        let removed = byName(context.oldProducts, absentFrom: context.newProducts)
        guard !removed.isEmpty else { return [:] }
        let added = byName(context.newProducts, absentFrom: context.oldProducts)
        var pairs: [String: String] = [:]
        for (name, before) in removed {
            guard before.count == 1, let after = added[name], after.count == 1, before[0].kind == after[0].kind else { continue }
            pairs[after[0].id] = before[0].id
        }
        return pairs
    }

    /// One product under a new ID: the ID's change (the old ID retired, for attention) and every
    /// other change between the two.
    private static func renamed(_ before: Product, _ product: Product, context: DiffContext) -> ProductChanges {
        var changes = [Change(.id, .changed, productID: product.id, old: .text(before.id), new: .text(product.id),
                              oldPosition: before.position(of: .id), newPosition: product.position(of: .id), attention: [.productRemoved],
                              note: .sameReferenceName(product.referenceName?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""))]
        if let origins = context.origins, let from = origins.old[before.id], let to = origins.new[product.id], from != to {
            let labels = context.labels
            changes.append(Change(.file, .changed, productID: product.id, old: .text(labels?.old[from] ?? from), new: .text(labels?.new[to] ?? to),
                                  oldPosition: before.position, newPosition: product.position))
        }
        changes += ProductDiffer.changes(before, product, level: nil, context: context)
        var entry = ProductChanges(productID: product.id, status: .changed, changes: changes, name: product.nameForPeople ?? before.nameForPeople)
        entry.showName(from: product, or: before)
        return entry
    }

    /// Marks a removed and an added product of the same kind whose IDs are a near miss (as
    /// `tally check` suggests "did you mean"): `renamed? old → new`. Without a reference name in
    /// common they still count as removed and added: nothing but the IDs says they are one product.
    private static func noteRenames(_ products: inout [ProductChanges], _ context: DiffContext) {
        let removed = products.indices.filter { products[$0].status == .removed }
        let added = products.indices.filter { products[$0].status == .added }
        guard !removed.isEmpty, !added.isEmpty else { return }
        var addedByID: [String: Int] = [:]
        for index in added { addedByID[products[index].productID] = index }
        let index = NearMatch.Index(added.map { products[$0].productID }, productIDs: true)
        var taken = Set<String>()
        for oldIndex in removed {
            let oldID = products[oldIndex].productID
            guard let newID = index.best(for: oldID), !taken.contains(newID), let newIndex = addedByID[newID],
                  context.oldProducts[oldID]?.kind == context.newProducts[newID]?.kind else { continue }
            taken.insert(newID)
            let note = ChangeNote.possibleRename(old: oldID, new: newID)
            products[oldIndex].changes[0].note = note
            products[newIndex].changes[0].note = note
        }
    }

    /// Changes to the sources as a whole: the storefront, then subscription groups.
    private func sourceChanges(_ context: DiffContext) -> [Change] {
        var changes: [Change] = []
        let (old, new) = (context.oldSource, context.newSource)
        if !old.absent, !new.absent, old.storefront != new.storefront {
            let note: ChangeNote = context.storefrontPair != nil ? .storefrontsCompared : .offerPricesFollow(storefront: new.format.pricesOneStorefront)
            changes.append(Change(.storefront, .changed, productID: nil, old: .text(old.storefront.code), new: .text(new.storefront.code), note: note))
        }
        changes += GroupDiffer.groupChanges(context)
        return changes
    }
}

/// The two catalogues being compared, their products by ID, and what both know.
struct DiffContext {
    /// For sets of files: the file each product came from, on each side.
    var origins: (old: [String: String], new: [String: String])?
    /// How reports name those files.
    var labels: (old: [String: String], new: [String: String])?
    let old: Catalog
    let new: Catalog
    let oldSource: DiffSource
    let newSource: DiffSource
    let oldProducts: [String: Product]
    let newProducts: [String: Product]
    /// Old groups (left) paired with new groups (right).
    let groups: GroupPairing
    /// `USA → COL` when both sides are single-storefront sources with different storefronts:
    /// each product's one price is then compared with the other's, across currencies.
    let storefrontPair: String?

    init(old: Catalog, new: Catalog, oldAbsent: Bool, newAbsent: Bool) {
        self.old = old
        self.new = new
        oldSource = DiffSource(old, absent: oldAbsent)
        newSource = DiffSource(new, absent: newAbsent)
        origins = nil
        labels = nil
        oldProducts = old.productsByID
        newProducts = new.productsByID
        let (before, after) = (oldProducts, newProducts)
        groups = GroupPairing(left: old, right: new, members: before.compactMap { id, a in after[id].map { (a, $0) } })
        storefrontPair = oldSource.singleStorefront && newSource.singleStorefront && oldSource.storefront != newSource.storefront
            ? "\(oldSource.storefront) → \(newSource.storefront)" : nil
    }

    /// Whether both sources know a field; fields only one side knows are not compared.
    func bothKnow(_ field: Field) -> Bool {
        old.knownFields.contains(field) && new.knownFields.contains(field)
    }
}
