import Foundation

/// A Google Play one-time product's offer (`monetization.onetimeproducts.purchaseOptions.offers`,
/// the list `oneTimeProductOffers`): a discounted offer, a pre-order or a game reward on one
/// purchase option, with what it takes off the option's price region by region. Read and shown
/// (`tally show`); no other source states one to compare it with.
public struct OneTimeOffer: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        case discounted
        case preOrder = "pre-order"
        case gameReward = "game-reward"
    }

    /// What the offer takes off the purchase option's price in one region.
    public enum Discount: Sendable, Hashable, Codable, CustomStringConvertible {
        /// `noOverride`: the purchase option's price.
        case none
        /// `absoluteDiscount`: this much less.
        case absolute(Money)
        /// `relativeDiscount`: this fraction of the price, as Google's reference states it.
        case relative(Decimal)

        public var description: String {
            switch self {
            case .none: return "no discount"
            case .absolute(let money): return "\(money) off"
            case .relative(let fraction): return "relative \(fraction)"
            }
        }
    }

    public var id: String
    /// The purchase option the offer extends (`purchaseOptionId`).
    public var purchaseOptionID: String?
    /// Nil when the offer states none of the kinds Tally knows.
    public var kind: Kind?
    /// `state` as Google writes it (`ACTIVE`, `DRAFT`, `INACTIVE`, `CANCELLED`).
    public var state: String?
    /// Each region where the offer is available, and its discount there.
    public var discounts: [Territory: Discount]
    public var position: Position

    public init(id: String, purchaseOptionID: String? = nil, kind: Kind? = nil, state: String? = nil,
                discounts: [Territory: Discount] = [:], position: Position = .unknown) {
        self.id = id
        self.purchaseOptionID = purchaseOptionID
        self.kind = kind
        self.state = state
        self.discounts = discounts
        self.position = position
    }
}
