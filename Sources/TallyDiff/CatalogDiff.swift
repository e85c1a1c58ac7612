import Foundation
import TallyModel

/// Everything that changed between an old and a new version of a catalogue.
public struct CatalogDiff: Sendable, Hashable {
    public let old: DiffSource
    public let new: DiffSource
    /// Changes to the source as a whole (storefront, subscription groups), in a stable order.
    public let sourceChanges: [Change]
    /// Products with at least one change, sorted by product ID.
    public let products: [ProductChanges]
    /// Products present and identical on both sides.
    public let unchangedProducts: Int
    /// The counts a report starts with.
    public let summary: DiffSummary

    public init(old: DiffSource, new: DiffSource, sourceChanges: [Change] = [], products: [ProductChanges] = [], unchangedProducts: Int = 0) {
        self.old = old
        self.new = new
        self.sourceChanges = sourceChanges
        self.products = products
        self.unchangedProducts = unchangedProducts
        summary = DiffSummary(sourceChanges: sourceChanges, products: products, unchangedProducts: unchangedProducts)
    }

    /// Whether anything changed at all.
    public var hasChanges: Bool { !sourceChanges.isEmpty || !products.isEmpty }

    /// Every change: the source's first, then product by product.
    public var allChanges: [Change] { sourceChanges + products.flatMap(\.changes) }

    /// Where a change's old value is, in the old source.
    public func oldLocation(_ change: Change) -> SourceLocation? {
        change.action == .added ? nil : old.location(change.oldPosition)
    }

    /// Where a change's new value is, in the new source.
    public func newLocation(_ change: Change) -> SourceLocation? {
        change.action == .removed ? nil : new.location(change.newPosition)
    }
}

/// One side of a diff: which file, in what format, for which storefront.
public struct DiffSource: Sendable, Hashable {
    /// The file as the user named it; `path@REV` for a git revision.
    public var file: String
    public var format: SourceFormat
    /// The storefront (StoreKit) or default territory (catalogues).
    public var storefront: Territory
    public var productCount: Int
    /// True when the file does not exist on this side (added or deleted since a revision).
    public var absent: Bool
    /// Every product's prices are in the storefront, one each (a StoreKit configuration).
    public var singleStorefront: Bool
    /// The files of a side read from several files, in the order their lines are numbered
    /// (`Catalog.parts`); empty for one file.
    public var parts: [SourcePart] = []

    public init(file: String, format: SourceFormat, storefront: Territory, productCount: Int, absent: Bool = false, singleStorefront: Bool = false) {
        self.file = file
        self.format = format
        self.storefront = storefront
        self.productCount = productCount
        self.absent = absent
        self.singleStorefront = singleStorefront
    }

    /// Describes a catalogue, marking it absent when the file does not exist on this side.
    public init(_ catalog: Catalog, absent: Bool = false) {
        let storefront = catalog.defaultTerritory
        let single = catalog.products.allSatisfy { product in
            product.prices.count <= 1 && product.prices.allSatisfy { $0.territory == storefront }
        }
        self.init(file: catalog.file, format: catalog.format, storefront: storefront, productCount: catalog.products.count,
                  absent: absent, singleStorefront: single)
        parts = catalog.parts
    }

    /// A full location in this source's file (or the page of it), exactly as `Catalog.location(_:)` gives it.
    public func location(_ position: Position) -> SourceLocation {
        var catalog = Catalog(file: file, format: format, knownFields: [])
        catalog.parts = parts
        return catalog.location(position)
    }

    /// `storefront` for StoreKit configurations, `default territory` for catalogues.
    public var storefrontName: String { format.pricesOneStorefront ? "storefront" : "default territory" }
}

