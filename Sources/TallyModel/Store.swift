/// A store products are sold in. Each has its own product IDs: a catalogue product's Google Play
/// identity is `Product.googlePlayID`. Each fact about a store is one exhaustive switch here
/// (issue 51), so that a third store is placed by the compiler wherever a store matters.
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
}
