import Foundation

/// Whether a subscription can be bought with seats for an organisation: App Store Connect API
/// 4.5's `multiSeatStatus` attribute on `Subscription` (allowed values `ENABLED`, `DISABLED`;
/// turning on Family Sharing sets it to `DISABLED`).
public enum MultiSeatStatus: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case enabled = "ENABLED"
    case disabled = "DISABLED"

    /// The status a source's text names (`ENABLED`, `DISABLED`, in any case), or nil.
    public init?(sourceText: String) {
        self.init(rawValue: sourceText.uppercased())
    }

    public var description: String { self == .enabled ? "multi-seat enabled" : "multi-seat disabled" }
}

/// The markets a subscription is available in for multi-seat purchase: App Store Connect API
/// 4.5's `marketSettings` attribute on `Subscription` (allowed values `APP_STORE`,
/// `APPLE_SCHOOL`, `APPLE_BUSINESS`).
public enum SeatMarket: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case appStore = "APP_STORE"
    case appleSchool = "APPLE_SCHOOL"
    case appleBusiness = "APPLE_BUSINESS"

    public var description: String { rawValue }
}

/// One volume tier of a multi-seat subscription's price: a per-seat price, per territory, for a
/// range of seats. StoreKit's `Product.SubscriptionInfo.PricingTerms.SeatBasedPricing.PriceTier`
/// (`minimumSeats`, `maximumSeats`, nil for the last tier, and a per-seat price); App Store
/// Connect API 4.6.1 adds up to four volume tiers to a subscription price, so a subscription has
/// one to five tiers, in ascending order of seats. Each seat costs the price of the tier it falls
/// in (StoreKit's `priceTiers`).
public struct SeatTier: Sendable, Hashable, Codable {
    /// The seat count at which the tier starts (included).
    public var minimumSeats: Int
    /// The seat count at which the tier ends (included); nil for the last, open-ended tier.
    public var maximumSeats: Int?
    /// The price of one seat in this tier, per territory.
    public var prices: [Price]
    /// The billing plan the tier belongs to, where the source states one.
    public var billingPlan: BillingPlanKind?
    /// Where the tier was written.
    public var position: Position

    /// The most tiers a subscription has: one price and up to four additional volume tiers.
    public static let maximumCount = 5

    public init(minimumSeats: Int, maximumSeats: Int? = nil, prices: [Price] = [], billingPlan: BillingPlanKind? = nil,
                position: Position = .unknown) {
        self.minimumSeats = minimumSeats
        self.maximumSeats = maximumSeats
        self.prices = prices
        self.billingPlan = billingPlan
        self.position = position
    }

    /// The tier's seats in words: "1-5 seats", "6+ seats", "1 seat".
    public var label: String {
        guard let maximumSeats else { return "\(minimumSeats)+ seats" }
        if maximumSeats == minimumSeats { return minimumSeats == 1 ? "1 seat" : "\(minimumSeats) seats" }
        return "\(minimumSeats)-\(maximumSeats) seats"
    }

    /// The per-seat price in one territory, if the tier has one.
    public func price(in territory: Territory) -> Price? {
        prices.first { $0.territory == territory }
    }

    /// Whether two tiers cover the same seats (and plan): the key tiers are matched by.
    public func sameSeats(as other: SeatTier) -> Bool {
        minimumSeats == other.minimumSeats && maximumSeats == other.maximumSeats && billingPlan == other.billingPlan
    }

    /// What is wrong with a subscription's tiers of one plan, in source order, each with the index
    /// of the tier it concerns: more than `maximumCount`, a minimum below 1, a maximum below the
    /// minimum, a tier that does not start one seat after the previous one ends, an open-ended
    /// tier that is not the last. Empty when the tiers are contiguous and ascending.
    public static func problems(in tiers: [SeatTier]) -> [(index: Int, message: String)] {
        var result: [(index: Int, message: String)] = []
        if tiers.count > maximumCount {
            result.append((maximumCount, "a subscription has at most \(maximumCount) seat tiers (a price and up to four volume tiers); found \(tiers.count)"))
        }
        for (index, tier) in tiers.enumerated() {
            if tier.minimumSeats < 1 {
                result.append((index, "seat tier \(index + 1) starts at \(tier.minimumSeats) seats: min_seats must be 1 or more"))
            }
            if let maximum = tier.maximumSeats, maximum < tier.minimumSeats {
                result.append((index, "seat tier \(index + 1) ends at \(maximum) seats, below its minimum of \(tier.minimumSeats)"))
            }
            guard index > 0 else { continue }
            let previous = tiers[index - 1]
            guard let end = previous.maximumSeats else {
                result.append((index - 1, "seat tier \(index) (\(previous.label)) has no max_seats but is not the last tier: only the last tier is open-ended"))
                continue
            }
            if tier.minimumSeats != end + 1 {
                result.append((index, "seat tier \(index + 1) starts at \(tier.minimumSeats) seats; after tier \(index) (\(previous.label)) it must start at \(end + 1): tiers are contiguous and ascending"))
            }
        }
        return result
    }
}
