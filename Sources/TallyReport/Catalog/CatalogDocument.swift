import Foundation
import TallyModel

/// The stable JSON form of a normalised catalogue (`tally show --format json`), as values.
/// `tally show` writes the same bytes with `CatalogJSON`, which streams them product by product;
/// this type stays for callers that want the document as values, and as the reference
/// `CatalogJSONTests` holds the streaming writer to.
///
/// Schema, version 1 (documented in docs/show-json.md):
/// `{version, file, format, default_territory, products: [{id, kind, reference_name?,
/// family_shareable?, prices: {TERRITORY: "decimal"}, currencies: {TERRITORY: "ISO 4217"},
/// period?, group?, group_name?, level?, introductory_offer?: {mode, period, periods, price?, prices?, currencies?},
/// promotional_offers: [{id, mode, period, periods, price?}], price_tier?, line?, file?}], groups: [{id, name?, products}]}`.
/// Keys whose value is unknown are left out; prices are decimal strings, never floats.
public struct CatalogDocument: Codable, Sendable {
    public var version = 1
    public var file: String
    public var format: String
    public var defaultTerritory: String
    /// The fields this source knows (`id`, `kind`, `prices`, ...); the others are never compared.
    public var knownFields: [String]
    public var products: [ProductDocument]
    public var groups: [GroupDocument]
    /// A code source's requests: each product ID the app's code asks for, where, and through which call.
    public var code: CodeDocument?

    enum CodingKeys: String, CodingKey {
        case version, file, format, products, groups, code
        case defaultTerritory = "default_territory"
        case knownFields = "known_fields"
    }

    public struct ProductDocument: Codable, Sendable {
        public var id: String
        /// Left out when the source does not say (a property list of IDs).
        public var kind: String?
        public var referenceName: String?
        public var familyShareable: Bool?
        public var prices: [String: String]
        public var currencies: [String: String]
        /// Territory → `manual` (set by hand) or `automatic` (derived by the store), where the
        /// source says (App Store Connect's in-app purchase prices); left out otherwise.
        public var priceOrigins: [String: String]?
        /// The Google Play identity, where it differs from `id`.
        public var googlePlay: String?
        public var period: String?
        public var group: String?
        public var groupName: String?
        public var level: Int?
        public var introductoryOffer: OfferDocument?
        public var promotionalOffers: [OfferDocument]
        /// The App Store price tier, for sources that give tiers (App Store packages).
        public var priceTier: Int?
        public var line: Int?
        /// The file the product is in, for sources read from several files (App Store Connect exports).
        public var file: String?
        /// The store's state for the product (`APPROVED`, `MISSING_METADATA`, ...), where the source gives one.
        public var state: String? = nil
        /// The subscriptions a suite or bundle includes (StoreKit 6.3), by product ID; left out for other kinds.
        public var members: [String]? = nil
        /// The territories the store sells the product in, where the source says (a snapshot's availability).
        public var availability: [String]? = nil
        /// A subscription's billing plans (StoreKit 5.0, App Store Connect API 4.4), where it has any.
        public var billingPlans: [PlanDocument]? = nil
        /// Introductory offers beyond the first (one per billing plan), offer codes, win-back offers.
        public var otherIntroductoryOffers: [OfferDocument]? = nil
        public var codeOffers: [OfferDocument]? = nil
        public var winbackOffers: [OfferDocument]? = nil
        /// What customers see, by locale: `{name, description}`.
        public var localizations: [String: LocalizationDocument]? = nil
        /// True for a catalogue entry sold on Google Play only (its `id` is its Play identity).
        public var googlePlayOnly: Bool? = nil
        /// A multi-seat subscription's volume price tiers, its status and markets (API 4.5, 4.6.1).
        public var seatTiers: [SeatTierDocument]? = nil
        public var multiSeat: String? = nil
        public var marketSettings: [String]? = nil
        /// A Google Play one-time product's offers (discounted, pre-order, game reward).
        public var oneTimeOffers: [OneTimeOfferDocument]? = nil

        enum CodingKeys: String, CodingKey {
            case oneTimeOffers = "one_time_offers"
            case seatTiers = "seat_tiers"
            case multiSeat = "multi_seat"
            case marketSettings = "market_settings"
            case googlePlayOnly = "google_play_only"
            case members, availability, localizations
            case billingPlans = "billing_plans"
            case otherIntroductoryOffers = "other_introductory_offers"
            case codeOffers = "code_offers"
            case winbackOffers = "winback_offers"
            case id, kind, prices, currencies, period, group, level, line, file, state
            case priceTier = "price_tier"
            case priceOrigins = "price_origins"
            case googlePlay = "google_play"
            case referenceName = "reference_name"
            case familyShareable = "family_shareable"
            case groupName = "group_name"
            case introductoryOffer = "introductory_offer"
            case promotionalOffers = "promotional_offers"
        }
    }

