import TallyModel

/// What the comparison of one configuration with one catalogue covered: per field, how many of
/// the products in both were compared, and for the rest, which side does not state the field.
///
/// Sources know different things: a property list knows IDs (sometimes kinds and groups), a CSV
/// may leave out offer columns, a server catalogue may state promotional offers for some
/// products and not others. A field a side does not state is skipped and said so, never
/// reported as a mismatch, and never listed as compared. A report's `compared:` line for the
/// pair (`ComparedLine.pair`) is worded by TallyReport (`sentence`).
public struct PairSummary: Sendable, Hashable, Codable {
    /// The configuration's file (the reference side).
    public var configuration: String
    /// The catalogue's file.
    public var catalog: String
    /// The territory whose prices were compared: the configuration's storefront.
    public var territory: Territory
    /// Products present on both sides.
    public var sharedProducts: Int
    /// Fields the rules compared for at least one product, in rule order (IDs are always compared).
    public var compared: [Field]
    /// Fields compared for no product, each with why.
    public var skipped: [Skipped]
    /// Per field, how many products were compared and why the others were not.
    public var coverage: [Coverage] = []
    /// Whether prices were compared in every territory both sides price (Google Play against a
    /// catalogue) rather than in `territory` only; nil when not.
    public var everyTerritory: Bool? = nil
    /// The catalogue's storefront when both sides are StoreKit configurations of different
    /// storefronts (prices are then not compared); nil otherwise.
    public var otherStorefront: Territory? = nil
    /// Whether the first side states no prices (a product list): no storefront is named for it.
    public var unpricedConfiguration: Bool? = nil

    /// A field that was not compared.
    public struct Skipped: Sendable, Hashable, Codable {
        public var field: Field
        /// Who lacks it, by the source's noun: "the property list", or `neither` (both do).
        public var subject: String
        /// The files that do not know the field (empty when both know it but state it for no product).
        public var missingIn: [String]
        /// Why, when the sources know the field but it was still compared for no product in both.
        public var because: Because? = nil

        public init(field: Field, subject: String, missingIn: [String], because: Because? = nil) {
            self.field = field
            self.subject = subject
            self.missingIn = missingIn
            self.because = because
        }

        /// The subject when neither source knows the field.
        public static let neither = "neither source"
    }

    /// Why a field both sources know was compared for no product (TallyReport words it).
    public enum Because: Sendable, Hashable, Codable {
        /// Two StoreKit configurations of different storefronts: prices are not compared. The
        /// sources by their nouns, each with its storefront.
        case otherStorefronts(configuration: String, territory: Territory, catalog: String, other: Territory)
        /// Of the field's coverage, no product was compared: the sources by their nouns (for
        /// who does not state it).
        case unstated(Coverage, configuration: String, catalog: String)
    }

    /// One field's coverage: of the `applicable` products in both (every product, or the
    /// subscriptions for subscription fields), `compared` were compared; of the others, the
    /// configuration did not state the field for `unstatedInConfiguration` and the catalogue
    /// for `unstatedInCatalog` (a product may count on both sides).
    public struct Coverage: Sendable, Hashable, Codable {
        public var field: Field
        public var compared: Int
        public var applicable: Int
        public var unstatedInConfiguration: Int
        public var unstatedInCatalog: Int

        public init(field: Field, compared: Int, applicable: Int, unstatedInConfiguration: Int = 0, unstatedInCatalog: Int = 0) {
            self.field = field
            self.compared = compared
            self.applicable = applicable
            self.unstatedInConfiguration = unstatedInConfiguration
            self.unstatedInCatalog = unstatedInCatalog
        }
    }

    public init(configuration: String, catalog: String, territory: Territory, sharedProducts: Int,
                compared: [Field], skipped: [Skipped], coverage: [Coverage] = []) {
        self.configuration = configuration
        self.catalog = catalog
        self.territory = territory
        self.sharedProducts = sharedProducts
        self.compared = compared
        self.skipped = skipped
        self.coverage = coverage
    }

    /// The fields cross-source rules compare, in report order. IDs are matched, not listed here.
    public static let comparableFields: [Field] = [
        .kind, .familyShareable, .prices, .period, .introductoryOffer, .promotionalOffers, .group, .level, .billingPlans,
        .seatTiers, .multiSeat, .winbackOffers,
    ]

    /// The rules that compare each field: a field whose rules are all turned off is not compared
    /// as far as any report says (`without(_:)`).
    public static let fieldRules: [Field: [RuleID]] = [
        .kind: [.kind], .familyShareable: [.familySharing], .prices: [.price], .period: [.period],
        .introductoryOffer: [.introOffer], .promotionalOffers: [.promoOffer], .group: [.group], .level: [.level, .levelNumber],
        .billingPlans: [.billingPlan], .seatTiers: [.seatTier], .multiSeat: [.multiSeat], .winbackOffers: [.winbackOffer],
    ]

