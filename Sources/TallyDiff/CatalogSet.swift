import TallyModel

/// Several source files read as one catalogue, for `tally diff --since`: a product that moves
/// from one file to another is the same product, not one removed and one added.
///
/// The files' lines are numbered in one sequence (`Catalog.parts`, as an App Store Connect
/// export's pages are), so every position still names its own file and line. Which file each
/// product came from is kept, so the differ can say when a product moved.
///
/// ```swift
/// let old = CatalogSet(label: "catalog@v1", [try SourceLoader.load(path: "a.yaml"), ...])
/// let diff = CatalogDiffer().diff(old: old, new: CatalogSet(label: "catalog", [...]))
/// ```
public struct CatalogSet: Sendable {
    /// The files' products, groups and parts in one catalogue.
    public private(set) var catalog: Catalog
    /// The file each product ID was first found in, as given in `paths`.
    public private(set) var origins: [String: String]
    /// How reports name each of `paths` (`catalog/a.yaml@v1.2`): the files' catalogue names.
    public private(set) var labels: [String: String] = [:]
    /// Product IDs found in more than one of the files (the first file's product is used).
    public private(set) var duplicates: [String]
    /// Whether no file exists on this side.
    public var isEmpty: Bool { files.isEmpty }
    /// The files, in the order given.
    public let files: [String]

    /// Merges `catalogs` (one per file) under `label`. With no catalogues the set is empty: a
    /// side where none of the files exists (pass `format` and `territory` from the other side).
    /// `paths` say which file is which on both sides (`catalog/a.yaml` for `catalog/a.yaml@v1.2`);
    /// by default the catalogues' own names.
    public init(label: String, _ catalogs: [Catalog], paths: [String]? = nil, format: SourceFormat = .tallyCatalogYAML, territory: Territory = .usa) {
        let paths = paths.flatMap { $0.count == catalogs.count ? $0 : nil } ?? catalogs.map(\.file)
        files = paths
        labels = Dictionary(zip(paths, catalogs.map(\.file)), uniquingKeysWith: { first, _ in first })
        guard let first = catalogs.first else {
            catalog = Catalog(file: label, format: format, defaultTerritory: territory)
            origins = [:]
            duplicates = []
            return
        }
        var merged = Catalog(file: label, format: first.format, defaultTerritory: first.defaultTerritory,
                             knownFields: catalogs.reduce(Set(Field.allCases)) { $0.intersection($1.knownFields) })
        merged.introductoryOfferModes = first.introductoryOfferModes
        merged.distinguishesConsumables = catalogs.allSatisfy(\.distinguishesConsumables)
        var origins: [String: String] = [:]
        var duplicates: [String] = []
        var repeated = Set<String>()
        var groupIndex: [String: Int] = [:]
        var offset = 0
        for (part, path) in zip(catalogs, paths) {
            let shift = offset
            func moved(_ position: Position) -> Position {
                position.isKnown ? Position(line: Int(position.line) + shift, column: Int(position.column)) : position
            }
            var lastLine = 0
            for product in part.products {
                let shifted = product.mapPositions(moved)
                lastLine = max(lastLine, product.lastLine)
                if origins[product.id] == nil {
                    origins[product.id] = path
                } else if repeated.insert(product.id).inserted {
                    duplicates.append(product.id)
                }
                merged.products.append(shifted)
            }
            for group in part.groups {
                lastLine = max(lastLine, Int(group.position.line))
                if let index = groupIndex[group.id] {
                    let known = Set(merged.groups[index].productIDs)
                    merged.groups[index].productIDs += group.productIDs.filter { !known.contains($0) }
                } else {
                    var group = group
                    group.position = moved(group.position)
                    groupIndex[group.id] = merged.groups.count
                    merged.groups.append(group)
                }
            }
            if part.parts.isEmpty {
                merged.parts.append(SourcePart(file: part.file, firstLine: shift + 1))
            } else {
                merged.parts += part.parts.map { SourcePart(file: $0.file, firstLine: $0.firstLine + shift) }
            }
            offset += max(lastLine, 1)
        }
        catalog = merged
        self.origins = origins
        self.duplicates = duplicates
    }
}

extension Product {
    /// The product with every recorded position passed through `transform`.
    func mapPositions(_ transform: (Position) -> Position) -> Product {
        var product = self
        product.position = transform(position)
        product.fieldPositions = fieldPositions.mapValues(transform)
        product.prices = prices.map { price in
            var price = price
            price.position = transform(price.position)
            return price
        }
        func offers(_ offers: [Offer]) -> [Offer] {
            offers.map { offer in
                var offer = offer
                offer.position = transform(offer.position)
                return offer
            }
        }
        if let offer = introductoryOffer { product.introductoryOffer = offers([offer]).first }
        product.otherIntroductoryOffers = offers(otherIntroductoryOffers)
        product.promotionalOffers = offers(promotionalOffers)
        product.codeOffers = offers(codeOffers)
        product.winbackOffers = offers(winbackOffers)
        return product
    }

    /// The last line any of the product's positions names.
    var lastLine: Int {
        var last = 0
        _ = mapPositions { position in
            last = max(last, Int(position.line))
            return position
        }
        return last
    }
}
