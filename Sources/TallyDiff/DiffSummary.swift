import TallyModel

/// The counts a diff report starts with. Summaries of several diffs add up with `+`.
public struct DiffSummary: Sendable, Hashable {
    public var added = 0
    public var removed = 0
    /// Products on both sides with at least one change.
    public var changed = 0
    public var unchanged = 0
    /// Products that moved to another file of a set of files (`tally diff --since`).
    public var moved = 0
    /// Changes to sources as a whole (storefront, subscription groups).
    public var sourceChanges = 0
    /// Every change record, of every kind.
    public var changes = 0
    /// Prices present on both sides that differ.
    public var priceChanges = 0
    public var priceIncreases = 0
    public var priceDecreases = 0
    /// Price changes between two currencies (USD → COP): neither up nor down.
    public var priceCurrencyChanges = 0
    /// Territories a product is newly priced in.
    public var pricesAdded = 0
    /// Territories a product is no longer priced in.
    public var pricesRemoved = 0
    /// Changes marked for attention, and how many of each reason (a change may have several).
    public var attention = 0
    public var attentionReasons: [Attention: Int] = [:]
    /// The territories with a changed price.
    public private(set) var priceTerritories: Set<Territory> = []
    /// Storefront pairs such as `USA → COL` with a changed price (single-storefront sources).
    public private(set) var priceStorefrontPairs: Set<String> = []

    public init() {}

    /// Counts the changes of one diff.
    init(sourceChanges: [Change], products: [ProductChanges], unchangedProducts: Int) {
        unchanged = unchangedProducts
        self.sourceChanges = sourceChanges.count
        for product in products {
            switch product.status {
            case .added: added += 1
            case .removed: removed += 1
            case .changed: changed += 1
            }
        }
        for change in sourceChanges { count(change) }
        for product in products {
            for change in product.changes { count(change) }
        }
    }

    /// Territories with at least one changed price.
    public var territoriesWithPriceChanges: Int { priceTerritories.count + priceStorefrontPairs.count }

    /// Whether there is nothing to report.
    public var isEmpty: Bool { changes == 0 }

    private mutating func count(_ change: Change) {
        changes += 1
        if change.needsAttention {
            attention += 1
            for reason in Attention.allCases where change.needsAttention(reason) { attentionReasons[reason, default: 0] += 1 }
        }
        if change.aspect == .file { moved += 1 }
        guard change.aspect == .price else { return }
        switch change.action {
        case .added: pricesAdded += 1
        case .removed: pricesRemoved += 1
        case .changed:
            priceChanges += 1
            if let territory = change.territory {
                priceTerritories.insert(territory)
            } else if let key = change.key {
                priceStorefrontPairs.insert(key)
            }
            switch change.priceDirection {
            case .up: priceIncreases += 1
            case .down: priceDecreases += 1
            case .otherCurrency: priceCurrencyChanges += 1
            case .same, nil: break
            }
        }
    }

    public static func + (lhs: DiffSummary, rhs: DiffSummary) -> DiffSummary {
        var sum = lhs
        sum.added += rhs.added
        sum.removed += rhs.removed
        sum.changed += rhs.changed
        sum.unchanged += rhs.unchanged
        sum.moved += rhs.moved
        sum.sourceChanges += rhs.sourceChanges
        sum.changes += rhs.changes
        sum.priceChanges += rhs.priceChanges
        sum.priceIncreases += rhs.priceIncreases
        sum.priceDecreases += rhs.priceDecreases
        sum.priceCurrencyChanges += rhs.priceCurrencyChanges
        sum.pricesAdded += rhs.pricesAdded
        sum.pricesRemoved += rhs.pricesRemoved
        sum.attention += rhs.attention
        sum.attentionReasons.merge(rhs.attentionReasons, uniquingKeysWith: +)
        sum.priceTerritories.formUnion(rhs.priceTerritories)
        sum.priceStorefrontPairs.formUnion(rhs.priceStorefrontPairs)
        return sum
    }
}
