/// What a paywall platform (RevenueCat, Adapty, Qonversion) says the app shows and grants: the
/// store products it knows, the offerings and packages the paywall shows, the entitlements a
/// purchase grants. A source of the `paywall` role carries one beside its products
/// (`Catalog.paywall`); the paywall checks compare it with every store source and configuration.
public struct Paywall: Sendable, Hashable, Codable {
    /// The platform, for messages ("RevenueCat").
    public var platform: String
    /// The store products the platform knows, in source order.
    public var products: [PaywallProduct]
    /// The offerings (Adapty: paywalls), in source order.
    public var offerings: [PaywallOffering]
    /// The entitlements; nil when the source does not say (no entitlement pages saved).
    public var entitlements: [PaywallEntitlement]?
    /// Whether the source says which offering is current (RevenueCat's `is_current`, v1's
    /// `current_offering_id`); Adapty and Qonversion have no such notion.
    public var statesCurrentOffering: Bool
    /// Whether the source holds the platform's offerings as a whole beside its products
    /// (RevenueCat's offerings pages): then no offering means none exists, and a product that no
    /// package holds is in no offering. Sources that name products only through their packages
    /// (RevenueCat v1 and the hybrid SDKs' offerings, Adapty, Qonversion) do not.
    public var listsOfferings: Bool

    public init(platform: String, products: [PaywallProduct] = [], offerings: [PaywallOffering] = [],
                entitlements: [PaywallEntitlement]? = nil, statesCurrentOffering: Bool = false, listsOfferings: Bool = false) {
        self.platform = platform
        self.products = products
        self.offerings = offerings
        self.entitlements = entitlements
        self.statesCurrentOffering = statesCurrentOffering
        self.listsOfferings = listsOfferings
    }

    /// Products by the platform's own key (RevenueCat's `prod…` ID); the first wins.
    public var productsByKey: [String: PaywallProduct] {
        var table: [String: PaywallProduct] = [:]
        for product in products where table[product.key] == nil { table[product.key] = product }
        return table
    }

    /// Every (offering, package, product) the paywall shows, in source order.
    public var shown: [PaywallShown] {
        let byKey = productsByKey
        return offerings.flatMap { offering in
            offering.packages.flatMap { package in
                package.productKeys.compactMap { key in byKey[key].map { PaywallShown(offering: offering, package: package, product: $0) } }
            }
        }
    }
}

/// One product in one package of one offering.
public struct PaywallShown: Sendable, Hashable {
    public var offering: PaywallOffering
    public var package: PaywallPackage
    public var product: PaywallProduct

    /// `offering "default", package "$rc_monthly"`: how findings say where a product is shown.
    public var place: String { "offering \"\(offering.key)\", package \"\(package.key)\"" }
}

/// What kind of product a paywall platform says a product is. `oneTime` is RevenueCat's
/// `one_time` without `is_consumable`: consumable or not, the platform does not say.
public enum PaywallKind: String, Sendable, Hashable, Codable, CustomStringConvertible {
    case subscription
    case nonRenewingSubscription = "non-renewing-subscription"
    case consumable
    case nonConsumable = "non-consumable"
    case oneTime = "one-time"

    public var description: String { rawValue }

    /// Whether a store product of `kind` is this: a one-time product is consumable or not.
    public func admits(_ kind: ProductKind) -> Bool {
        switch self {
        case .subscription: kind.isAutoRenewable
        case .nonRenewingSubscription: kind == .nonRenewingSubscription
        case .consumable: kind == .consumable
        case .nonConsumable: kind == .nonConsumable
        case .oneTime: kind == .consumable || kind == .nonConsumable
        }
    }

    /// The catalogue kind a paywall product becomes (`show`, `convert`): a one-time product of
    /// unknown consumability becomes non-consumable.
    public var productKind: ProductKind {
        switch self {
        case .subscription: .autoRenewableSubscription
        case .nonRenewingSubscription: .nonRenewingSubscription
        case .consumable: .consumable
        case .nonConsumable, .oneTime: .nonConsumable
        }
    }

    /// Whether a purchase of this kind must be granted by an entitlement: everything but
    /// consumables (the app grants those itself) and one-time products that may be consumables.
    public var needsEntitlement: Bool { self != .consumable && self != .oneTime }
}

/// A store product as the paywall platform knows it.
public struct PaywallProduct: Sendable, Hashable, Codable {
    /// The platform's own key for the product (RevenueCat's `prod1a2b3c`); the store ID when the
    /// platform has none.
    public var key: String
    /// The product's ID in its store (`com.example.pro.monthly`, `pro:monthly` on Google Play).
    public var storeID: String
    /// The store the product is sold in; nil for stores Tally does not read (Stripe, Amazon) or
    /// when the source does not say.
    public var store: Store?
    /// The platform's word for the store (`app_store`, `play_store`, `stripe`), for messages.
    public var storeName: String?
    /// Nil when the source does not say (RevenueCat v1 offerings).
    public var kind: PaywallKind?
    /// The subscription duration the platform states.
    public var period: Period?
    public var position: Position
    /// Where `type` and the duration are written.
    public var kindPosition: Position
    public var periodPosition: Position

    public init(key: String, storeID: String, store: Store? = nil, storeName: String? = nil, kind: PaywallKind? = nil,
                period: Period? = nil, position: Position = .unknown, kindPosition: Position = .unknown, periodPosition: Position = .unknown) {
        self.key = key
        self.storeID = storeID
        self.store = store
        self.storeName = storeName
        self.kind = kind
        self.period = period
        self.position = position
        self.kindPosition = kindPosition
        self.periodPosition = periodPosition
    }
}

/// An offering: a set of packages the paywall shows together.
public struct PaywallOffering: Sendable, Hashable, Codable {
    /// RevenueCat's `lookup_key` (v1: `identifier`).
    public var key: String
    public var isCurrent: Bool
    public var packages: [PaywallPackage]
    public var position: Position
    /// Whether the source says which packages the offering has (RevenueCat pages saved without
    /// `expand=items.package.product` do not): an offering whose packages are unstated is not empty.
    public var statesPackages: Bool = true

    public init(key: String, isCurrent: Bool = false, packages: [PaywallPackage] = [], position: Position = .unknown) {
        self.key = key
        self.isCurrent = isCurrent
        self.packages = packages
        self.position = position
    }
}

/// A package: one choice on the paywall, one product per store.
public struct PaywallPackage: Sendable, Hashable, Codable {
    /// RevenueCat's `lookup_key` (`$rc_monthly`).
    public var key: String
    /// The product keys (`PaywallProduct.key`) the package holds.
    public var productKeys: [String]
    public var position: Position
    /// Whether the source says which products the package holds (an unexpanded package does not).
    public var statesProducts: Bool = true

    public init(key: String, productKeys: [String] = [], position: Position = .unknown) {
        self.key = key
        self.productKeys = productKeys
        self.position = position
    }
}

/// An entitlement: what a purchase of one of its products unlocks.
public struct PaywallEntitlement: Sendable, Hashable, Codable {
    public var key: String
    public var productKeys: [String]
    public var position: Position

    public init(key: String, productKeys: [String] = [], position: Position = .unknown) {
        self.key = key
        self.productKeys = productKeys
        self.position = position
    }
}
