import Foundation

/// What an in-app purchase is.
public enum ProductKind: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case consumable
    case nonConsumable = "non-consumable"
    case nonRenewingSubscription = "non-renewing-subscription"
    case autoRenewableSubscription = "auto-renewable-subscription"
    /// A subscription suite (StoreKit 6.3, Xcode 27: `SubscriptionSuite` in
    /// `subscriptionSuiteGroups`): one auto-renewable subscription that includes other
    /// subscriptions, its `members`.
    case subscriptionSuite = "subscription-suite"
    /// A subscription bundle (StoreKit 6.3: `SubscriptionBundle` in `subscriptionBundleGroups`).
    case subscriptionBundle = "subscription-bundle"

    public var description: String { rawValue }
    /// Whether the product renews by itself: an auto-renewable subscription, a suite or a bundle
    /// (each has a group, a level, a period and offers).
    public var isAutoRenewable: Bool {
        self == .autoRenewableSubscription || self == .subscriptionSuite || self == .subscriptionBundle
    }
    /// Whether the product is a suite or bundle of other subscriptions (its `members`).
    public var includesSubscriptions: Bool { self == .subscriptionSuite || self == .subscriptionBundle }
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
    /// Google Play's subscription benefits (`SubscriptionListing.benefits`), in order; empty elsewhere.
    public var benefits: [String] = []

    public init(locale: String, displayName: String? = nil, description: String? = nil, benefits: [String] = []) {
        self.locale = locale
        self.displayName = displayName
        self.description = description
        self.benefits = benefits
    }

    /// The locale as one spelling (`en_US`), for comparing StoreKit's `en_US` with App Store
    /// Connect's `en-US`.
    public static func normalised(_ locale: String) -> String {
        locale.replacingOccurrences(of: "-", with: "_")
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

/// How a subscription's plan is billed: the whole period up front, or monthly with a 12-month
/// commitment (iOS 26.4). StoreKit writes `BILLED_UPFRONT` and `MONTHLY`; App Store Connect
/// writes `UPFRONT` and `MONTHLY`.
public enum BillingPlanKind: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case upfront = "UPFRONT"
    case monthly = "MONTHLY"

    /// The kind a source's text names (`BILLED_UPFRONT`, `UPFRONT`, `MONTHLY`), or nil.
    public init?(sourceText: String) {
        switch sourceText.uppercased() {
        case "BILLED_UPFRONT", "UPFRONT": self = .upfront
        case "MONTHLY", "BILLED_MONTHLY": self = .monthly
        default: return nil
        }
    }

    /// How StoreKit 5.0 writes it.
    public var storeKitText: String { self == .upfront ? "BILLED_UPFRONT" : "MONTHLY" }
    public var description: String { self == .upfront ? "up-front plan" : "monthly plan" }
}

/// A subscription's billing plan (StoreKit 5.0 `billingPlans[]`, a catalogue's `billing_plans`,
/// App Store Connect's plan availabilities and plan prices).
public struct BillingPlan: Sendable, Hashable, Codable {
    /// The plan type as the source writes it (`BILLED_UPFRONT`, `MONTHLY`, a Google Play plan's words).
    public var type: String
    /// The price in the source's default territory (StoreKit's `displayPrice`): per month for a monthly plan.
    public var price: Money?
    /// The whole commitment's price there (StoreKit's `commitmentDisplayPrice`).
    public var commitmentPrice: Money?
    public var isEnabled: Bool?
    /// The plan's price per territory (per month for a monthly plan), where the source prices it
    /// territory by territory; the StoreKit reader puts `price` here in its storefront.
    public var prices: [Price] = []
    /// How long a customer commits to (12 months for a monthly plan), where the source says.
    public var commitment: Period? = nil
    /// Where the plan was written.
    public var position: Position = .unknown

