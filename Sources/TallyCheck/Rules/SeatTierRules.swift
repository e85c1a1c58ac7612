import TallyModel

/// A multi-seat subscription's volume tiers differ: a tier whose per-seat price differs in a
/// territory both sides price, or a tier (a range of seats, on a plan) on one side only.
/// Compared only where both sides state tiers for the subscription.
public struct SeatTierRule: ProductPairRule {
    public static let description = describe(
        id: .seatTier, defaultSeverity: .error,
        summary: "A multi-seat subscription's seat tiers differ: a tier's per-seat price differs, or a tier is on one side only.",
        rationale: "Organisations buy a multi-seat subscription per seat, at the price of the tier each seat falls in (a price and up to four volume tiers, App Store Connect API 4.6.1); a server or paywall with another tier or per-seat price quotes a group purchase the store does not charge.",
        fix: "Make both sides carry the tiers App Store Connect has for the subscription: the same seat ranges (min_seats, max_seats), each with the same per-seat price per territory.")

    public init() {}

    public func applies(to config: Product, _ catalog: Product, in comparison: Comparison) -> Bool {
        config.kind.isAutoRenewable && catalog.kind.isAutoRenewable && comparison.bothKnow(.seatTiers)
            && !config.seatTiers.isEmpty && !catalog.seatTiers.isEmpty
    }

    public func compare(_ config: Product, _ catalog: Product, in comparison: Comparison) -> [Finding] {
        var result: [Finding] = []
        var matched = Set<Int>()
        let theirs = catalog.seatTiers
        for tier in config.seatTiers {
            guard let index = theirs.indices.first(where: { !matched.contains($0) && theirs[$0].sameSeats(as: tier) }) else {
                result.append(finding(config.id, .seatTiers,
                                      "\(product: config.id) has a \(words: Self.name(tier)) tier in \(source: comparison.configNoun) but none in \(source: comparison.catalogNoun)",
                                      left: comparison.configSide(config, .seatTiers, value: tier.label, position: tier.position),
                                      right: comparison.catalogSide(catalog, .seatTiers, value: nil as String?)))
                continue
            }
            matched.insert(index)
            result += prices(of: tier, against: theirs[index], config, catalog, in: comparison)
        }
        for (index, tier) in theirs.enumerated() where !matched.contains(index) {
            result.append(finding(config.id, .seatTiers,
                                  "\(product: config.id) has a \(words: Self.name(tier)) tier in \(source: comparison.catalogNoun) but none in \(source: comparison.configNoun)",
                                  left: comparison.configSide(config, .seatTiers, value: nil as String?),
                                  right: comparison.catalogSide(catalog, .seatTiers, value: tier.label, position: tier.position)))
        }
        return result
    }

    /// The tier's per-seat prices that differ, in every territory both sides price (none when
    /// the two sides price different storefronts, each in its own currency).
    private func prices(of left: SeatTier, against right: SeatTier, _ config: Product, _ catalog: Product,
                        in comparison: Comparison) -> [Finding] {
        guard comparison.otherStorefront == nil else { return [] }
        var result: [Finding] = []
        for price in left.prices {
            guard let other = right.price(in: price.territory), price.money.amount != other.money.amount else { continue }
            result.append(finding(config.id, .seatTiers,
                                  "\(product: config.id)'s \(words: Self.name(left)) tier costs \(price.money) a seat in \(price.territory) in \(source: comparison.configNoun) but \(other.money) in \(source: comparison.catalogNoun)",
                                  left: comparison.configSide(config, .seatTiers, value: .money(price.money), position: price.position.isKnown ? price.position : left.position),
                                  right: comparison.catalogSide(catalog, .seatTiers, value: .money(other.money), position: other.position.isKnown ? other.position : right.position),
                                  territory: price.territory))
        }
        return result
    }

    /// "6+ seats", "1-5 seats (monthly plan)".
    static func name(_ tier: SeatTier) -> String {
        tier.billingPlan.map { "\(tier.label) (\($0))" } ?? tier.label
    }
}

