/// A change a release manager must not miss, and why.
public enum Attention: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// A product was removed: its ID can never be used again in the App Store.
    case productRemoved = "product-removed"
    /// An existing auto-renewable subscription costs more (subscribers must be asked or notified).
    case subscriptionPriceIncrease = "subscription-price-increase"
    /// An existing auto-renewable subscription renews over another period.
    case subscriptionPeriodChange = "subscription-period-change"
    /// Subscriptions in a group changed their order of service levels (upgrades become downgrades).
    case groupReordered = "group-reordered"
    /// A free trial was removed or replaced by a paid offer.
    case trialRemoved = "trial-removed"
    /// A free trial became shorter.
    case trialShortened = "trial-shortened"
    /// A price changed by more than a factor of 3 in the same currency: the usual sign of a
    /// currency mix-up (a file that declares the USA storefront but holds peso prices).
    case suspiciousPrice = "suspicious-price"

    public var description: String { rawValue }

    /// One line for a report: why it matters.
    public var explanation: String {
        switch self {
        case .productRemoved: "removed product: its ID can never be used again in the App Store"
        case .subscriptionPriceIncrease: "price increase on an existing subscription: subscribers may have to agree to it"
        case .subscriptionPeriodChange: "period change on an existing subscription"
        case .groupReordered: "the group's level order changed: upgrades and downgrades between these subscriptions change"
        case .trialRemoved: "free trial removed"
        case .trialShortened: "free trial shortened"
        case .suspiciousPrice: "price changed by more than a factor of \(Attention.suspiciousFactor) in the same currency: a currency mix-up?"
        }
    }

    /// A same-currency price change larger than this factor, up or down, is suspicious.
    public static let suspiciousFactor = 3

    /// This reason's bit in `Change`'s compact attention set.
    var bit: UInt8 {
        switch self {
        case .productRemoved: 1
        case .subscriptionPriceIncrease: 2
        case .subscriptionPeriodChange: 4
        case .groupReordered: 8
        case .trialRemoved: 16
        case .trialShortened: 32
        case .suspiciousPrice: 64
        }
    }
}