    public init(type: String, price: Money? = nil, commitmentPrice: Money? = nil, isEnabled: Bool? = nil,
                prices: [Price] = [], commitment: Period? = nil, position: Position = .unknown) {
        self.type = type
        self.price = price
        self.commitmentPrice = commitmentPrice
        self.isEnabled = isEnabled
        self.prices = prices
        self.commitment = commitment
        self.position = position
    }

    /// The kind of plan, when `type` names an App Store one.
    public var kind: BillingPlanKind? { BillingPlanKind(sourceText: type) }

    /// The price in one territory: from `prices`, else `price` when that is the source's only one.
    public func price(in territory: Territory) -> Money? {
        prices.first { $0.territory == territory }?.money
    }
}

/// Where a store sells a product: App Store Connect's availability (`inAppPurchaseAvailabilities`,
/// `subscriptionAvailabilities`, or the up-front plan's `subscriptionPlanAvailabilities`).
public struct Availability: Sendable, Hashable, Codable {
    /// The territories the product is sold in, in source order.
    public var territories: [Territory]
    /// Whether the store adds the product to territories it opens later (`availableInNewTerritories`).
    public var inNewTerritories: Bool?
    /// Where the availability was written.
    public var position: Position

    public init(territories: [Territory], inNewTerritories: Bool? = nil, position: Position = .unknown) {
        self.territories = territories
        self.inNewTerritories = inNewTerritories
        self.position = position
    }
}

