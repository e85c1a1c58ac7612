/// The input formats Tally reads.
public enum SourceFormat: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case storeKit = "storekit"
    case tallyCatalogJSON = "tally-catalog-json"
    case tallyCatalogYAML = "tally-catalog-yaml"
    /// A property list of product IDs shipped with the app (XML or binary).
    case propertyList = "plist"
    /// An App Store package `metadata.xml` (iTMSTransporter).
    case appStorePackage = "app-store-package"
    /// App Store Connect API exports (JSON:API documents).
    case appStoreConnect = "app-store-connect"
    /// App Store Connect's in-app purchases catalog report (tab-delimited text, one row per product).
    case appStoreConnectReport = "app-store-connect-report"
    /// A CSV catalogue, one row per product and territory.
    case csv = "csv"
    /// Any server JSON or YAML, read through a `tally-mapping/1` file.
    case mapped = "mapped"
    /// Google Play Developer API (androidpublisher v3) responses saved as JSON, or the Play
    /// Console's in-app products CSV.
    case googlePlay = "google-play"
    /// Unity IAP's product catalogue (`IAPProductCatalog.json`).
    case unityIAP = "unity-iap"
    /// storeconfig's export of an app's App Store Connect configuration (`storeconfig fetch`).
    case storeConfig = "storeconfig"
    /// RevenueCat's project configuration: REST API v2 pages (a folder of them is one source),
    /// the v1 offerings shape. See docs/paywall.md.
    case revenueCat = "revenuecat"
    /// Adapty's fallback paywall file (`ios_fallback.json`, `android_fallback.json`).
    case adapty = "adapty"
    /// Qonversion's v4 products list.
    case qonversion = "qonversion"
    /// The product IDs the app's code asks the store for (Swift, Objective-C, Kotlin, Java, Dart,
    /// JavaScript/TypeScript, C#): every code file of a run is one source. See docs/code.md.
    case code = "code"

    public var description: String { rawValue }

    /// What the format is, for people (help prose): every format says it here, so a list built
    /// from `allCases` cannot leave one out.
    public var forPeople: String {
        switch self {
        case .storeKit: "Xcode StoreKit configurations (.storekit, every version)"
        case .propertyList: "the app's product property lists (.plist)"
        case .tallyCatalogJSON: "server catalogues in tally-catalog/1 JSON"
        case .tallyCatalogYAML: "tally-catalog/1 YAML"
        case .csv: "CSV catalogues (.csv)"
        case .mapped: "any server JSON or YAML through a tally-mapping/1 file (--mapping)"
        case .appStorePackage: "App Store package metadata.xml files"
        case .appStoreConnect: "App Store Connect API exports and 'tally fetch' snapshots"
        case .appStoreConnectReport: "App Store Connect's in-app purchases catalog report"
        case .googlePlay: "Google Play API responses and the Play Console's CSV"
        case .unityIAP: "Unity IAP product catalogues"
        case .storeConfig: "storeconfig exports"
        case .revenueCat: "RevenueCat projects"
        case .adapty: "Adapty fallback paywalls"
        case .qonversion: "Qonversion product lists"
        case .code: "the product IDs the app's code asks for (Swift, Kotlin, Java, Dart, TypeScript, C#, Objective-C)"
        }
    }

    /// Every format for people, in one sentence's list: `A, B, … and Z`.
    public static var listedForPeople: String {
        let names = allCases.map(\.forPeople)
        guard let last = names.last, names.count > 1 else { return names.joined() }
        return names.dropLast().joined(separator: ", ") + " and " + last
    }

    /// Which side of a check a source of this format stands on: what the app ships is a
    /// configuration; servers, spreadsheets and the store's own exports are catalogues.
    public var role: SourceRole {
        switch self {
        case .storeKit, .propertyList: return .configuration
        case .tallyCatalogJSON, .tallyCatalogYAML, .appStorePackage, .appStoreConnect, .appStoreConnectReport, .csv, .mapped, .googlePlay, .unityIAP, .storeConfig:
            return .catalog
        case .revenueCat, .adapty, .qonversion: return .paywall
        case .code: return .code
        }
    }
}


/// The app's configuration (what the app sells), the server's catalogue (what it grants), or a
/// paywall platform's configuration (what the paywall shows and grants: `Catalog.paywall`).
public enum SourceRole: String, Sendable, Hashable, Codable, CaseIterable {
    case configuration
    case catalog
    case paywall
    /// The app's code: the product IDs it asks the store for (`Catalog.code`).
    case code

    /// Whether a source of this role names products the stores' sources sell (a paywall's
    /// offerings, the IDs the app's code asks for) rather than selling them: it is checked
    /// against the run's other sources by its own rules, not paired with them.
    public var refersToOthers: Bool {
        switch self {
        case .configuration, .catalog: return false
        case .paywall, .code: return true
        }
    }
}