/// Whether a subscription can be bought with seats differs (`multiSeatStatus`), or the markets it
/// is available in for multi-seat purchase (`marketSettings`), where both sides state them.
public struct MultiSeatRule: ProductPairRule {
    public static let description = describe(
        id: .multiSeat, defaultSeverity: .error,
        summary: "A subscription's multi-seat status or multi-seat markets differ between two sources.",
        rationale: "App Store Connect says whether organisations can buy a subscription with seats, and in which markets (the App Store, Apple School Manager, Apple Business Manager); a server that sells seats the store does not, or not seats the store does, grants access the purchase does not match. Since 16 September 2026 App Store Connect enables multi-seat purchases by default: a store snapshot that says ENABLED beside a catalogue silent about the subscription's seats is a warning, since the team may never have chosen it.",
        fix: "Make both sides say what App Store Connect says: multi_seat (multiSeatStatus) and market_settings (marketSettings).")

    public init() {}

    public func applies(to config: Product, _ catalog: Product, in comparison: Comparison) -> Bool {
        guard config.kind.isAutoRenewable && catalog.kind.isAutoRenewable else { return false }
        if Self.silentBesideEnabled(config, catalog, in: comparison) != nil { return true }
        return comparison.bothKnow(.multiSeat)
            && ((config.multiSeatStatus != nil && catalog.multiSeatStatus != nil)
                || (config.marketSettings != nil && catalog.marketSettings != nil))
    }

    /// Since 16 September 2026 App Store Connect enables multi-seat purchases for every
    /// subscription by default: a store source that says ENABLED beside a source that can state
    /// multi-seat (a catalogue) and says nothing for the product is a gap, the side that is silent
    /// (true: the configuration side). Nil otherwise.
    static func silentBesideEnabled(_ config: Product, _ catalog: Product, in comparison: Comparison) -> Bool? {
        let (left, right) = (comparison.configuration.format, comparison.catalog.format)
        if config.multiSeatStatus == .enabled, catalog.multiSeatStatus == nil, left.isStoreRecord, right.statesMultiSeat, !right.isStoreRecord { return false }
        if catalog.multiSeatStatus == .enabled, config.multiSeatStatus == nil, right.isStoreRecord, left.statesMultiSeat, !left.isStoreRecord { return true }
        return nil
    }

    public func compare(_ config: Product, _ catalog: Product, in comparison: Comparison) -> [Finding] {
        var result: [Finding] = []
        if let silentIsConfig = Self.silentBesideEnabled(config, catalog, in: comparison) {
            let (store, silent) = silentIsConfig ? (comparison.catalogNoun, comparison.configNoun) : (comparison.configNoun, comparison.catalogNoun)
            var found = finding(config.id, .multiSeat,
                                "\(product: config.id) can be bought with seats in \(source: store) (App Store Connect enables multi-seat purchases by default since 16 September 2026) but \(source: silent) does not say: state multi_seat for it, or disable multi-seat in App Store Connect",
                                left: comparison.configSide(config, .multiSeat, value: config.multiSeatStatus.map { .text($0.rawValue) }),
                                right: comparison.catalogSide(catalog, .multiSeat, value: catalog.multiSeatStatus.map { .text($0.rawValue) }))
            // A default the team may not have chosen: a warning, not an error.
            found.severity = .warning
            return [found]
        }
        if let a = config.multiSeatStatus, let b = catalog.multiSeatStatus, a != b {
            result.append(finding(config.id, .multiSeat,
                                  "\(product: config.id) is \(words: a) in \(source: comparison.configNoun) but \(words: b) in \(source: comparison.catalogNoun)",
                                  left: comparison.configSide(config, .multiSeat, value: a.rawValue),
                                  right: comparison.catalogSide(catalog, .multiSeat, value: b.rawValue)))
        }
        if let a = config.marketSettings, let b = catalog.marketSettings, Set(a) != Set(b) {
            let words = { (markets: [SeatMarket]) in markets.isEmpty ? "none" : markets.map(\.rawValue).joined(separator: ", ") }
            result.append(finding(config.id, .multiSeat,
                                  "\(product: config.id)'s multi-seat markets are \(name: words(a)) in \(source: comparison.configNoun) but \(name: words(b)) in \(source: comparison.catalogNoun)",
                                  left: comparison.configSide(config, .multiSeat, value: words(a)),
                                  right: comparison.catalogSide(catalog, .multiSeat, value: words(b))))
        }
        return result
    }
}