/// Which value of a product a `Position` belongs to.
public enum Field: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case id, kind, referenceName = "reference-name", familyShareable = "family-sharing", localizations
    case prices, period, introductoryOffer = "introductory-offer", promotionalOffers = "promotional-offers"
    case codeOffers = "code-offers", group, level
    /// A subscription's billing plans (StoreKit 5.0 `billingPlans`) and the offers on each.
    case billingPlans = "billing-plans"
    /// A multi-seat subscription's volume price tiers (`SeatTier`).
    case seatTiers = "seat-tiers"
    /// Whether a subscription can be bought with seats, and in which markets (App Store Connect's
    /// `multiSeatStatus` and `marketSettings`).
    case multiSeat = "multi-seat"
    /// A subscription's win-back offers (StoreKit 4.0's `winbackOffers`, App Store Connect's
    /// `winBackOffers`): stated by the sources that have them, compared where both do.
    case winbackOffers = "winback-offers"

    public var description: String { rawValue }

    /// The fields a source knows unless its reader says otherwise: every field but those few
    /// sources state at all (seat tiers, multi-seat status, win-back offers), which a reader adds
    /// where it reads them (a catalogue's `seat_tiers`, an App Store Connect snapshot's
    /// `multiSeatStatus`, a StoreKit 4.0 file's `winbackOffers`).
    public static let knownByDefault: Set<Field> = Set(allCases).subtracting([.seatTiers, .multiSeat, .winbackOffers])
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
        var storeIDs: [Store: String]? = nil
        var soleStore: Store? = nil
        var availability: Availability? = nil
        var storeState: String? = nil
        var members: [String]? = nil
        var seatTiers: [SeatTier]? = nil
        var multiSeatStatus: MultiSeatStatus? = nil
        var marketSettings: [SeatMarket]? = nil
        var oneTimeOffers: [OneTimeOffer]? = nil
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

    /// Where the store sells the product, when the source says (a store snapshot's availability);
    /// nil when it does not.
    public var availability: Availability? {
        get { storage.fields.availability }
        set { fields.availability = newValue }
    }

    /// The state the store gives the product (App Store Connect's `state`, the catalog report's
    /// `ADDON_ITC_STATUS` in the API's spelling: `MISSING_METADATA`, `APPROVED`, ...), where the
    /// source says; nil where it does not. `StoreStates` says which ask for the team's action.
    public var storeState: String? {
        get { storage.fields.storeState }
        set { fields.storeState = newValue }
    }

    public var group: GroupMembership? {
        get { storage.fields.group }
        set { fields.group = newValue }
    }

    /// The subscriptions a suite or bundle includes, by product ID, in source order (empty for
    /// every other kind, and for a suite whose members are not set yet).
    public var members: [String] {
        get { storage.fields.members ?? [] }
        set { fields.members = newValue.isEmpty ? nil : newValue }
    }

    /// A multi-seat subscription's volume price tiers, in ascending order of seats (empty where
    /// the source states none). Each tier prices one seat per territory; `prices` stays the
    /// subscription's ordinary price.
    public var seatTiers: [SeatTier] {
        get { storage.fields.seatTiers ?? [] }
        set { fields.seatTiers = newValue.isEmpty ? nil : newValue }
    }

    /// A Google Play one-time product's offers (discounted, pre-order, game reward), where a Play
    /// source lists them; empty otherwise.
    public var oneTimeOffers: [OneTimeOffer] {
        get { storage.fields.oneTimeOffers ?? [] }
        set { fields.oneTimeOffers = newValue.isEmpty ? nil : newValue }
    }

    /// Whether the subscription can be bought with seats (`multiSeatStatus`), where the source says.
    public var multiSeatStatus: MultiSeatStatus? {
        get { storage.fields.multiSeatStatus }
        set { fields.multiSeatStatus = newValue }
    }

    /// The markets the subscription is available in for multi-seat purchase (`marketSettings`),
    /// where the source says; nil where it does not (an empty list says: none).
    public var marketSettings: [SeatMarket]? {
        get { storage.fields.marketSettings }
        set { fields.marketSettings = newValue }
    }

    /// The App Store price tier (an App Store package's `wholesale_price_tier`), when the source
    /// gives prices as tiers rather than amounts. A tier is not an amount: tiers are compared
    /// with tiers, and become prices only through a tier table the user supplies.
    public var priceTier: Int? {
        get { storage.fields.priceTier }
        set { fields.priceTier = newValue }
    }

    /// The product's IDs in stores other than its source's, where the source names them (a
    /// catalogue's `google_play:` key): `PRODUCT_ID:BASE_PLAN_ID` for a Play subscription's base
    /// plan, the product ID for a one-time product. No entry means the same ID as `id`; an empty
    /// one means the product is not sold in that store (`google_play: null`). A store source's
    /// own products have their ID in it as `id`. `Catalog.id(of:in:)` reads them.
    public var storeIDs: [Store: String] {
        get { storage.fields.storeIDs ?? [:] }
        set { fields.storeIDs = newValue.isEmpty ? nil : newValue }
    }

    /// The one store that sells the product, where its source says so: a catalogue entry that
    /// names only its identity in another store (`google_play:` without `id`). Its `id` and
    /// `storeIDs[store]` are then that identity; it is compared with that store's sources only,
    /// and the other stores' ID rules skip it. Nil: every store its source speaks for.
    public var soleStore: Store? {
        get { storage.fields.soleStore }
        set { fields.soleStore = newValue }
    }

    /// Whether the product is sold in `store` as far as its source says: not where it is sold
    /// in another store only.
    public func isSold(in store: Store) -> Bool {
        soleStore.map { $0 == store } ?? true
    }

    /// Whether the product's source says it is sold in `store` alone.
    public func isSoldOnly(in store: Store) -> Bool {
        soleStore == store
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

extension Product {
    /// The App Store billing plans of a subscription, by kind (the first of each kind). A
    /// subscription that lists no plan is billed up front only, at its own prices: that plan is
    /// given, so that a source without plans and one with only the up-front plan agree.
    public var billingPlansByKind: [BillingPlanKind: BillingPlan] {
        guard kind.isAutoRenewable else { return [:] }
        guard !billingPlans.isEmpty else {
            return [.upfront: BillingPlan(type: BillingPlanKind.upfront.rawValue, prices: prices, position: position(of: .prices))]
        }
        var result: [BillingPlanKind: BillingPlan] = [:]
        for plan in billingPlans {
            guard let kind = plan.kind, result[kind] == nil else { continue }
            result[kind] = plan
        }
        return result
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
