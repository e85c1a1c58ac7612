/// What a source of each format can state, one exhaustive switch a fact: rules ask these, never
/// `format == .x` (issue 51), so that a new format is placed by the compiler in every rule.
extension SourceFormat {
    /// The store whose product IDs, ID rules and periods the format speaks of: Google Play for
    /// Play sources; the App Store for the app's configurations, App Store exports and the server
    /// catalogues keyed by App Store IDs (`Store.keyOfCatalogues`), and for paywalls and code,
    /// which name their products per store themselves.
    public var store: Store {
        switch self {
        case .googlePlay: return .googlePlay
        case .storeKit, .propertyList, .appStorePackage, .appStoreConnect, .appStoreConnectReport, .storeConfig: return .appStore
        case .tallyCatalogJSON, .tallyCatalogYAML, .csv, .mapped, .unityIAP, .revenueCat, .adapty, .qonversion, .code: return Store.keyOfCatalogues
        }
    }

    /// Whether a folder of this format is proposed (by `tally init`) through a file in it, not as
    /// a folder: an App Store package by its `metadata.xml`.
    public var isProposedByAFileInside: Bool {
        switch self {
        case .appStorePackage: return true
        case .storeKit, .propertyList, .appStoreConnect, .appStoreConnectReport, .storeConfig, .googlePlay, .tallyCatalogJSON, .tallyCatalogYAML,
             .csv, .mapped, .unityIAP, .revenueCat, .adapty, .qonversion, .code: return false
        }
    }

    /// Whether a source of this format can say whether a subscription is sold with seats (a
    /// catalogue's `multi_seat`, App Store Connect's `multiSeatStatus`): where it does not, silence
    /// beside a store that enables seats is a gap (`multi-seat`, issue 50), not a format's limit.
    public var statesMultiSeat: Bool {
        switch self {
        case .tallyCatalogJSON, .tallyCatalogYAML, .appStoreConnect: return true
        case .storeKit, .appStoreConnectReport, .googlePlay, .appStorePackage, .propertyList, .storeConfig, .revenueCat, .adapty, .qonversion,
             .csv, .mapped, .unityIAP, .code: return false
        }
    }

    /// Whether a source of this format is the store's own record of the products (a snapshot or
    /// export of App Store Connect or Google Play, an App Store package): a value it holds may be
    /// one the store set by default, not one the team chose.
    public var isStoreRecord: Bool {
        switch self {
        case .appStoreConnect, .appStoreConnectReport, .googlePlay, .appStorePackage: return true
        case .storeKit, .propertyList, .storeConfig, .revenueCat, .adapty, .qonversion, .tallyCatalogJSON, .tallyCatalogYAML, .csv, .mapped,
             .unityIAP, .code: return false
        }
    }

    /// Whether a source of this format prices a product where the store sells it (an App Store
    /// Connect snapshot, storeconfig's export, an App Store package, Google Play), so that its
    /// territories are where the product is sold (`priced-territories`).
    public var pricesWhereSold: Bool {
        switch self {
        case .appStoreConnect, .storeConfig, .appStorePackage, .googlePlay: return true
        case .storeKit, .propertyList, .appStoreConnectReport, .revenueCat, .adapty, .qonversion, .tallyCatalogJSON, .tallyCatalogYAML, .csv,
             .mapped, .unityIAP, .code: return false
        }
    }

    /// Whether a source of this format prices one storefront by design (a StoreKit
    /// configuration): its territories say nothing about where a product is sold, and two such
    /// sources of different storefronts are not compared price by price.
    public var pricesOneStorefront: Bool {
        switch self {
        case .storeKit: return true
        case .propertyList, .appStoreConnect, .appStoreConnectReport, .storeConfig, .appStorePackage, .googlePlay, .revenueCat, .adapty,
             .qonversion, .tallyCatalogJSON, .tallyCatalogYAML, .csv, .mapped, .unityIAP, .code: return false
        }
    }

    /// Whether Xcode writes sources of this format, keeping values StoreKit ignores (an offer's
    /// `displayPrice` after it became a free trial): such a value is a warning, not an error.
    public var isWrittenByXcode: Bool {
        switch self {
        case .storeKit: return true
        case .propertyList, .appStoreConnect, .appStoreConnectReport, .storeConfig, .appStorePackage, .googlePlay, .revenueCat, .adapty,
             .qonversion, .tallyCatalogJSON, .tallyCatalogYAML, .csv, .mapped, .unityIAP, .code: return false
        }
    }