    /// A billing plan: its type as the source writes it, prices (per month for a monthly plan).
    public struct PlanDocument: Codable, Sendable {
        public var type: String
        public var price: String?
        public var commitmentPrice: String?
        public var commitment: String?
        public var enabled: Bool?
        public var prices: [String: String]?

        enum CodingKeys: String, CodingKey {
            case type, price, commitment, enabled, prices
            case commitmentPrice = "commitment_price"
        }
    }

    /// One seat tier: its seat range (`max_seats` left out for the open-ended last tier), the
    /// billing plan where stated, and the price of one seat per territory.
    public struct SeatTierDocument: Codable, Sendable {
        public var minSeats: Int
        public var maxSeats: Int?
        public var plan: String?
        public var prices: [String: String]

        enum CodingKeys: String, CodingKey {
            case plan, prices
            case minSeats = "min_seats"
            case maxSeats = "max_seats"
        }
    }

    public struct LocalizationDocument: Codable, Sendable {
        public var name: String?
        public var description: String?
    }

    public struct OfferDocument: Codable, Sendable {
        public var id: String?
        public var mode: String
        public var period: String
        public var periods: Int
        public var price: String?
        /// The offer's price in each territory, where the source prices it region by region
        /// (Google Play), and each price's currency; left out otherwise.
        public var prices: [String: String]?
        public var currencies: [String: String]?
        /// Who may redeem an offer code (`new`, `existing`, `expired`), where the source says.
        public var eligibility: [String]? = nil
    }

    public struct GroupDocument: Codable, Sendable {
        public var id: String
        public var name: String?
        public var products: [String]
    }

    /// What a code source asks for (`tally show App/StoreManager.swift --format json`).
    public struct CodeDocument: Codable, Sendable {
        public var files: Int
        public var requests: [RequestDocument]
        /// Purchase calls whose IDs Tally cannot follow, each at its place.
        public var unresolved: [NoteDocument]
        /// Strings that look like product IDs and are not asked for (bundle IDs, keys), and why.
        public var rejected: [NoteDocument]

        public init(_ catalog: Catalog, _ code: CodeRequests) {
            files = code.files
            requests = code.requests.map { request in
                RequestDocument(id: request.id, api: request.api, at: catalog.location(request.position).description,
                                call: catalog.location(request.callPosition).description,
                                kind: request.kind?.rawValue ?? (request.oneTime ? "one-time" : nil), store: request.store?.rawValue)
            }
            unresolved = code.unresolved.map { NoteDocument(text: nil, message: $0.message, at: catalog.location($0.position).description) }
            rejected = code.rejected.map { NoteDocument(text: $0.text, message: $0.message, at: catalog.location($0.position).description) }
        }
    }

    public struct RequestDocument: Codable, Sendable {
        public var id: String
        public var api: String
        /// Where the ID's string literal stands (`file:line:column`).
        public var at: String
        /// The call that asks the store (`file:line:column`).
        public var call: String
        public var kind: String?
        public var store: String?
    }

    public struct NoteDocument: Codable, Sendable {
        public var text: String?
        public var message: String
        public var at: String
    }

    public init(_ catalog: Catalog) {
        code = catalog.code.map { CodeDocument(catalog, $0) }
        file = catalog.file
        format = catalog.format.rawValue
        defaultTerritory = catalog.defaultTerritory.code
        knownFields = Field.allCases.filter { catalog.knownFields.contains($0) }.map(\.rawValue)
        groups = catalog.groups.map { GroupDocument(id: $0.id, name: $0.name, products: $0.productIDs) }
        products = catalog.products.map { product in
            var prices: [String: String] = [:]
            var currencies: [String: String] = [:]
            var origins: [String: String] = [:]
            for price in product.prices {
                prices[price.territory.code] = Money.plain(price.money.amount)
                if let currency = price.money.currency { currencies[price.territory.code] = currency }
                if let origin = price.origin { origins[price.territory.code] = origin.rawValue }
            }
            return ProductDocument(
                id: product.id, kind: catalog.statedKind(of: product)?.rawValue, referenceName: product.referenceName,
                familyShareable: product.familyShareable, prices: prices, currencies: currencies,
                priceOrigins: origins.isEmpty ? nil : origins,
                googlePlay: product.storeIDs[.googlePlay].flatMap { $0 == product.id ? nil : $0 },
                period: product.period?.canonical, group: product.group?.groupID, groupName: product.group?.groupName,
                level: product.group?.level, introductoryOffer: product.introductoryOffer.map(Self.offer),
                promotionalOffers: product.promotionalOffers.map(Self.offer), priceTier: product.priceTier,
                line: catalog.location(product.position).line,
                file: catalog.parts.isEmpty ? nil : catalog.location(product.position).file, state: product.storeState,
                members: product.kind.includesSubscriptions ? product.members : nil,
                availability: product.availability.map { $0.territories.map(\.code) },
                billingPlans: product.billingPlans.isEmpty ? nil : product.billingPlans.map(Self.plan),
                otherIntroductoryOffers: product.otherIntroductoryOffers.isEmpty ? nil : product.otherIntroductoryOffers.map(Self.offer),
                codeOffers: product.codeOffers.isEmpty ? nil : product.codeOffers.map(Self.offer),
                winbackOffers: product.winbackOffers.isEmpty ? nil : product.winbackOffers.map(Self.offer),
                localizations: Self.localizations(product), googlePlayOnly: product.isSoldOnly(in: .googlePlay) ? true : nil,
                seatTiers: product.seatTiers.isEmpty ? nil : product.seatTiers.map(Self.seatTier),
                multiSeat: product.multiSeatStatus?.rawValue, marketSettings: product.marketSettings?.map(\.rawValue),
                oneTimeOffers: product.oneTimeOffers.isEmpty ? nil : product.oneTimeOffers.map(Self.oneTimeOffer))
        }
    }

