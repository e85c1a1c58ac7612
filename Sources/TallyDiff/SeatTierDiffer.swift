import TallyModel

/// The seat tiers of a multi-seat subscription on both sides, matched by their seats and plan
/// (`SeatTier.sameSeats`): a tier added or removed, and a tier's per-seat price added, removed or
/// changed in a territory.
enum SeatTierDiffer {
    static func changes(_ old: Product, _ new: Product, into changes: inout [Change]) {
        let id = new.id
        for tier in new.seatTiers where !old.seatTiers.contains(where: { $0.sameSeats(as: tier) }) {
            changes.append(Change(.seatTier, .added, productID: id, key: tier.diffKey, new: .seatTier(tier), newPosition: tier.position))
        }
        for tier in old.seatTiers where !new.seatTiers.contains(where: { $0.sameSeats(as: tier) }) {
            changes.append(Change(.seatTier, .removed, productID: id, key: tier.diffKey, old: .seatTier(tier), oldPosition: tier.position))
        }
        for after in new.seatTiers {
            guard let before = old.seatTiers.first(where: { $0.sameSeats(as: after) }) else { continue }
            let territories = (before.prices.map(\.territory) + after.prices.map(\.territory)).reduce(into: [Territory]()) { list, territory in
                if !list.contains(territory) { list.append(territory) }
            }
            for territory in territories {
                let was = before.price(in: territory), now = after.price(in: territory)
                guard was?.money != now?.money else { continue }
                let action: ChangeAction = was == nil ? .added : (now == nil ? .removed : .changed)
                changes.append(Change(.seatTier, action, productID: id, territory: territory, key: "\(after.diffKey) › \(territory.code)",
                                      old: was.map { .money($0.money) }, new: now.map { .money($0.money) },
                                      oldPosition: was?.position ?? before.position, newPosition: now?.position ?? after.position))
            }
        }
    }

}

extension SeatTier {
    /// `1-5 seats`, or `1-5 seats (UPFRONT)` for a tier of one billing plan: the key a diff
    /// matches and names a tier by.
    public var diffKey: String {
        billingPlan.map { "\(label) (\($0.rawValue))" } ?? label
    }
}