    /// This summary without `fields`: neither compared, nor skipped, nor counted (the fields of
    /// rules a policy turned off).
    public func without(_ fields: Set<Field>) -> PairSummary {
        var copy = self
        copy.compared.removeAll { fields.contains($0) }
        copy.skipped.removeAll { fields.contains($0.field) }
        copy.coverage.removeAll { fields.contains($0.field) }
        return copy
    }

    /// What `comparison` compares and skips.
    public init(_ comparison: Comparison) {
        let configuration = comparison.configuration
        let catalog = comparison.catalog
        var compared: [Field] = []
        var skipped: [Skipped] = []
        var coverage: [Coverage] = []
        var otherStorefront: Territory?
        let nouns = (Self.noun(configuration, beside: catalog, named: comparison.name(of: configuration)),
                     Self.noun(catalog, beside: configuration, named: comparison.name(of: catalog)))
        // Billing plans are said only where a side has one: sources from before plans (StoreKit
        // before 5.0, catalogues without billing_plans) leave the line as it was.
        let hasPlans = { (source: Catalog) in source.products.contains { $0.billingPlans.contains { $0.kind != nil } } }
        let mentionsPlans = hasPlans(configuration) || hasPlans(catalog)
        // Seat tiers and multi-seat status likewise, only where a side states some (sources from
        // before multi-seat subscriptions leave the line as it was).
        let mentions = { (field: Field) -> Bool in
            switch field {
            case .billingPlans: return mentionsPlans
            case .seatTiers:
                return [configuration, catalog].contains { $0.knownFields.contains(field) && $0.products.contains { !$0.seatTiers.isEmpty } }
            case .multiSeat:
                return [configuration, catalog].contains { source in
                    source.knownFields.contains(field) && source.products.contains { $0.multiSeatStatus != nil || $0.marketSettings != nil }
                }
            case .winbackOffers:
                // Only where a side has one: the line stays as it was for sources without them.
                return [configuration, catalog].contains { $0.knownFields.contains(field) && $0.products.contains { !$0.winbackOffers.isEmpty } }
            default: return true
            }
        }
        for field in Self.comparableFields where mentions(field) {
            let configKnows = configuration.knownFields.contains(field)
            let catalogKnows = catalog.knownFields.contains(field)
            if field == .prices, configKnows, catalogKnows, let other = comparison.otherStorefront {
                skipped.append(Skipped(field: field, subject: "", missingIn: [], because: .otherStorefronts(
                    configuration: comparison.configNoun, territory: comparison.territory, catalog: comparison.catalogNoun, other: other)))
                otherStorefront = other
                continue
            }
            if configKnows && catalogKnows {
                let counted = Self.count(field, in: comparison)
                coverage.append(counted)
                if counted.compared > 0 {
                    compared.append(field)
                } else {
                    skipped.append(Skipped(field: field, subject: "", missingIn: [], because: .unstated(counted, configuration: nouns.0, catalog: nouns.1)))
                }
                continue
            }
            let subject: String
            switch (configKnows, catalogKnows) {
            case (false, false): subject = Skipped.neither
            case (false, _): subject = nouns.0
            default: subject = nouns.1
            }
            let missingIn = (configKnows ? [] : [configuration.file]) + (catalogKnows ? [] : [catalog.file])
            skipped.append(Skipped(field: field, subject: subject, missingIn: missingIn))
        }
        self.init(configuration: configuration.file, catalog: catalog.file, territory: comparison.territory,
                  sharedProducts: comparison.sharedIDs.count, compared: compared, skipped: skipped, coverage: coverage)
        if comparison.comparesEveryTerritory { everyTerritory = true }
        self.otherStorefront = otherStorefront
        if !comparison.configuration.knownFields.contains(.prices) { unpricedConfiguration = true }
    }

