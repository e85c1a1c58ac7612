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
    /// Whether the store's team set this price by hand or the store derived it (App Store
    /// Connect's manual and automatic, equalised prices); nil when the source does not say.
    public var origin: PriceOrigin? = nil

    public init(territory: Territory, money: Money, position: Position = .unknown, origin: PriceOrigin? = nil) {
        self.territory = territory
        self.money = money
        self.position = position
        self.origin = origin
    }
}

/// Who set a price in a store.
public enum PriceOrigin: String, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Set by hand (App Store Connect's manual prices: the base territory and any territory priced on purpose).
    case manual
    /// Derived by the store from a price set by hand (App Store Connect's automatic prices,
    /// equalised from the base territory's price for every other territory).
    case automatic

    public var description: String { rawValue }
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
///
/// A value type with copy-on-write storage: products are copied often (into dictionaries,
/// through rules) and a copy costs one reference count, not one per field.
public struct Product: Sendable, Hashable, Codable {
    /// The stored values; `Product` forwards to them.
    struct Fields: Sendable, Hashable, Codable {
        var id: String
        var kind: ProductKind
        var referenceName: String?
        var familyShareable: Bool?
        var localizations: [Localization]
        var prices: [Price]
        var period: Period?
        var introductoryOffer: Offer?
        var otherIntroductoryOffers: [Offer]
        var promotionalOffers: [Offer]
        var codeOffers: [Offer]
        var winbackOffers: [Offer]
        var billingPlans: [BillingPlan]
        var group: GroupMembership?
        var position: Position
        var fieldPositions: [Field: Position]
        var path: String?
        var fieldPaths: [Field: String]
        var priceTier: Int? = nil
        var googlePlayID: String? = nil
        var onlyOnGooglePlay: Bool? = nil
    }

    final class Storage: @unchecked Sendable {
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    fileprivate var storage: Storage

    private var fields: Fields {
        get { storage.fields }
        _modify {
            if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
            yield &storage.fields
        }
    }

    /// The product identifier, compared exactly.
    public var id: String {
        get { storage.fields.id }
        set { fields.id = newValue }
    }

    /// What the product is. When the source does not say (`Catalog.knownFields` lacks `.kind`,
    /// e.g. a property list of IDs), this is a placeholder that no rule compares.
    public var kind: ProductKind {
        get { storage.fields.kind }
        set { fields.kind = newValue }
    }

    public var referenceName: String? {
        get { storage.fields.referenceName }
        set { fields.referenceName = newValue }
    }

    public var familyShareable: Bool? {
        get { storage.fields.familyShareable }
        set { fields.familyShareable = newValue }
    }

    public var localizations: [Localization] {
        get { storage.fields.localizations }
        set { fields.localizations = newValue }
    }

    /// Prices, one per territory, in source order.
    public var prices: [Price] {
        get { storage.fields.prices }
        set { fields.prices = newValue }
    }

    /// The billing period of an auto-renewable subscription.
    public var period: Period? {
        get { storage.fields.period }
        set { fields.period = newValue }
    }

    public var introductoryOffer: Offer? {
        get { storage.fields.introductoryOffer }
        set { fields.introductoryOffer = newValue }
    }

    /// Further introductory offers (StoreKit 5.0 `introductoryOffers[]`, one per billing plan).
    public var otherIntroductoryOffers: [Offer] {
        get { storage.fields.otherIntroductoryOffers }
        set { fields.otherIntroductoryOffers = newValue }
    }

    public var promotionalOffers: [Offer] {
        get { storage.fields.promotionalOffers }
        set { fields.promotionalOffers = newValue }
    }

    public var codeOffers: [Offer] {
        get { storage.fields.codeOffers }
        set { fields.codeOffers = newValue }
    }

    public var winbackOffers: [Offer] {
        get { storage.fields.winbackOffers }
        set { fields.winbackOffers = newValue }
    }

    public var billingPlans: [BillingPlan] {
        get { storage.fields.billingPlans }
        set { fields.billingPlans = newValue }
    }

    public var group: GroupMembership? {
        get { storage.fields.group }
        set { fields.group = newValue }
    }

    /// The App Store price tier (an App Store package's `wholesale_price_tier`), when the source
    /// gives prices as tiers rather than amounts. A tier is not an amount: tiers are compared
    /// with tiers, and become prices only through a tier table the user supplies.
    public var priceTier: Int? {
        get { storage.fields.priceTier }
        set { fields.priceTier = newValue }
    }

    /// The product's Google Play identity, when the source names one (a catalogue's
    /// `google_play:` key): `PRODUCT_ID:BASE_PLAN_ID` for a subscription's base plan, the product
    /// ID for a one-time product. Nil means the same ID as `id`; empty means the product is not
    /// sold on Google Play (`google_play: null`). A Google Play source's own products have their
    /// Play identity as `id`.
    public var googlePlayID: String? {
        get { storage.fields.googlePlayID }
        set { fields.googlePlayID = newValue }
    }

    /// Whether the product has no App Store identity: a catalogue entry that names only its Google
    /// Play identity (`google_play:` without `id`). Its `id` and `googlePlayID` are then that
    /// identity; it is compared with Google Play sources only, and App Store ID rules skip it.
    public var isGooglePlayOnly: Bool {
        get { storage.fields.onlyOnGooglePlay ?? false }
        set { fields.onlyOnGooglePlay = newValue ? true : nil }
    }

    /// Where the product starts in its source.
    public var position: Position {
        get { storage.fields.position }
        set { fields.position = newValue }
    }

    /// Where individual values were written, by field (the product's own position otherwise).
    public var fieldPositions: [Field: Position] {
        get { storage.fields.fieldPositions }
        set { fields.fieldPositions = newValue }
    }

    /// The product's key path (`Subscriptions[0].Products[2]`) in sources without line numbers
    /// (property lists); nil where `position` says where it is.
    public var path: String? {
        get { storage.fields.path }
        set { fields.path = newValue }
    }

    /// Key paths of individual values, by field, in sources without line numbers (`[3].consumable`).
    public var fieldPaths: [Field: String] {
        get { storage.fields.fieldPaths }
        set { fields.fieldPaths = newValue }
    }

    public init(
        id: String, kind: ProductKind, referenceName: String? = nil, familyShareable: Bool? = nil,
        localizations: [Localization] = [], prices: [Price] = [], period: Period? = nil,
        introductoryOffer: Offer? = nil, otherIntroductoryOffers: [Offer] = [],
        promotionalOffers: [Offer] = [], codeOffers: [Offer] = [], winbackOffers: [Offer] = [],
        billingPlans: [BillingPlan] = [], group: GroupMembership? = nil,
        position: Position = .unknown, fieldPositions: [Field: Position] = [:],
        path: String? = nil, fieldPaths: [Field: String] = [:]
    ) {
        storage = Storage(Fields(
            id: id, kind: kind, referenceName: referenceName, familyShareable: familyShareable,
            localizations: localizations, prices: prices, period: period, introductoryOffer: introductoryOffer,
            otherIntroductoryOffers: otherIntroductoryOffers, promotionalOffers: promotionalOffers,
            codeOffers: codeOffers, winbackOffers: winbackOffers, billingPlans: billingPlans, group: group,
            position: position, fieldPositions: fieldPositions, path: path, fieldPaths: fieldPaths))
    }

    public static func == (lhs: Product, rhs: Product) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(storage.fields) }

    public init(from decoder: any Decoder) throws {
        storage = Storage(try Fields(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws { try storage.fields.encode(to: encoder) }

    /// Every offer of the product, of every kind: the introductory offer(s), promotional, code
    /// and win-back offers. Rules about offers ask for this list; none lists the kinds by hand.
    public var allOffers: [Offer] {
        let fields = storage.fields
        return (fields.introductoryOffer.map { [$0] } ?? []) + fields.otherIntroductoryOffers
            + fields.promotionalOffers + fields.codeOffers + fields.winbackOffers
    }

    /// The price in one territory, if the product has one.
    public func price(in territory: Territory) -> Price? {
        prices.first { $0.territory == territory }
    }

    /// Where a field was written: its own position when recorded, else the product's.
    public func position(of field: Field) -> Position {
        fieldPositions[field] ?? position
    }

    /// The key path of a field in sources without line numbers: its own when recorded, else the product's.
    public func path(of field: Field) -> String? {
        fieldPaths[field] ?? path
    }
}

extension Product: CustomReflectable {
    /// Shows the fields, not the storage box, in test failures and debuggers.
    public var customMirror: Mirror { Mirror(reflecting: storage.fields) }
}

extension Product {
    /// A name a person recognises, for reports to show beside the ID (never to match by): the
    /// reference name, else the first non-empty display name; nil when the source has neither.
    public var nameForPeople: String? {
        if let name = referenceName?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty { return name }
        for localization in localizations {
            if let name = localization.displayName?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty { return name }
        }
        return nil
    }
}