    /// Whether a source of this format holds prices at all (an App Store Connect catalog report
    /// holds none: it cannot show one missing).
    public var holdsPrices: Bool {
        switch self {
        case .appStoreConnectReport: return false
        case .storeKit, .propertyList, .appStoreConnect, .storeConfig, .appStorePackage, .googlePlay, .revenueCat, .adapty, .qonversion,
             .tallyCatalogJSON, .tallyCatalogYAML, .csv, .mapped, .unityIAP, .code: return true
        }
    }

    /// Whether a source of this format gives localizations' texts (a catalog report lists a
    /// product's locales without them).
    public var holdsLocalizationTexts: Bool {
        switch self {
        case .appStoreConnectReport: return false
        case .storeKit, .propertyList, .appStoreConnect, .storeConfig, .appStorePackage, .googlePlay, .revenueCat, .adapty, .qonversion,
             .tallyCatalogJSON, .tallyCatalogYAML, .csv, .mapped, .unityIAP, .code: return true
        }
    }

    /// Whether a source of this format describes every subscription group (a StoreKit file, an
    /// App Store Connect snapshot), so that a group without localizations is a group without them.
    public var describesEveryGroup: Bool {
        switch self {
        case .storeKit, .appStoreConnect: return true
        case .propertyList, .appStoreConnectReport, .storeConfig, .appStorePackage, .googlePlay, .revenueCat, .adapty, .qonversion,
             .tallyCatalogJSON, .tallyCatalogYAML, .csv, .mapped, .unityIAP, .code: return false
        }
    }

    /// Whether a source of this format is App Store Connect's API record, which says a
    /// subscription has no level in its group (StoreKit cannot load such a subscription) and
    /// which `tally fetch` saves price points with.
    public var isConnectAPIRecord: Bool {
        switch self {
        case .appStoreConnect: return true
        case .storeKit, .propertyList, .appStoreConnectReport, .storeConfig, .appStorePackage, .googlePlay, .revenueCat, .adapty, .qonversion,
             .tallyCatalogJSON, .tallyCatalogYAML, .csv, .mapped, .unityIAP, .code: return false
        }
    }

    /// How a store's record of this format is named in a sentence ("the report", "the snapshot").
    public var recordNoun: String {
        switch self {
        case .appStoreConnectReport: return "the report"
        case .storeKit, .propertyList, .appStoreConnect, .storeConfig, .appStorePackage, .googlePlay, .revenueCat, .adapty, .qonversion,
             .tallyCatalogJSON, .tallyCatalogYAML, .csv, .mapped, .unityIAP, .code: return "the snapshot"
        }
    }

    /// How the app's own product source of this format is named ("the app's StoreKit
    /// configuration", "the app's product list").
    public var appSourceNoun: String {
        switch self {
        case .storeKit: return "the app's StoreKit configuration"
        case .propertyList, .appStoreConnect, .appStoreConnectReport, .storeConfig, .appStorePackage, .googlePlay, .revenueCat, .adapty,
             .qonversion, .tallyCatalogJSON, .tallyCatalogYAML, .csv, .mapped, .unityIAP, .code: return "the app's product list"
        }
    }

    /// Whether a source of this format is a server's catalogue (tally-catalog/1, CSV, a mapped
    /// file): what the server grants, paired with the app's and the store's sources.
    public var isServerCatalogue: Bool {
        switch self {
        case .tallyCatalogJSON, .tallyCatalogYAML, .csv, .mapped: return true
        case .storeKit, .propertyList, .appStoreConnect, .appStoreConnectReport, .storeConfig, .appStorePackage, .googlePlay, .revenueCat,
             .adapty, .qonversion, .unityIAP, .code: return false
        }
    }

    /// Whether a source of this format is what the app or the store sells (not a server's
    /// catalogue, which may grant products the app no longer offers, nor a paywall or the code).
    public var isWhatIsSold: Bool {
        switch self {
        case .storeKit, .propertyList, .appStoreConnect, .appStoreConnectReport, .appStorePackage, .googlePlay, .storeConfig, .unityIAP:
            return true
        case .tallyCatalogJSON, .tallyCatalogYAML, .csv, .mapped, .revenueCat, .adapty, .qonversion, .code: return false
        }
    }
}
