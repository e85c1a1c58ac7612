/// A store products are sold in. Each has its own product IDs: a catalogue product's ID in another
/// store than its source's is in `Product.storeIDs`, and `Catalog.id(of:in:)` answers what a
/// product is called in a store. Each fact about a store is one exhaustive switch here (issue 51),
/// so that a third store is placed by the compiler wherever a store matters; no code elsewhere
/// tests `store == .x` (`ArchitecturePlacesTests`).
public enum Store: String, Sendable, Hashable, Codable, CaseIterable {
    case appStore = "app-store"
    case googlePlay = "google-play"

    /// How messages name a source of this store standing in for a side ("Google Play").
    public var displayName: String {
        switch self {
        case .appStore: return "the App Store"
        case .googlePlay: return "Google Play"
        }
    }

    /// The store's name without an article ("App Store", "Google Play").
    public var name: String {
        switch self {
        case .appStore: return "App Store"
        case .googlePlay: return "Google Play"
        }
    }

    /// Whether a source of this store takes a side of a comparison in the store's own name
    /// ("Google Play", and `google-play` as the side in findings) rather than as "the
    /// configuration" or "the catalogue": the App Store's sources are the app's configuration and
    /// the catalogues keyed by its IDs, so they go by their role.
    public var namesItsSide: Bool {
        switch self {
        case .appStore: return false
        case .googlePlay: return true
        }
    }

    /// Whether the store prices every territory a product is sold in, each in its own currency,
    /// so that a comparison with it compares every territory both sides price (Google Play's
    /// regional configs) rather than one storefront (a StoreKit configuration's).
    public var pricesEveryTerritory: Bool {
        switch self {
        case .appStore: return false
        case .googlePlay: return true
        }
    }

    /// The store whose product IDs key a server catalogue's `id` (`tally-catalog/1`, CSV, mapped
    /// files) and an app's configuration: the App Store. A catalogue names a product's ID in each
    /// other store beside it (`google_play:`, `Product.storeIDs`).
    public static var keyOfCatalogues: Store {
        Store.allCases.first { $0.keysCatalogues } ?? .appStore
    }

    /// Whether a call that names no store (a cross-platform SDK's: Flutter's `in_app_purchase`,
    /// RevenueCat's `getProducts`, react-native-iap) asks this store: the App Store and Google
    /// Play, the two every such SDK reaches. A store only some reach is asked by its own calls
    /// (found by stubbing a third store: issue 51).
    public var isAskedByCallsOfNoStore: Bool {
        switch self {
        case .appStore: return true
        case .googlePlay: return true
        }
    }

    /// The stores a call that names no store asks (`isAskedByCallsOfNoStore`).
    public static var askedByCallsOfNoStore: [Store] { allCases.filter(\.isAskedByCallsOfNoStore) }

    /// Whether sources of this store (its configurations, its exports, the server catalogues
    /// keyed by its IDs) name a product for every store under its own ID unless the source says
    /// otherwise (`storeIDs`), so that they answer for any store; a Google Play source names its
    /// own Play identities alone.
    public var keysCatalogues: Bool {
        switch self {
        case .appStore: return true
        case .googlePlay: return false
        }
    }

    /// Whether a source of this store pairs with the others through the server catalogue (the
    /// hub that names each product in every store) rather than with every source of the run:
    /// Google Play's IDs are not the App Store's, so it is compared where the IDs are mapped.
    public var pairsThroughServerCatalogue: Bool {
        switch self {
        case .appStore: return false
        case .googlePlay: return true
        }
    }

    /// The character that joins a subscription's ID and its base plan's in this store's IDs
    /// (Google Play's `premium:monthly`), or nil where a product ID is one product (the App
    /// Store, where a subscription's plans are products of one group).
    public var basePlanSeparator: Character? {
        switch self {
        case .appStore: return nil
        case .googlePlay: return ":"
        }
    }

    /// The ID the app's code asks the store for, for one of this store's product IDs: a Play base
    /// plan's subscription (`premium` for `premium:monthly`); the ID itself elsewhere.
    public func askedID(_ id: String) -> String {
        guard let separator = basePlanSeparator, let at = id.firstIndex(of: separator) else { return id }
        return String(id[..<at])
    }

    /// Whether the store tells consumables, non-consumables and non-renewing subscriptions apart
    /// (the App Store), or sells one-time products and subscriptions (Google Play's INAPP, SUBS).
    public var tellsConsumablesApart: Bool {
        switch self {
        case .appStore: return true
        case .googlePlay: return false
        }
    }

    /// Whether the store keeps auto-renewable subscriptions in subscription groups of their own
    /// IDs (the App Store), rather than as base plans of a subscription product (Google Play).
    public var hasSubscriptionGroups: Bool {
        switch self {
        case .appStore: return true
        case .googlePlay: return false
        }
    }

    /// The framework the app asks this store through (`StoreKit`, `Google Play Billing`).
    public var billingAPI: String {
        switch self {
        case .appStore: return "StoreKit"
        case .googlePlay: return "Google Play Billing"
        }
    }

    /// Whether the store's product IDs follow the App Store's rules, which `invalid-id` applies
    /// (letters, digits, `-`, `.`, `_`, at most 100 characters); Google Play checks its own
    /// `PRODUCT_ID:BASE_PLAN_ID` by rules Tally does not restate.
    public var hasAppStoreIDRules: Bool {
        switch self {
        case .appStore: return true
        case .googlePlay: return false
        }
    }

    /// Whether a subscription or offer may last only the durations the store lists
    /// (`Period.subscriptionPeriods`, `disallowed-period`): the App Store; Google Play allows
    /// others and checks them itself.
    public var allowsListedPeriodsOnly: Bool {
        switch self {
        case .appStore: return true
        case .googlePlay: return false
        }
    }

    /// The store's price model: fixed price points a price must be one of (the App Store's
    /// tiers and price points, `price-point`), or any price in a currency's steps (Google Play).
    public var pricesFromPricePoints: Bool {
        switch self {
        case .appStore: return true
        case .googlePlay: return false
        }
    }

    /// Whether the store's record states a product's review state (App Store Connect's `state`:
    /// Ready to Submit, Missing Metadata …), which `store-state` reads.
    public var statesReviewState: Bool {
        switch self {
        case .appStore: return true
        case .googlePlay: return false
        }
    }

    /// How the store names a localization's name field ("display name", Play's "title").
    public var nameField: String {
        switch self {
        case .appStore: return "display name"
        case .googlePlay: return "title"
        }
    }

    /// The key a `tally-catalog/1` product names its ID in this store by, beside `id` (the ID
    /// in `keyOfCatalogues`): `google_play`; nil for the store that keys the catalogue.
    public var catalogueKey: String? {
        switch self {
        case .appStore: return nil
        case .googlePlay: return "google_play"
        }
    }

    /// Every store's `catalogueKey`, in the order of the stores.
    public static var catalogueKeys: [String] { allCases.compactMap(\.catalogueKey) }

    /// The store whose `catalogueKey` is `key`.
    public static func named(catalogueKey key: String) -> Store? {
        allCases.first { $0.catalogueKey == key }
    }
}