    /// A Google Play one-time product offer: its ID, purchase option, kind, state, and each
    /// region's discount as Google states it (`"0.50 USD off"`, `"relative 0.2"`, `"no discount"`).
    public struct OneTimeOfferDocument: Codable, Sendable {
        public var id: String
        public var purchaseOption: String?
        public var type: String?
        public var state: String?
        public var discounts: [String: String]

        enum CodingKeys: String, CodingKey {
            case id, type, state, discounts
            case purchaseOption = "purchase_option"
        }
    }

    static func oneTimeOffer(_ offer: OneTimeOffer) -> OneTimeOfferDocument {
        var discounts: [String: String] = [:]
        for (territory, discount) in offer.discounts { discounts[territory.code] = discount.description }
        return OneTimeOfferDocument(id: offer.id, purchaseOption: offer.purchaseOptionID, type: offer.kind?.rawValue, state: offer.state,
                                    discounts: discounts)
    }

    static func plan(_ plan: BillingPlan) -> PlanDocument {
        var prices: [String: String] = [:]
        for price in plan.prices { prices[price.territory.code] = Money.plain(price.money.amount) }
        return PlanDocument(type: plan.type, price: plan.price.map { Money.plain($0.amount) },
                            commitmentPrice: plan.commitmentPrice.map { Money.plain($0.amount) }, commitment: plan.commitment?.canonical,
                            enabled: plan.isEnabled, prices: prices.isEmpty ? nil : prices)
    }

    static func seatTier(_ tier: SeatTier) -> SeatTierDocument {
        var prices: [String: String] = [:]
        for price in tier.prices { prices[price.territory.code] = Money.plain(price.money.amount) }
        return SeatTierDocument(minSeats: tier.minimumSeats, maxSeats: tier.maximumSeats, plan: tier.billingPlan?.rawValue, prices: prices)
    }

    static func localizations(_ product: Product) -> [String: LocalizationDocument]? {
        guard !product.localizations.isEmpty else { return nil }
        var result: [String: LocalizationDocument] = [:]
        for localization in product.localizations {
            result[localization.locale] = LocalizationDocument(name: localization.displayName, description: localization.description)
        }
        return result
    }

    static func offer(_ offer: Offer) -> OfferDocument {
        var document = OfferDocument(id: offer.id, mode: offer.mode.rawValue, period: offer.period.canonical, periods: offer.periods,
                                     price: offer.price.map { Money.plain($0.amount) })
        if !offer.regionalPrices.isEmpty {
            var prices: [String: String] = [:]
            var currencies: [String: String] = [:]
            for price in offer.regionalPrices {
                prices[price.territory.code] = Money.plain(price.money.amount)
                if let currency = price.money.currency { currencies[price.territory.code] = currency }
            }
            document.prices = prices
            document.currencies = currencies
        }
        if !offer.eligibility.isEmpty { document.eligibility = offer.eligibility }
        return document
    }

