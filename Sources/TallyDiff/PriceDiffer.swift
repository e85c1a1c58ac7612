import TallyModel

/// Price changes of one product, keyed by territory.
///
/// Between two single-storefront sources with different storefronts (a StoreKit file for USA and
/// one for COL), each product's one price is compared with the other's as "the price", keyed
/// `USA → COL`, naming both currencies. Everywhere else prices are keyed by territory: a
/// territory priced on one side only is added or removed.
enum PriceDiffer {
    static func compare(_ old: Product, _ new: Product, context: DiffContext, into changes: inout [Change]) {
        let subscription = old.kind.isAutoRenewable && new.kind.isAutoRenewable
        if let pair = context.storefrontPair {
            compareStorefronts(old, new, key: pair, subscription: subscription, into: &changes)
            return
        }
        let before = old.prices, after = new.prices
        if before.count == after.count, sameTerritoryOrder(before, after) {
            // The common case: the same territories in the same order. Still matched by
            // territory (checked above), without building a table.
            for index in after.indices where before[index].money != after[index].money {
                changes.append(changed(before[index], after[index], productID: new.id, territory: after[index].territory, subscription: subscription))
            }
            return
        }
        var oldIndex: [Territory: Int] = [:]
        oldIndex.reserveCapacity(before.count)
        for (index, price) in before.enumerated() where oldIndex[price.territory] == nil {
            oldIndex[price.territory] = index
        }
        var seen = Set<Territory>()
        seen.reserveCapacity(after.count)
        for price in after where seen.insert(price.territory).inserted {
            guard let index = oldIndex[price.territory] else {
                changes.append(Change(.price, .added, productID: new.id, territory: price.territory, new: .money(price.money), newPosition: price.position))
                continue
            }
            if before[index].money != price.money {
                changes.append(changed(before[index], price, productID: new.id, territory: price.territory, subscription: subscription))
            }
        }
        for (index, price) in before.enumerated() where !seen.contains(price.territory) && oldIndex[price.territory] == index {
            changes.append(Change(.price, .removed, productID: new.id, territory: price.territory, old: .money(price.money), oldPosition: price.position))
        }
    }

    private static func sameTerritoryOrder(_ a: [Price], _ b: [Price]) -> Bool {
        for index in a.indices where a[index].territory != b[index].territory { return false }
        return true
    }

    private static func compareStorefronts(_ old: Product, _ new: Product, key: String, subscription: Bool, into changes: inout [Change]) {
        switch (old.prices.first, new.prices.first) {
        case (let a?, let b?) where a.money != b.money:
            changes.append(changed(a, b, productID: new.id, key: key, subscription: subscription))
        case (let a?, nil):
            changes.append(Change(.price, .removed, productID: new.id, key: key, old: .money(a.money), oldPosition: a.position))
        case (nil, let b?):
            changes.append(Change(.price, .added, productID: new.id, key: key, new: .money(b.money), newPosition: b.position))
        default:
            break
        }
    }

    /// A changed price, marked when it rises on an existing subscription or moves by more than
    /// the suspicious factor in the same currency.
    private static func changed(_ a: Price, _ b: Price, productID: String, territory: Territory? = nil, key: String? = nil, subscription: Bool) -> Change {
        let (direction, suspicious) = PriceChange(old: a.money, new: b.money).classified(factor: Attention.suspiciousFactor)
        var change = Change(.price, .changed, productID: productID, territory: territory, key: key, old: .money(a.money), new: .money(b.money),
                            oldPosition: a.position, newPosition: b.position, priceDirection: direction)
        if subscription, direction == .up { change.mark(.subscriptionPriceIncrease) }
        if suspicious { change.mark(.suspiciousPrice) }
        return change
    }
}
