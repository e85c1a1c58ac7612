import Foundation
import TallyModel

/// What the saved Google Play pages of one source hold, before products are built from it.
/// Positions are in catalogue lines (pages are numbered in sequence, like an App Store Connect export).
struct PlayRecords: Sendable {
    var subscriptions: [PlaySubscription] = []
    var offers: [PlayOffer] = []
    var oneTimeProducts: [PlayOneTimeProduct] = []
    /// One-time product offers (`oneTimeProductOffers`), by the product they belong to.
    var oneTimeOffers: [(productID: String, offer: OneTimeOffer)] = []
    var inAppProducts: [PlayInAppProduct] = []
    /// Products read from Play Console CSV files (built directly: the CSV is flat).
    var consoleProducts: [Product] = []
    /// Whether any page lists subscription offers (else offers are unknown, not absent).
    var sawOffers = false
    var issues: [SourceIssue] = []
    /// Play Console CSV rows left out by state, by state.
    var hidden: [String: Int] = [:]
}

/// `monetization.subscriptions`: a `Subscription` and its base plans.
struct PlaySubscription: Sendable {
    var productID: String
    var position: Position
    var idPosition: Position
    var archived = false
    var listings: [Localization] = []
    var basePlans: [PlayBasePlan] = []
}

/// How a base plan bills.
enum PlayPlanType: Sendable, Hashable {
    /// `autoRenewingBasePlanType`: renews every `billingPeriodDuration`.
    case autoRenewing
    /// `prepaidBasePlanType`: bought for `billingPeriodDuration`, topped up by hand, never renews.
    case prepaid
    /// `installmentsBasePlanType`: renews every `billingPeriodDuration`, with a commitment of
    /// `committedPaymentsCount` payments.
    case installments(committedPayments: Int?)
}

struct PlayBasePlan: Sendable {
    var basePlanID: String
    var position: Position
    var idPosition: Position
    var state: String?
    var type: PlayPlanType?
    var typePosition: Position = .unknown
    /// `billingPeriodDuration` as written, and where.
    var period: Period?
    var periodPosition: Position = .unknown
    var prices: [Price] = []
    var pricesPosition: Position = .unknown
}

/// `subscriptions.basePlans.offers`: a `SubscriptionOffer`.
struct PlayOffer: Sendable {
    enum Targeting: Sendable { case acquisition, upgrade, developerDetermined }

    var productID: String
    var basePlanID: String
    var offerID: String
    var position: Position
    var state: String?
    var targeting: Targeting = .developerDetermined
    var phases: [PlayPhase] = []
}

/// One phase of an offer: `recurrenceCount` × `duration` at a price per region.
struct PlayPhase: Sendable {
    enum Pricing: Sendable {
        case free
        case price(Money)
        case absoluteDiscount(Money)
        /// The fraction taken off the base plan price (0.5 = half price), exact.
        case relativeDiscount(Decimal)
    }

    var position: Position
    var recurrenceCount: Int = 1
    var duration: Period?
    var durationPosition: Position = .unknown
    var regional: [(territory: Territory, pricing: Pricing, position: Position)] = []
    /// `otherRegionsConfig`: the terms everywhere else (free, or a discount), when given.
    var otherRegions: Pricing?
}

/// `monetization.onetimeproducts`: a `OneTimeProduct` and its purchase options.
struct PlayOneTimeProduct: Sendable {
    var productID: String
    var position: Position
    var idPosition: Position
    var listings: [Localization] = []
    var options: [PlayPurchaseOption] = []
}

struct PlayPurchaseOption: Sendable {
    var optionID: String?
    var position: Position
    var state: String?
    /// A rent option (`rentOption`), with its rental period; nil for a buy option.
    var rentalPeriod: Period?
    var isRent = false
    var prices: [Price] = []
    var pricesPosition: Position = .unknown
}

/// The legacy `inappproducts` API's `InAppProduct`.
struct PlayInAppProduct: Sendable {
    var sku: String
    var position: Position
    var idPosition: Position
    var status: String?
    /// `defaultPrice`, placed in the developer's default territory only when `prices` is empty.
    var defaultPrice: (money: Money, literal: String, position: Position)?
    var isSubscription = false
    var kindPosition: Position = .unknown
    var prices: [Price] = []
    var pricesPosition: Position = .unknown
    var listings: [Localization] = []
    var period: Period?
    var periodPosition: Position = .unknown
    var trial: Period?
    var trialPosition: Position = .unknown
}