/// The changes to one product.
public struct ProductChanges: Sendable, Hashable {
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        case added, removed, changed
    }

    public var productID: String
    public var status: Status
    /// For an added or removed product, one `.product` change; otherwise the changes in the
    /// order: kind, prices (by territory), period, offers, group, level, family sharing, localisations.
    public var changes: [Change]
    /// A name for people, shown beside the ID (never used to match): the reference name, else
    /// the first display name, of the new version (the old one for a removed product).
    public var name: String?

    public init(productID: String, status: Status, changes: [Change], name: String? = nil) {
        self.productID = productID
        self.status = status
        self.changes = changes
        self.name = name
    }

    /// The name buyers see (the `en_US` display name, else an English one, else the first),
    /// beside `name` where it differs: for release notes, never identity.
    public var displayName: String?

    /// Sets `displayName` from the product (the new side's) or, where it has none, from `other`.
    mutating func showName(from product: Product, or other: Product? = nil) {
        func display(_ product: Product) -> String? {
            let localizations = product.localizations.filter { $0.displayName?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty == false }
            let chosen = localizations.first { $0.locale == "en_US" } ?? localizations.first { $0.locale.hasPrefix("en") } ?? localizations.first
            return chosen?.displayName?.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        displayName = display(product) ?? other.flatMap(display)
    }
}

/// The few facts that describe an added or removed product.
public struct ProductOutline: Sendable, Hashable {
    /// The kind, when the source states it (a property list of IDs does not).
    public var kind: ProductKind?
    /// The price in the source's storefront or default territory, else the first price.
    public var price: Price?
    /// How many territories the product is priced in.
    public var territories: Int
    public var period: Period?
    public var group: String?
    public var level: Int?

    public init(kind: ProductKind?, price: Price? = nil, territories: Int = 0, period: Period? = nil, group: String? = nil, level: Int? = nil) {
        self.kind = kind
        self.price = price
        self.territories = territories
        self.period = period
        self.group = group
        self.level = level
    }

    /// The product as `catalog` states it (its kind only when stated).
    public init(_ product: Product, in catalog: Catalog) {
        self.init(kind: catalog.statedKind(of: product), price: product.price(in: catalog.defaultTerritory) ?? product.prices.first,
                  territories: product.prices.count, period: product.period,
                  group: product.group.map { $0.groupName ?? $0.groupID }.flatMap { $0.isEmpty ? nil : $0 },
                  level: product.group?.level)
    }
}

/// The diffs of one `tally diff` run: one pair of files, or every catalogue source since a revision.
public struct DiffResult: Sendable, Hashable {
    public var diffs: [CatalogDiff]

    public init(diffs: [CatalogDiff]) {
        self.diffs = diffs
    }

    /// The counts over every diff.
    public var summary: DiffSummary { diffs.reduce(DiffSummary()) { $0 + $1.summary } }

    public var hasChanges: Bool { diffs.contains(where: \.hasChanges) }
}

/// The counts over the diffs of one role: configurations (what the app sells) or catalogues
/// (what the server or the store holds), never added together (one app's 15 products are 15
/// configuration products and 15 catalogue products, not 30).
public struct DiffTotal: Sendable, Hashable {
    public var role: SourceRole
    /// How many diffs (files, or sets of files) of this role.
    public var diffs: Int
    public var summary: DiffSummary

    /// "configurations", "catalogues" or "paywall configurations", for reports.
    public var noun: String {
        switch role {
        case .configuration: "configurations"
        case .catalog: "catalogues"
        case .paywall: "paywall configurations"
        case .code: "code sources"
        }
    }
}

extension CatalogDiff {
    /// The role of what is compared: the new side's, or the old side's when the new one is absent.
    public var role: SourceRole { (new.absent ? old : new).format.role }
}

extension DiffResult {
    /// The counts per role, configurations first; a role without diffs is left out.
    public var totals: [DiffTotal] {
        [SourceRole.configuration, .catalog, .paywall].compactMap { role in
            let diffs = diffs.filter { $0.role == role }
            guard !diffs.isEmpty else { return nil }
            return DiffTotal(role: role, diffs: diffs.count, summary: diffs.reduce(DiffSummary()) { $0 + $1.summary })
        }
    }
}
