import Foundation

/// What an in-app purchase is.
public enum ProductKind: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case consumable
    case nonConsumable = "non-consumable"
    case nonRenewingSubscription = "non-renewing-subscription"
    case autoRenewableSubscription = "auto-renewable-subscription"

    public var description: String { rawValue }
    public var isAutoRenewable: Bool { self == .autoRenewableSubscription }
}

/// One price: an exact amount in one territory, with where it was written.
public struct Price: Sendable, Hashable, Codable {
    public var territory: Territory
    public var money: Money
    public var position: Position

    public init(territory: Territory, money: Money, position: Position = .unknown) {
        self.territory = territory
        self.money = money
        self.position = position
    }
}

/// A display name and description in one locale.
public struct Localization: Sendable, Hashable, Codable {
    public var locale: String
    public var displayName: String?
    public var description: String?

    public init(locale: String, displayName: String? = nil, description: String? = nil) {
        self.locale = locale
        self.displayName = displayName
        self.description = description
    }
}

/// A product's place in a subscription group. Level 1 is the highest level of service.
public struct GroupMembership: Sendable, Hashable, Codable {
    /// The group's ID in this source (IDs differ between sources; groups are matched by members).
    public var groupID: String
    public var groupName: String?
    public var level: Int?
    /// The group ID the subscription itself declares (StoreKit's `subscriptionGroupID`), when
    /// the source repeats it; lint checks it against `groupID`.
    public var declaredGroupID: String?

    public init(groupID: String, groupName: String? = nil, level: Int? = nil, declaredGroupID: String? = nil) {
        self.groupID = groupID
        self.groupName = groupName
        self.level = level
        self.declaredGroupID = declaredGroupID
    }
}

/// A StoreKit 5.0 billing plan (billed up front or monthly with a commitment).
public struct BillingPlan: Sendable, Hashable, Codable {
    public var type: String
    public var price: Money?
    public var commitmentPrice: Money?
    public var isEnabled: Bool?

    public init(type: String, price: Money? = nil, commitmentPrice: Money? = nil, isEnabled: Bool? = nil) {
        self.type = type
        self.price = price
        self.commitmentPrice = commitmentPrice
        self.isEnabled = isEnabled
    }
}

/// Which value of a product a `Position` belongs to.
public enum Field: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case id, kind, referenceName = "reference-name", familyShareable = "family-sharing", localizations
    case prices, period, introductoryOffer = "introductory-offer", promotionalOffers = "promotional-offers"
    case codeOffers = "code-offers", group, level

    public var description: String { rawValue }
}

/// One in-app purchase, normalised from any source.
public struct Product: Sendable, Hashable, Codable {
    public var id: String
    public var kind: ProductKind
    public var referenceName: String?
    public var familyShareable: Bool?
    public var localizations: [Localization]
    /// Prices, one per territory, in source order.
    public var prices: [Price]
    /// The billing period of an auto-renewable subscription.
    public var period: Period?
    public var introductoryOffer: Offer?
    /// Further introductory offers (StoreKit 5.0 `introductoryOffers[]`, one per billing plan).
    public var otherIntroductoryOffers: [Offer]
    public var promotionalOffers: [Offer]
    public var codeOffers: [Offer]
    public var winbackOffers: [Offer]
    public var billingPlans: [BillingPlan]
    public var group: GroupMembership?
    /// The App Store price tier (an App Store package's `wholesale_price_tier`), when the source
    /// gives prices as tiers rather than amounts. A tier is not an amount: tiers are compared
    /// with tiers, and become prices only through a tier table the user supplies.
    public var priceTier: Int? = nil
    /// Where the product starts in its source.
    public var position: Position
    /// Where individual values were written, by field (the product's own position otherwise).
    public var fieldPositions: [Field: Position]

    public init(
        id: String, kind: ProductKind, referenceName: String? = nil, familyShareable: Bool? = nil,
        localizations: [Localization] = [], prices: [Price] = [], period: Period? = nil,
        introductoryOffer: Offer? = nil, otherIntroductoryOffers: [Offer] = [],
        promotionalOffers: [Offer] = [], codeOffers: [Offer] = [], winbackOffers: [Offer] = [],
        billingPlans: [BillingPlan] = [], group: GroupMembership? = nil,
        position: Position = .unknown, fieldPositions: [Field: Position] = [:]
    ) {
        self.id = id
        self.kind = kind
        self.referenceName = referenceName
        self.familyShareable = familyShareable
        self.localizations = localizations
        self.prices = prices
        self.period = period
        self.introductoryOffer = introductoryOffer
        self.otherIntroductoryOffers = otherIntroductoryOffers
        self.promotionalOffers = promotionalOffers
        self.codeOffers = codeOffers
        self.winbackOffers = winbackOffers
        self.billingPlans = billingPlans
        self.group = group
        self.position = position
        self.fieldPositions = fieldPositions
    }

    /// The price in one territory, if the product has one.
    public func price(in territory: Territory) -> Price? {
        prices.first { $0.territory == territory }
    }

    /// Where a field was written: its own position when recorded, else the product's.
    public func position(of field: Field) -> Position {
        fieldPositions[field] ?? position
    }
}