    /// How many products in both had `field` compared, by the same conditions the rules apply.
    static func count(_ field: Field, in comparison: Comparison) -> Coverage {
        let (configuration, catalog) = (comparison.configuration, comparison.catalog)
        var result = Coverage(field: field, compared: 0, applicable: 0)
        for (left, right) in comparison.pairs {
            let subscriptions = left.kind.isAutoRenewable && right.kind.isAutoRenewable
            let applicable: Bool
            let states: (Bool, Bool)
            let compared: Bool
            switch field {
            case .kind:
                (applicable, states, compared) = (true, (true, true), true)
            case .familyShareable:
                states = (left.familyShareable != nil, right.familyShareable != nil)
                (applicable, compared) = (true, FamilySharingRule().applies(to: left, right, in: comparison))
            case .prices:
                let priced = comparison.comparesEveryTerritory ? !left.prices.isEmpty : left.price(in: comparison.territory) != nil
                states = (priced, !comparison.comparesEveryTerritory || !right.prices.isEmpty)
                (applicable, compared) = (true, PriceRule().applies(to: left, right, in: comparison))
            case .period:
                states = (left.period != nil, right.period != nil)
                (applicable, compared) = (subscriptions, PeriodRule().applies(to: left, right, in: comparison))
            case .introductoryOffer:
                states = (!IntroOfferRule.silentForWant(of: left.introductoryOffer, configuration, against: right.introductoryOffer),
                          !IntroOfferRule.silentForWant(of: right.introductoryOffer, catalog, against: left.introductoryOffer))
                (applicable, compared) = (subscriptions, IntroOfferRule().applies(to: left, right, in: comparison))
            case .promotionalOffers:
                states = (configuration.states(.promotionalOffers, for: left), catalog.states(.promotionalOffers, for: right))
                (applicable, compared) = (subscriptions, PromotionalOfferRule().applies(to: left, right, in: comparison))
            case .group:
                states = (!(left.group?.groupID ?? "").isEmpty, !(right.group?.groupID ?? "").isEmpty)
                (applicable, compared) = (subscriptions || left.group != nil || right.group != nil, states.0 && states.1)
            case .level:
                states = (left.group?.level != nil, right.group?.level != nil)
                (applicable, compared) = (subscriptions || left.group != nil || right.group != nil, states.0 && states.1)
            case .billingPlans:
                states = (configuration.states(.billingPlans, for: left), catalog.states(.billingPlans, for: right))
                (applicable, compared) = (subscriptions, BillingPlanRule().applies(to: left, right, in: comparison))
            case .seatTiers:
                states = (!left.seatTiers.isEmpty, !right.seatTiers.isEmpty)
                (applicable, compared) = (subscriptions, SeatTierRule().applies(to: left, right, in: comparison))
            case .winbackOffers:
                states = (configuration.states(.winbackOffers, for: left), catalog.states(.winbackOffers, for: right))
                (applicable, compared) = (subscriptions, WinbackOfferRule().applies(to: left, right, in: comparison))
            case .multiSeat:
                states = (left.multiSeatStatus != nil || left.marketSettings != nil, right.multiSeatStatus != nil || right.marketSettings != nil)
                (applicable, compared) = (subscriptions, MultiSeatRule().applies(to: left, right, in: comparison))
            default:
                (applicable, states, compared) = (false, (false, false), false)
            }
            guard applicable else { continue }
            result.applicable += 1
            if compared {
                result.compared += 1
            } else {
                if !states.0 { result.unstatedInConfiguration += 1 }
                if !states.1 { result.unstatedInCatalog += 1 }
            }
        }
        return result
    }

    /// "the property list", or "the property list Products.plist" when both sources are of one
    /// kind, by the name the run gives the file (`ios/Products.plist` beside another `Products.plist`).
    private static func noun(_ source: Catalog, beside other: Catalog, named name: String) -> String {
        let noun = source.format.sourceNoun
        guard noun == other.format.sourceNoun else { return noun }
        return "\(noun) \(name)"
    }
}

extension Field {
    /// Whether the field belongs to auto-renewable subscriptions only (so coverage counts subscriptions).
    public var isSubscriptionField: Bool {
        [.period, .introductoryOffer, .promotionalOffers, .codeOffers, .group, .level, .billingPlans, .seatTiers, .multiSeat, .winbackOffers].contains(self)
    }
}

extension SourceFormat {
    /// The source in words, for "the property list has no prices".
    var sourceNoun: String {
        switch self {
        case .storeKit: return "the StoreKit configuration"
        case .tallyCatalogJSON, .tallyCatalogYAML: return "the tally-catalog/1 file"
        case .propertyList: return "the property list"
        case .appStorePackage: return "the App Store package"
        case .appStoreConnect: return "the App Store Connect export"
        case .appStoreConnectReport: return "the App Store Connect catalog report"
        case .csv: return "the CSV catalogue"
        case .mapped: return "the mapped server file"
        case .googlePlay: return "Google Play"
        case .unityIAP: return "the Unity IAP catalogue"
        case .storeConfig: return "the storeconfig export"
        case .revenueCat: return "the RevenueCat project"
        case .adapty: return "the Adapty fallback file"
        case .code: return "the app's code"
        case .qonversion: return "the Qonversion products list"
        }
    }
}