/// A subscription group as one source declares it.
public struct SubscriptionGroup: Sendable, Hashable, Codable {
    public var id: String
    public var name: String?
    /// Member product IDs in source order.
    public var productIDs: [String]
    public var position: Position
    /// The group's display names by locale (StoreKit's group `localizations`, App Store
    /// Connect's `subscriptionGroupLocalizations`); `description` holds no text of the store's own
    /// here (App Store Connect's `customAppName` is not a description).
    public var localizations: [Localization] = []

    public init(id: String, name: String? = nil, productIDs: [String] = [], position: Position = .unknown,
                localizations: [Localization] = []) {
        self.id = id
        self.name = name
        self.productIDs = productIDs
        self.position = position
        self.localizations = localizations
    }
}

/// Everything one source file says about the products, normalised.
public struct Catalog: Sendable, Hashable, Codable {
    /// The file the catalogue was read from, as the user named it.
    public var file: String
    public var format: SourceFormat
    /// The territory whose prices a single-price source (a StoreKit configuration) gives:
    /// its storefront. For catalogues, the declared default territory.
    public var defaultTerritory: Territory
    /// Products in source order, duplicates kept (lint reports them).
    public var products: [Product]
    public var groups: [SubscriptionGroup]
    /// Which fields this source knows at all; comparisons skip fields one side does not know.
    public var knownFields: Set<Field>
    /// Problems with single values found while reading; lint turns them into findings.
    public var issues: [SourceIssue]
    /// The files of a source read from several files (an App Store Connect export's pages), in
    /// the order their lines are numbered in this catalogue's positions. Empty for one file.
    public var parts: [SourcePart] = []
    /// The introductory-offer modes this source can express; nil when it can express them all.
    /// An App Store package knows free trials only, so a paid offer on the other side is not
    /// compared with its silence.
    public var introductoryOfferModes: Set<OfferMode>? = nil
    /// Whether the source tells consumable from non-consumable products. Google Play does not
    /// (an app consumes a one-time purchase or not): against it, only "one-time" is compared.
    public var distinguishesConsumables: Bool = true
    /// Products the reader left out because of their state (not for sale, and not asked for
    /// with `ReadOptions.includeStates`), by state as the reader spells it (`INACTIVE`,
    /// `WAITING_FOR_SCREENSHOT`): every command says how many it hid and how to show them.
    public var hiddenByState: [String: Int] = [:]
    /// Products the reader left out by state (counted in `hiddenByState`) that wait on the team
    /// (`StoreStates.needsAction`: `MISSING_METADATA`, `REJECTED`, ...) or are on their way to sale
    /// (`StoreStates.onTheWay`: `READY_TO_SUBMIT`, `WAITING_FOR_REVIEW`, ...). They are not
    /// compared, shown as products or converted; the `store-state` rule reports them (those that
    /// wait on the team, those with a cause Tally sees, and those another source of the run has,
    /// instead of reporting them missing from the store), so that a product not yet on sale does
    /// not vanish from a check.
    public var heldByState: [Product] = []
    /// What a paywall platform's source says the paywall shows and grants (sources of the
    /// `paywall` role); nil for every other source. `products` then holds its store products.
    public var paywall: Paywall? = nil
    /// What the app's code asks for, for a code source (`SourceFormat.code`): each request with
    /// its call site. The source's products are the IDs asked for, one each.
    public var code: CodeRequests? = nil
    /// The App Store's price points an App Store Connect snapshot saved (`price-points.json`):
    /// `price-point` checks every App Store source's prices against them. Nil when the source
    /// holds none.
    public var pricePoints: PricePoints? = nil
    /// The copy this source is part of, when the policy says several files together form one
    /// copy (`sources: [{path: "server/*.yaml", copy: server}]`): such files are not compared with
    /// each other, and a product counts as missing from the copy only when none of them has it.
    public var copy: String? = nil

    public init(
        file: String, format: SourceFormat, defaultTerritory: Territory = .usa,
        products: [Product] = [], groups: [SubscriptionGroup] = [], knownFields: Set<Field> = Field.knownByDefault,
        issues: [SourceIssue] = []
    ) {
        self.file = file
        self.format = format
        self.defaultTerritory = defaultTerritory
        self.products = products
        self.groups = groups
        self.knownFields = knownFields
        self.issues = issues
    }

    /// A full location for a position in this catalogue's file.
    public func location(_ position: Position, path: String? = nil) -> SourceLocation {
        if position.isKnown, let part = SourcePart.containing(line: Int(position.line), in: parts) {
            return SourceLocation(file: part.file, line: Int(position.line) - part.firstLine + 1, column: Int(position.column))
        }
        return position.isKnown
            ? SourceLocation(file: file, line: Int(position.line), column: Int(position.column))
            : SourceLocation(file: file, path: path)
    }

