import TallyModel

/// One `compared:` line of a report, as values: what the run compared, source by source, and
/// what it skipped and why. TallyCheck builds these; TallyReport words them, in one place
/// (`ComparedText.swift`), as it words findings.
public enum ComparedLine: Sendable, Hashable, Codable {
    /// Two product sources compared (the configuration's side first).
    case pair(PairSummary)
    /// One product source with nothing to compare it with (linted on its own).
    case alone(AloneSource)
    /// Prices against App Store price points (`price-point`).
    case pricePoints(PricePointSummary)
    /// A paywall source on its own: what it holds, what was checked in it and what was not.
    case paywall(PaywallSummary)
    /// A paywall source against one store source or configuration.
    case paywallSide(PaywallSideSummary)
    /// A code source: what it asks for, and what it was compared with.
    case code(CodeSummary)

    /// The pair's summary, for a `.pair` line.
    public var pair: PairSummary? {
        if case .pair(let pair) = self { return pair }
        return nil
    }
}

/// The only product source of a run.
public struct AloneSource: Sendable, Hashable, Codable {
    public var file: String
    /// Whether the source is what the app ships (its StoreKit configuration, a product list):
    /// then a configuration is not among what would give it something to compare with.
    public var isConfiguration: Bool

    public init(file: String, isConfiguration: Bool) {
        self.file = file
        self.isConfiguration = isConfiguration
    }
}

/// What `price-point` covered in one run.
public enum PricePointSummary: Sendable, Hashable, Codable {
    /// App Store Connect snapshots are in the run, and none holds price points (their files).
    case noPoints(snapshots: [String])
    /// Prices were checked against the points `read`: `prices` prices in `sources` sources;
    /// `withoutPoints` prices were in a product or territory whose points were not fetched,
    /// `otherCurrency` in another currency than the territory's points.
    case checked(read: [PointsRead], prices: Int, sources: Int, withoutPoints: Int, otherCurrency: Int)

    /// One snapshot's price points: its file, when they were read, how old they are.
    public struct PointsRead: Sendable, Hashable, Codable {
        public var file: String
        public var readAt: String
        public var ageInDays: Int?
        public var isStale: Bool

        public init(file: String, readAt: String, ageInDays: Int?, isStale: Bool) {
            self.file = file
            self.readAt = readAt
            self.ageInDays = ageInDays
            self.isStale = isStale
        }

        public init(_ points: PricePoints) {
            self.init(file: points.file, readAt: points.readAt, ageInDays: points.ageInDays, isStale: points.isStale)
        }
    }
}

/// A paywall source on its own.
public struct PaywallSummary: Sendable, Hashable, Codable {
    public var file: String
    /// The platform: "RevenueCat".
    public var platform: String
    public var offerings: Int
    /// The current offerings' keys; nil when the platform does not say which is current.
    public var currentOfferings: [String]?
    public var packages: Int
    public var products: Int
    /// Nil when the source holds no entitlements.
    public var entitlements: Int?
    /// What was checked, in order.
    public var checked: [Check]
    /// What was not checked, in order.
    public var skipped: [Skip]

    public enum Check: String, Sendable, Hashable, Codable {
        case offeringsHavePackages, currentOffering, everyProductInOffering, entitlementsGrantSold
    }

    public enum Skip: Sendable, Hashable, Codable {
        /// The source has no entitlements.
        case noEntitlements
        /// Offerings or packages whose contents the pages do not hold.
        case unstatedContents(Int)
        /// Products of stores Tally does not read (the stores' names, sorted).
        case otherStores(products: Int, stores: [String])
        /// Products no app names: their store is not known.
        case storeUnknown
    }

    public init(file: String, platform: String, offerings: Int, currentOfferings: [String]?, packages: Int, products: Int,
                entitlements: Int?, checked: [Check], skipped: [Skip]) {
        self.file = file
        self.platform = platform
        self.offerings = offerings
        self.currentOfferings = currentOfferings
        self.packages = packages
        self.products = products
        self.entitlements = entitlements
        self.checked = checked
        self.skipped = skipped
    }
}

/// A paywall source against one store source or configuration (its side).
public struct PaywallSideSummary: Sendable, Hashable, Codable {
    /// The paywall's file.
    public var paywall: String
    /// The side's file.
    public var side: String
    public var store: Store
    /// The paywall's platform: "RevenueCat".
    public var platform: String
    /// Products of the side's store the paywall shows (0: it shows none).
    public var shown: Int
    /// Of those, the ones the side has.
    public var inBoth: Int
    /// Products whose kind was compared.
    public var kinds: Int
    /// Products whose period was compared.
    public var periods: Int
    /// Whether base plans were compared (Google Play).
    public var basePlans: Bool
    /// Offerings and packages that do not say what they hold.
    public var unstatedContents: Int
    /// The paywall's products of this store that no package it states holds.
    public var notShown: Int
    /// Of those, the IDs the side does not have.
    public var notShownMissing: [String]
    /// The side's products the paywall does not show (when every offering says what it holds)
    /// or does not have at all (when some do not), sorted.
    public var outside: [String]

    public init(paywall: String, side: String, store: Store, platform: String, shown: Int, inBoth: Int, kinds: Int, periods: Int,
                basePlans: Bool, unstatedContents: Int, notShown: Int, notShownMissing: [String], outside: [String]) {
        self.paywall = paywall
        self.side = side
        self.store = store
        self.platform = platform
        self.shown = shown
        self.inBoth = inBoth
        self.kinds = kinds
        self.periods = periods
        self.basePlans = basePlans
        self.unstatedContents = unstatedContents
        self.notShown = notShown
        self.notShownMissing = notShownMissing
        self.outside = outside
    }
}

/// A code source: what it asks for and what it was compared with.
public struct CodeSummary: Sendable, Hashable, Codable {
    public var file: String
    /// Distinct product IDs the code asks for.
    public var productIDs: Int
    /// Files read.
    public var filesRead: Int
    /// Files that ask for a product ID.
    public var askingFiles: Int
    /// The files it was compared with (none: nothing to compare with).
    public var sides: [String]
    /// Why `code-unused-product` is quiet; nil when it runs.
    public var quiet: CodeQuiet?

    public init(file: String, productIDs: Int, filesRead: Int, askingFiles: Int, sides: [String], quiet: CodeQuiet?) {
        self.file = file
        self.productIDs = productIDs
        self.filesRead = filesRead
        self.askingFiles = askingFiles
        self.sides = sides
        self.quiet = quiet
    }
}

/// Why `code-unused-product` is quiet for a code source.
public enum CodeQuiet: Sendable, Hashable, Codable {
    /// The code asks for no product ID Tally can read.
    case noRequests
    /// A paywall platform's source is in the run (the app asks for what its offerings name).
    case paywallInRun
    /// Calls ask with IDs Tally cannot follow: how many, and where the first is.
    case unresolved(count: Int, first: SourceLocation)
}