    /// Pretty-printed JSON with sorted keys.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// A table of a normalised catalogue, for people (`tally show`).
public enum CatalogTable {
    /// A code source: each ID with the call that asks for it and where its literal stands.
    static func render(_ catalog: Catalog, code: CodeRequests) -> String {
        var rows: [[String]] = [["ID", "KIND", "ASKED BY", "CALL", "LITERAL"]]
        for request in code.requests {
            let call = catalog.location(request.callPosition).description
            let literal = catalog.location(request.position).description
            rows.append([request.id, request.kind?.rawValue ?? (request.oneTime ? "one-time" : "?"), request.api, call, literal == call ? "" : literal])
        }
        rows = rows.map { $0.map { SafeText.line(Elision.value($0)) } }
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        var lines = rows.map { row in
            zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        lines.insert(widths.map { String(repeating: "─", count: $0) }.joined(separator: "  "), at: 1)
        lines.append("")
        let ids = Set(code.requests.map(\.id)).count
        lines.append("\(catalog.file): the app's code asks for \(FindingText.counted(ids, "product ID")) "
                     + "(\(FindingText.counted(code.requests.count, "request"))) in \(FindingText.counted(code.files, "file")), format code")
        for note in code.unresolved {
            lines.append("not followed: \(catalog.location(note.position)): \(Elision.value(note.message))")
        }
        if !code.rejected.isEmpty {
            lines.append("not product IDs (\(code.rejected.count)): " + code.rejected.prefix(10).map { "\(Elision.value($0.text, limit: 60)) (\($0.message))" }.joined(separator: ", ")
                         + (code.rejected.count > 10 ? " and \(code.rejected.count - 10) more" : ""))
        }
        return lines.joined(separator: "\n")
    }

    public static func render(_ catalog: Catalog) -> String {
        if let code = catalog.code { return render(catalog, code: code) }
        let territory = catalog.defaultTerritory
        var rows: [[String]] = [["ID", "KIND", "PRICE (\(territory))", "TERRITORIES", "PERIOD", "GROUP", "LEVEL", "INTRODUCTORY OFFER"]]
        let knowsPrices = catalog.knownFields.contains(.prices)
        // The store's states, where the source gives them (a snapshot, a catalog report).
        let showsStates = catalog.products.contains { $0.storeState != nil }
        if showsStates { rows[0].append("STATE") }
        // A second store's own IDs (a Unity catalogue's storeIDs, a catalogue's `google_play`):
        // shown, so that the IDs compared with a Play source are in sight (issue 50).
        let otherStores = Store.allCases.filter { store in catalog.products.contains { $0.storeIDs[store] != nil } }
        for store in otherStores { rows[0].append(store.name.uppercased() + " ID") }
        for product in catalog.products {
            var row: [String] = [
                product.id,
                catalog.statedKind(of: product)?.rawValue ?? "?",
                product.price(in: territory).map { $0.money.description } ?? product.priceTier.map { "tier \($0)" } ?? "—",
                knowsPrices ? String(product.prices.count) : "—",
                product.period?.canonical ?? "",
                product.group?.groupName ?? product.group?.groupID ?? "",
                product.group?.level.map(String.init) ?? "",
                product.introductoryOffer.map(PeopleText.offer) ?? "",
            ]
            if showsStates { row.append(product.storeState ?? "") }
            for store in otherStores { row.append(product.storeIDs[store].map { $0.isEmpty ? "not sold there" : $0 } ?? "") }
            rows.append(row)
        }
        // A 20 MB product ID must not make every row 20 MB wide.
        rows = rows.map { $0.map { SafeText.line(Elision.value($0)) } }
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        var lines = rows.map { row in
            zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        lines.insert(widths.map { String(repeating: "─", count: $0) }.joined(separator: "  "), at: 1)
        let kinds = Dictionary(grouping: catalog.products, by: { catalog.statedKind(of: $0)?.rawValue ?? "of unknown kind" })
        let counts = (ProductKind.allCases.map(\.rawValue) + ["of unknown kind"]).compactMap { kind in kinds[kind].map { "\($0.count) \(kind)" } }
        lines.append("")
        lines.append("\(catalog.file): \(FindingText.counted(catalog.products.count, "product")) (\(counts.joined(separator: ", "))), "
                     + "\(FindingText.counted(catalog.groups.count, "subscription group")), format \(catalog.format), territory \(territory)")
        // Left out by state, but waiting on the team or on their way to sale: named, so that they do not vanish.
        let waiting = catalog.heldByState.filter { StoreStates.needsAction($0.storeState) }
        let onTheWay = catalog.heldByState.filter { !StoreStates.needsAction($0.storeState) }
        let named = { (products: [Product]) in products.map { "\(Elision.value($0.id)) (\($0.storeState ?? "?"))" }.joined(separator: ", ") }
        if !waiting.isEmpty {
            lines.append("not for sale and waiting on the team (not counted; the store-state rule reports them): \(named(waiting))")
        }
        if !onTheWay.isEmpty {
            lines.append("not for sale yet, on the way (not counted; store-state reports them where another source has them or Tally sees a cause): \(named(onTheWay))")
        }
        if !catalog.knownFields.isSuperset(of: Field.knownByDefault) {
            let known = Field.allCases.filter { catalog.knownFields.contains($0) }.map(\.rawValue)
            lines.append("this source knows only: \(known.joined(separator: ", ")); other fields are not compared")
        }
        return lines.joined(separator: "\n")
    }
}