    /// Where a product's field was written: its line and column, or else its key path.
    public func location(of product: Product, _ field: Field) -> SourceLocation {
        location(product.position(of: field), path: product.path(of: field))
    }

    /// Products by ID; the first wins where an ID repeats.
    public var productsByID: [String: Product] {
        var table: [String: Product] = [:]
        table.reserveCapacity(products.count)
        for product in products where table[product.id] == nil {
            table[product.id] = product
        }
        return table
    }
}

/// Something wrong with one value that does not stop the file from being read (an unparsable
/// price, a period that is not ISO 8601). Lint reports each as a finding of its `rule`.
public struct SourceIssue: Sendable, Hashable, Codable {
    /// The lint rule that reports it (`.invalidPrice`, `.invalidPeriod`, ...).
    public var rule: RuleID
    public var productID: String?
    public var field: Field
    public var message: String
    public var position: Position
    /// The key path where the source has no lines (property lists).
    public var path: String?
    /// What a person can do to have the value read (name the Play default territory), if anything.
    public var remedy: Remedy?

    public init(rule: RuleID, productID: String?, field: Field, message: String, position: Position, path: String? = nil,
                remedy: Remedy? = nil) {
        self.rule = rule
        self.productID = productID
        self.field = field
        self.message = message
        self.position = position
        self.path = path
        self.remedy = remedy
    }
}

extension Catalog {
    /// Whether this source says something about `field` for `product`: a value, or the key
    /// written down even when empty (`promotional_offers: []` states that there are none).
    ///
    /// Sources that describe every product completely (StoreKit configurations, App Store
    /// Connect exports, Google Play, App Store packages, property lists) state every field they
    /// know for every product: a subscription without `adHocOffers` has no promotional offers.
    /// Server catalogues (tally-catalog/1, CSV, mapped files) state a field only where the
    /// product has the key or a value; elsewhere they are silent, and nothing is compared.
    public func states(_ field: Field, for product: Product) -> Bool {
        guard knownFields.contains(field) else { return false }
        if format.describesEveryField || product.fieldPositions[field] != nil || product.fieldPaths[field] != nil { return true }
        switch field {
        case .id, .kind: return true
        case .referenceName: return product.referenceName != nil
        case .familyShareable: return product.familyShareable != nil
        case .localizations: return !product.localizations.isEmpty
        case .prices: return !product.prices.isEmpty
        case .period: return product.period != nil
        case .introductoryOffer: return product.introductoryOffer != nil
        case .promotionalOffers: return !product.promotionalOffers.isEmpty
        case .codeOffers: return !product.codeOffers.isEmpty
        case .billingPlans: return !product.billingPlans.isEmpty
        case .seatTiers: return !product.seatTiers.isEmpty
        case .multiSeat: return product.multiSeatStatus != nil || product.marketSettings != nil
        case .winbackOffers: return !product.winbackOffers.isEmpty
        case .group: return product.group != nil
        case .level: return product.group?.level != nil
        }
    }
}

extension SourceFormat {
    /// Whether a source of this format describes each product completely, so that a value it
    /// leaves out is absent rather than unstated (see `Catalog.states`).
    public var describesEveryField: Bool {
        switch self {
        case .storeKit, .appStoreConnect, .appStoreConnectReport, .googlePlay, .appStorePackage, .propertyList, .storeConfig, .revenueCat, .adapty, .qonversion: return true
        case .tallyCatalogJSON, .tallyCatalogYAML, .csv, .mapped, .unityIAP, .code: return false
        }
    }
}

extension Catalog {
    /// A product's kind when the source says it: for the whole source, or for this product (a
    /// property list's subscriptions are known to be subscriptions); nil when the kind is only a
    /// placeholder (`show`, `diff`, release notes and JSON then say the kind is not stated).
    public func statedKind(of product: Product) -> ProductKind? {
        knownFields.contains(.kind) || product.fieldPositions[.kind] != nil || product.fieldPaths[.kind] != nil ? product.kind : nil
    }
}

extension Catalog {
    /// The ID `product` of this source has in `store`, or nil where it has none there: sold in
    /// another store only, not sold there (`google_play: null`), or a source of another store
    /// that does not name it there. A source keyed by App Store IDs (a configuration, a server
    /// catalogue: `Store.keysCatalogues`) names each product in every store under its own ID
    /// unless `storeIDs` says otherwise.
    public func id(of product: Product, in store: Store) -> String? {
        guard product.isSold(in: store) else { return nil }
        if let id = product.storeIDs[store] { return id.isEmpty ? nil : id }
        if format.store == store || format.store.keysCatalogues || product.soleStore == store { return product.id }
        return nil
    }
}
