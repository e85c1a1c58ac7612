import TallyModel

/// The mutable state of one `tally-catalog/1` decode.
///
/// Mistakes a reader can step over (an unknown key, a value of the wrong type, a missing `kind`)
/// are collected with `report` and the read goes on, so that one run shows every error of the
/// file (up to `FormatError.limit`); only a document that cannot be parsed stops it at once.
struct CatalogDecoder {
    let file: String
    var defaultTerritory: Territory = .usa
    var products: [Product] = []
    var groups: [SubscriptionGroup] = []
    var issues: [SourceIssue] = []
    /// The errors found so far.
    var log = FormatErrorLog()
    /// The fields a `known_fields` list declares; nil when the catalogue has none (it knows every field).
    var declaredFields: Set<Field>?
    /// Products written without a kind, checked once the whole file (and any `known_fields`) is read.
    private var kindless: [(id: String, position: Position, path: String)] = []
    /// Reused between products while reading prices.
    private var scratch: [Price] = []
    private var seenTerritories = TerritorySet()

    init(file: String) { self.file = file }

    mutating func report(_ error: FormatError) throws {
        try log.report(error)
    }

    /// Reads one scalar with `read`. A value of the wrong type (which the reader leaves unread)
    /// is reported and skipped, giving nil; an error after part of the value was read (the
    /// document cannot be parsed) ends the read.
    mutating func attempt<R: DocumentReader, T>(_ reader: inout R, _ read: (inout R) throws -> T) throws -> T? {
        let before = reader.position
        do {
            return try read(&reader)
        } catch let error as FormatError where reader.position == before {
            try report(error)
            try reader.skipValue()
            return nil
        }
    }

    /// Whether the next value is of `kind`; if not, the value is reported and skipped.
    mutating func expect<R: DocumentReader>(_ kind: ValueKind, _ reader: inout R) throws -> Bool {
        let found = try reader.peekKind()
        guard found != kind else { return true }
        try report(reader.error("expected \(kind.article), found \(found.article)"))
        try reader.skipValue()
        return false
    }

    /// Reports a repeated key (and skips its value); true when the key is new.
    mutating func firstTime<R: DocumentReader>(_ key: String, in keys: inout KeySet, _ reader: inout R) throws -> Bool {
        try log.firstTime(key, in: &keys, &reader)
    }

    /// Reports an unknown key and skips its value.
    mutating func unknown<R: DocumentReader>(_ key: String, in place: String, allowed: [String], _ reader: inout R, suffix: String = "") throws {
        var error = TallyCatalogReader.unknownKey(key, in: place, allowed: allowed, reader: reader)
        error.message += suffix
        try report(error)
        try reader.skipValue()
    }

    /// The catalogue read; consumes the decoder so that products are updated in place.
    consuming func catalog(format: SourceFormat) -> Catalog {
        // Offer prices are in the default territory, known only once the whole file is read.
        let currency = defaultTerritory.currency
        let territory = defaultTerritory
        func place(_ offer: Offer) -> Offer {
            var offer = offer
            offer.territory = territory
            offer.price = offer.price.map { Money(amount: $0.amount, currency: currency) }
            return offer
        }
        var located = products
        products = []
        for index in located.indices where located[index].introductoryOffer != nil || !located[index].promotionalOffers.isEmpty
            || !located[index].winbackOffers.isEmpty
            || !located[index].billingPlans.isEmpty {
            located[index].introductoryOffer = located[index].introductoryOffer.map(place)
            located[index].promotionalOffers = located[index].promotionalOffers.map(place)
            located[index].winbackOffers = located[index].winbackOffers.map(place)
            located[index].otherIntroductoryOffers = located[index].otherIntroductoryOffers.map(place)
            for plan in located[index].billingPlans.indices {
                located[index].billingPlans[plan].commitmentPrice = located[index].billingPlans[plan].commitmentPrice.map { Money(amount: $0.amount, currency: currency) }
                located[index].billingPlans[plan].price = located[index].billingPlans[plan].price(in: territory)
            }
        }
        var known = Set(Field.allCases)
        if let declaredFields {
            known = declaredFields.union([.id])
        } else {
            // Billing plans, seat tiers and multi-seat status are known where the catalogue writes
            // some (or known_fields names them).
            if !located.contains(where: { !$0.billingPlans.isEmpty }) { known.remove(.billingPlans) }
            if !located.contains(where: { !$0.seatTiers.isEmpty }) { known.remove(.seatTiers) }
            if !located.contains(where: { $0.multiSeatStatus != nil || $0.marketSettings != nil }) { known.remove(.multiSeat) }
            if !located.contains(where: { $0.fieldPositions[.winbackOffers] != nil }) { known.remove(.winbackOffers) }
        }
        return Catalog(file: file, format: format, defaultTerritory: defaultTerritory, products: located,
                       groups: groups, knownFields: known, issues: issues)
    }

    /// Products without a kind are errors unless `known_fields` leaves `kind` out.
    mutating func checkKinds() throws {
        guard declaredFields?.contains(.kind) ?? true else { return }
        for product in kindless {
            try report(FormatError("product \(product.id) has no kind (consumable, non-consumable or non-renewing-subscription)",
                                   file: file, position: product.position, path: product.path))
        }
    }

    /// `known_fields: [id, kind, prices, ...]`: the fields this catalogue knows, by their keys.
    mutating func readKnownFields<R: DocumentReader>(_ reader: inout R) throws {
        guard try expect(.array, &reader) else { return }
        var fields: Set<Field> = [.id]
        try reader.forEachElement { reader, _ in
            let at = reader.position
            guard let name = try attempt(&reader, { try $0.readString() }) else { return }
            guard let field = Self.fieldKeys[name] else {
                var message = "unknown field \"\(name)\" in known_fields"
                let allowed = Self.fieldKeyOrder
                if let near = NearMatch.best(for: name, among: allowed) { message += "; did you mean \"\(near)\"?" }
                try report(reader.error(message + " (allowed: \(allowed.joined(separator: ", ")))", at: at))
                return
            }
            fields.insert(field)
        }
        declaredFields = fields
    }

    mutating func readTerritory<R: DocumentReader>(_ reader: inout R) throws -> Territory? {
        let at = reader.position
        guard let code = try attempt(&reader, { try $0.readString() }) else { return nil }
        guard let territory = Territory(code) else {
            try report(reader.error(Territory.notAStorefront(code), at: at))
            return nil
        }
        return territory
    }

    static let topKeys = ["format", "default_territory", "known_fields", "products", "subscription_groups"]
    /// A product's keys; its ID in each store other than the App Store's follows `localizations`
    /// (`Store.catalogueKeys`: `google_play`).
    static let productKeys = ["id", "kind", "name", "family_shareable", "prices", "localizations"] + Store.catalogueKeys
    static let subscriptionKeys = ["id", "kind", "name", "level", "period", "prices", "family_shareable",
                                   "introductory_offer", "promotional_offers", "winback_offers", "localizations"] + Store.catalogueKeys
        + ["billing_plans", "members", "seat_tiers", "multi_seat", "market_settings"]
    /// What a subscription's `kind` may say: a plain auto-renewable subscription (the default), or
    /// a subscription suite or bundle (StoreKit 6.3) that includes its `members`.
    static let subscriptionKinds: [String: ProductKind] = [
        "auto-renewable-subscription": .autoRenewableSubscription, "subscription-suite": .subscriptionSuite,
        "subscription-bundle": .subscriptionBundle,
    ]
    /// A seat tier's keys: `{min_seats: 1, max_seats: 5, prices: {USA: "9.99"}, plan: MONTHLY}`.
    static let seatTierKeys = ["min_seats", "max_seats", "prices", "plan"]
    static let planKeys = ["type", "prices", "commitment", "commitment_price", "enabled", "introductory_offers"]
    static let groupKeys = ["id", "name", "localizations", "subscriptions"]
    static let offerKeys = ["id", "type", "period", "count", "price", "plan"]
    /// An introductory offer's keys: it has no id, and its plan is the billing plan it is written under.
    static let introductoryOfferKeys = offerKeys.filter { $0 != "id" && $0 != "plan" }
    static let localizationKeys = ["name", "description"]
    static let kinds: [String: ProductKind] = [
        "consumable": .consumable, "non-consumable": .nonConsumable, "non-renewing-subscription": .nonRenewingSubscription,
    ]
    /// The words of `known_fields`, in documentation order: each names a catalogue key.
    static let fieldKeyOrder = ["id", "kind", "name", "family_shareable", "localizations", "prices", "period",
                                "introductory_offer", "promotional_offers", "subscription_groups", "level", "billing_plans",
                                "seat_tiers", "multi_seat", "winback_offers"]
    static let fieldKeys: [String: Field] = [
        "id": .id, "kind": .kind, "name": .referenceName, "family_shareable": .familyShareable, "localizations": .localizations,
        "prices": .prices, "period": .period, "introductory_offer": .introductoryOffer, "promotional_offers": .promotionalOffers,
        "subscription_groups": .group, "level": .level, "billing_plans": .billingPlans,
        "seat_tiers": .seatTiers, "multi_seat": .multiSeat, "winback_offers": .winbackOffers,
    ]

    mutating func readGroup<R: DocumentReader>(_ reader: inout R) throws {
        let start = reader.position
        guard try expect(.object, &reader) else { return }
        var keys = KeySet()
        var id: String?
        var name: String?
        var members: [String] = []
        var localizations: [Localization] = []
        var idFailed = false
        let firstMember = products.count
        try reader.forEachKey { reader, key in
            guard try firstTime(key, in: &keys, &reader) else { return }
            switch key {
            case "id":
                id = try attempt(&reader) { try $0.readString() }
                idFailed = id == nil
            case "name": name = try attempt(&reader) { try $0.readOptionalString() } ?? nil
            // The group's display names by locale (App Store Connect's subscription group localizations).
            case "localizations":
                guard try expect(.object, &reader) else { return }
                localizations = try readLocalizations(&reader)
            case "subscriptions":
                guard try expect(.array, &reader) else { return }
                try reader.forEachElement { reader, index in
                    let before = products.count
                    try readProduct(&reader, group: (id: id ?? "", position: index + 1))
                    if products.count > before { members.append(products[products.count - 1].id) }
                }
            default:
                try unknown(key, in: "a subscription group", allowed: Self.groupKeys, &reader)
            }
        }
        guard let id, !id.isEmpty else {
            return idFailed ? () : try report(reader.error("a subscription group has no id", at: start))
        }
        // The id may come after the subscriptions in the file: attach it now.
        for index in firstMember..<products.count {
            products[index].group?.groupID = id
            products[index].group?.groupName = name
        }
        groups.append(SubscriptionGroup(id: id, name: name, productIDs: members, position: start, localizations: localizations))
    }

    /// Reads a product (group nil) or a subscription of a group (its ID and 1-based position).
    mutating func readProduct<R: DocumentReader>(_ reader: inout R, group: (id: String, position: Int)?) throws {
        let start = reader.position
        let path = reader.path
        guard try expect(.object, &reader) else { return }
        let isSubscription = group != nil
        var keys = KeySet()
        var product = Product(id: "", kind: isSubscription ? .autoRenewableSubscription : .nonConsumable, position: start)
        var kindSeen = isSubscription
        var idFailed = false
        var level: Int?
        let firstIssue = issues.count
        try reader.forEachKey { reader, key in
            guard try firstTime(key, in: &keys, &reader) else { return }
            let at = reader.position
            switch key {
            case "id":
                product.fieldPositions[.id] = at
                guard let id = try attempt(&reader, { try $0.readString() }) else { idFailed = true; return }
                product.id = id
            case "kind" where isSubscription:
                guard let text = try attempt(&reader, { try $0.readString() }) else { return }
                guard let kind = Self.subscriptionKinds[text] else {
                    return try report(reader.error("unknown kind \"\(text)\" for a subscription: expected auto-renewable-subscription (the default), subscription-suite or subscription-bundle", at: at))
                }
                product.fieldPositions[.kind] = at
                product.kind = kind
            case "members" where isSubscription:
                guard try expect(.array, &reader) else { return }
                // Gathered, then set once (an append per member copied them all: issue 47).
                var members = product.members
                try reader.forEachElement { reader, _ in
                    if let member = try attempt(&reader, { try $0.readString() }) { members.append(member) }
                }
                product.members = members
            case "kind" where !isSubscription:
                kindSeen = true
                guard let text = try attempt(&reader, { try $0.readString() }) else { return }
                guard let kind = Self.kinds[text] else {
                    let hint = text == "auto-renewable-subscription"
                        ? "auto-renewable subscriptions go under subscription_groups"
                        : "expected consumable, non-consumable or non-renewing-subscription"
                    return try report(reader.error("unknown kind \"\(text)\": \(hint)", at: at))
                }
                product.fieldPositions[.kind] = at
                product.kind = kind
            case "name":
                product.fieldPositions[.referenceName] = at
                product.referenceName = try attempt(&reader) { try $0.readOptionalString() } ?? nil
            case "family_shareable":
                product.fieldPositions[.familyShareable] = at
                product.familyShareable = try attempt(&reader) { try $0.readBool() }
            case "prices":
                product.fieldPositions[.prices] = at
                guard try expect(.object, &reader) else { return }
                product.prices = try readPrices(&reader, productID: product.id)
            case "localizations":
                guard try expect(.object, &reader) else { return }
                product.localizations = try readLocalizations(&reader)
            case let key where Store.named(catalogueKey: key) != nil:
                // The product's ID in another store (`google_play`: PRODUCT_ID:BASE_PLAN_ID for a
                // base plan, the product ID otherwise); null: not sold there (an empty identity).
                guard let store = Store.named(catalogueKey: key) else { return }
                if try reader.readNullIfPresent() {
                    product.storeIDs[store] = ""
                    return
                }
                guard let text = try attempt(&reader, { try $0.readString() }) else { return }
                guard !text.isEmpty, !text.contains(where: \.isWhitespace) else {
                    let shapes = store.basePlanSeparator.map { " (\"coins_100\") or PRODUCT_ID\($0)BASE_PLAN_ID (\"premium\($0)yearly\")" } ?? ""
                    return try report(reader.error("\(key) must be a \(store.name) product ID\(shapes)", at: at))
                }
                product.storeIDs[store] = text
            case "level" where isSubscription:
                product.fieldPositions[.level] = at
                level = try readWhole(&reader)
            case "period" where isSubscription:
                product.fieldPositions[.period] = at
                guard let text = try attempt(&reader, { try $0.readString() }) else { return }
                if let period = Period(iso8601: text) {
                    product.period = period
                } else {
                    issues.append(SourceIssue(rule: .invalidPeriod, productID: product.id, field: .period,
                                              message: "period \"\(text)\" is not an ISO 8601 period like P1M", position: at))
                }
            case "introductory_offer" where isSubscription:
                product.fieldPositions[.introductoryOffer] = at
                if try !reader.readNullIfPresent() {
                    product.introductoryOffer = try readOffer(&reader, productID: product.id, promotional: false)
                }
            case "promotional_offers" where isSubscription:
                product.fieldPositions[.promotionalOffers] = at
                guard try expect(.array, &reader) else { return }
                try reader.forEachElement { reader, _ in
                    if let offer = try readOffer(&reader, productID: product.id, promotional: true) {
                        product.promotionalOffers.append(offer)
                    }
                }
            case "winback_offers" where isSubscription:
                // Win-back offers (issue 50): App Store Connect's and a StoreKit 4.0 file's, by offer ID.
                product.fieldPositions[.winbackOffers] = at
                guard try expect(.array, &reader) else { return }
                try reader.forEachElement { reader, _ in
                    if let offer = try readOffer(&reader, productID: product.id, promotional: true) {
                        product.winbackOffers.append(offer)
                    }
                }
            case "billing_plans" where isSubscription:
                product.fieldPositions[.billingPlans] = at
                guard try expect(.array, &reader) else { return }
                try reader.forEachElement { reader, _ in
                    guard let (plan, offers) = try readBillingPlan(&reader, productID: product.id) else { return }
                    product.billingPlans.append(plan)
                    product.otherIntroductoryOffers += offers
                }
            case "seat_tiers" where isSubscription:
                product.fieldPositions[.seatTiers] = at
                guard try expect(.array, &reader) else { return }
                var tiers: [SeatTier] = []
                try reader.forEachElement { reader, _ in
                    if let tier = try readSeatTier(&reader, productID: product.id) { tiers.append(tier) }
                }
                try checkSeatTiers(tiers, at: at, path: reader.path)
                product.seatTiers = tiers
            case "multi_seat" where isSubscription:
                // `true`/`false`, or App Store Connect's word (`ENABLED`, `DISABLED`).
                product.fieldPositions[.multiSeat] = at
                if try reader.peekKind() == .bool {
                    guard let enabled = try attempt(&reader, { try $0.readBool() }) else { return }
                    product.multiSeatStatus = enabled ? .enabled : .disabled
                    return
                }
                guard let text = try attempt(&reader, { try $0.readString() }) else { return }
                guard let status = MultiSeatStatus(sourceText: text) else {
                    return try report(reader.error("multi_seat \"\(text)\" is not true, false, ENABLED or DISABLED", at: at))
                }
                product.multiSeatStatus = status
            case "market_settings" where isSubscription:
                if product.fieldPositions[.multiSeat] == nil { product.fieldPositions[.multiSeat] = at }
                guard try expect(.array, &reader) else { return }
                var markets: [SeatMarket] = []
                try reader.forEachElement { reader, _ in
                    let element = reader.position
                    guard let text = try attempt(&reader, { try $0.readString() }) else { return }
                    guard let market = SeatMarket(rawValue: text) else {
                        return try report(reader.error("unknown market \"\(text)\" in market_settings (allowed: \(SeatMarket.allCases.map(\.rawValue).joined(separator: ", ")))", at: element))
                    }
                    markets.append(market)
                }
                product.marketSettings = markets
            default:
                let allowed = isSubscription ? Self.subscriptionKeys : Self.productKeys
                try unknown(key, in: isSubscription ? "a subscription" : "a product", allowed: allowed, &reader)
            }
        }
        // A product sold in one other store only (Google Play) names its identity there and no App Store ID.
        if product.id.isEmpty, !idFailed, let (store, id) = Store.allCases.lazy.compactMap({ store in
            product.storeIDs[store].flatMap { $0.isEmpty ? nil : (store, $0) } }).first {
            product.id = id
            product.soleStore = store
        }
        guard !product.id.isEmpty else {
            // An id of the wrong type is reported already.
            return idFailed ? () : try report(reader.error("a product has no id (nor a google_play identity, for a product sold on Google Play only)", at: start))
        }
        if !kindSeen { kindless.append((product.id, start, path)) }
        // Issues recorded before the id was read carry an empty product ID: fill it in.
        for index in issues.indices.dropFirst(firstIssue) where issues[index].productID == "" { issues[index].productID = product.id }
        if let group {
            product.group = GroupMembership(groupID: group.id, level: level ?? group.position)
        }
        products.append(product)
    }

    /// A whole number; a number that is not whole is reported (nil).
    mutating func readWhole<R: DocumentReader>(_ reader: inout R) throws -> Int? {
        let at = reader.position
        guard let text = try attempt(&reader, { try $0.readNumberText() }) else { return nil }
        guard let value = Int(text) else {
            try report(reader.error("expected a whole number, found \(text)", at: at))
            return nil
        }
        return value
    }

    /// Reads `{TERRITORY: price, ...}`. The hot loop of large catalogues: no closures, no
    /// intermediate strings for prices, duplicates found by sorting once.
    mutating func readPrices<R: DocumentReader>(_ reader: inout R, productID: String) throws -> [Price] {
        scratch.removeAll(keepingCapacity: true)
        try reader.beginObject()
        while let key = try reader.nextTerritoryKey() {
            let at = reader.position
            guard case .territory(let territory) = key else {
                let text = if case .other(let text) = key { text } else { "" }
                try report(reader.error(Territory.notAStorefront(text)))
                try reader.skipValue()
                continue
            }
            let kind = try reader.peekKind()
            guard kind == .string || kind == .number else {
                try report(reader.error("expected a price as a string or number, found \(kind.article)"))
                try reader.skipValue()
                continue
            }
            switch try reader.readDecimal() {
            case .value(let amount):
                scratch.append(Price(territory: territory, money: Money(amount: amount, in: territory), position: at))
            case .invalid(let text):
                issues.append(SourceIssue(rule: .invalidPrice, productID: productID, field: .prices,
                                          message: "price \"\(text)\" in \(territory) \(DecimalText.rejection(text))", position: at))
            }
        }
        if let repeated = seenTerritories.firstRepeat(in: scratch) {
            try report(FormatError("\(repeated.territory) is priced twice", file: file, position: repeated.position, path: reader.path))
            var seen = Set<Territory>()
            scratch.removeAll { !seen.insert($0.territory).inserted }
        }
        // An exact-size copy: growth slack times 20,000 products adds up.
        return scratch.withUnsafeBufferPointer { Array($0) }
    }

    mutating func readLocalizations<R: DocumentReader>(_ reader: inout R) throws -> [Localization] {
        var result: [Localization] = []
        try reader.forEachKey { reader, locale in
            var localization = Localization(locale: locale)
            guard try expect(.object, &reader) else { return }
            var keys = KeySet()
            try reader.forEachKey { reader, key in
                guard try firstTime(key, in: &keys, &reader) else { return }
                switch key {
                case "name": localization.displayName = try attempt(&reader) { try $0.readOptionalString() } ?? nil
                case "description": localization.description = try attempt(&reader) { try $0.readOptionalString() } ?? nil
                default: try unknown(key, in: "a localization", allowed: Self.localizationKeys, &reader)
                }
            }
            result.append(localization)
        }
        return result
    }

    /// One entry of `seat_tiers`: `{min_seats: 6, max_seats: 10, prices: {USA: "7.99"}, plan: MONTHLY}`;
    /// `max_seats` left out (or null) for the last, open-ended tier; `plan` where the tier belongs to
    /// one billing plan.
    mutating func readSeatTier<R: DocumentReader>(_ reader: inout R, productID: String) throws -> SeatTier? {
        let start = reader.position
        guard try expect(.object, &reader) else { return nil }
        var keys = KeySet()
        var minimum: Int?
        var tier = SeatTier(minimumSeats: 0, position: start)
        try reader.forEachKey { reader, key in
            guard try firstTime(key, in: &keys, &reader) else { return }
            let at = reader.position
            switch key {
            case "min_seats": minimum = try readWhole(&reader)
            case "max_seats":
                if try reader.readNullIfPresent() { return }
                tier.maximumSeats = try readWhole(&reader)
            case "prices":
                guard try expect(.object, &reader) else { return }
                tier.prices = try readPrices(&reader, productID: productID)
            case "plan":
                guard let text = try attempt(&reader, { try $0.readString() }) else { return }
                guard let kind = BillingPlanKind(sourceText: text) else {
                    return try report(reader.error("unknown billing plan \"\(text)\" for a seat tier (expected UPFRONT or MONTHLY)", at: at))
                }
                tier.billingPlan = kind
            default:
                try unknown(key, in: "a seat tier", allowed: Self.seatTierKeys, &reader)
            }
        }
        guard let minimum else {
            if !keys.contains("min_seats") { try report(reader.error("a seat tier needs min_seats (the seat count it starts at)", at: start)) }
            return nil
        }
        tier.minimumSeats = minimum
        return tier
    }

    /// Reports tiers that are not contiguous and ascending (per billing plan), or more than five.
    mutating func checkSeatTiers(_ tiers: [SeatTier], at position: Position, path: String) throws {
        var plans: [BillingPlanKind?] = []
        for tier in tiers where !plans.contains(tier.billingPlan) { plans.append(tier.billingPlan) }
        for plan in plans {
            let ofPlan = tiers.filter { $0.billingPlan == plan }
            for problem in SeatTier.problems(in: ofPlan) {
                let tierPosition = ofPlan.indices.contains(problem.index) ? ofPlan[problem.index].position : position
                let suffix = plan.map { " (\($0))" } ?? ""
                try report(FormatError(problem.message + suffix, file: file, position: tierPosition, path: path))
            }
        }
    }

    /// One entry of `billing_plans`: `{type: UPFRONT|MONTHLY, prices, commitment, commitment_price,
    /// enabled, introductory_offers}`; the offers come back tagged with the plan.
    mutating func readBillingPlan<R: DocumentReader>(_ reader: inout R, productID: String) throws -> (BillingPlan, [Offer])? {
        let start = reader.position
        guard try expect(.object, &reader) else { return nil }
        var keys = KeySet()
        var plan = BillingPlan(type: "", position: start)
        var offers: [Offer] = []
        try reader.forEachKey { reader, key in
            guard try firstTime(key, in: &keys, &reader) else { return }
            let at = reader.position
            switch key {
            case "type":
                guard let text = try attempt(&reader, { try $0.readString() }) else { return }
                guard let kind = BillingPlanKind(sourceText: text) else {
                    return try report(reader.error("unknown billing plan type \"\(text)\" (expected UPFRONT or MONTHLY)", at: at))
                }
                plan.type = kind.rawValue
            case "prices":
                guard try expect(.object, &reader) else { return }
                plan.prices = try readPrices(&reader, productID: productID)
            case "commitment":
                guard let text = try attempt(&reader, { try $0.readString() }) else { return }
                guard let period = Period(iso8601: text) else {
                    return try report(reader.error("commitment \"\(text)\" is not an ISO 8601 period like P12M", at: at))
                }
                plan.commitment = period
            case "commitment_price":
                guard let text = try attempt(&reader, { try $0.readDecimalText() }) else { return }
                guard let amount = DecimalText.parse(text) else {
                    return issues.append(SourceIssue(rule: .invalidPrice, productID: productID, field: .billingPlans,
                                                     message: "commitment_price \"\(text)\" \(DecimalText.rejection(text))", position: at))
                }
                plan.commitmentPrice = Money(amount: amount, currency: nil)
            case "enabled":
                plan.isEnabled = try attempt(&reader) { try $0.readBool() }
            case "introductory_offers":
                guard try expect(.array, &reader) else { return }
                try reader.forEachElement { reader, _ in
                    if let offer = try readOffer(&reader, productID: productID, promotional: false) { offers.append(offer) }
                }
            default:
                try unknown(key, in: "a billing plan", allowed: Self.planKeys, &reader)
            }
        }
        guard let kind = plan.kind else {
            if !keys.contains("type") { try report(reader.error("a billing plan needs a type (UPFRONT or MONTHLY)", at: start)) }
            return nil
        }
        return (plan, offers.map { offer in
            var offer = offer
            offer.billingPlanType = kind.rawValue
            return offer
        })
    }

    mutating func readOffer<R: DocumentReader>(_ reader: inout R, productID: String, promotional: Bool) throws -> Offer? {
        let start = reader.position
        guard try expect(.object, &reader) else { return nil }
        var keys = KeySet()
        var id: String?
        var mode: OfferMode?
        var period: Period?
        var count = 1
        var price: Money?
        var valid = true
        var typeFailed = false
        var positions = OfferPositions()
        var plan: BillingPlanKind?
        try reader.forEachKey { reader, key in
            guard try firstTime(key, in: &keys, &reader) else { return }
            let at = reader.position
            switch key {
            case "type": positions.mode = at
            case "period": positions.period = at
            case "count": positions.periods = at
            case "price": positions.price = at
            default: break
            }
            switch key {
            case "id" where promotional: id = try attempt(&reader) { try $0.readString() }
            case "type":
                guard let text = try attempt(&reader, { try $0.readString() }) else { typeFailed = true; return }
                guard let value = OfferMode(rawValue: text) else {
                    typeFailed = true
                    return try report(reader.error("unknown offer type \"\(text)\" (expected free-trial, pay-as-you-go or pay-up-front)", at: at))
                }
                mode = value
            case "period":
                guard let text = try attempt(&reader, { try $0.readString() }) else { valid = false; return }
                period = Period(iso8601: text)
                if period == nil {
                    valid = false
                    issues.append(SourceIssue(rule: .invalidPeriod, productID: productID, field: .introductoryOffer,
                                              message: "offer period \"\(text)\" is not an ISO 8601 period like P1W", position: at))
                }
            case "plan" where promotional:
                guard let text = try attempt(&reader, { try $0.readString() }) else { return }
                guard let kind = BillingPlanKind(sourceText: text) else {
                    return try report(reader.error("unknown billing plan \"\(text)\" (expected UPFRONT or MONTHLY)", at: at))
                }
                plan = kind
            case "count":
                count = try readWhole(&reader) ?? count
            case "price":
                guard let text = try attempt(&reader, { try $0.readDecimalText() }) else { valid = false; return }
                if let amount = DecimalText.parse(text) {
                    price = Money(amount: amount, currency: nil)
                } else {
                    valid = false
                    issues.append(SourceIssue(rule: .invalidPrice, productID: productID, field: .introductoryOffer,
                                              message: "offer price \"\(text)\" \(DecimalText.rejection(text))", position: at))
                }
            default:
                let allowed = promotional ? Self.offerKeys : Self.introductoryOfferKeys
                try unknown(key, in: promotional ? "a promotional offer" : "an introductory offer", allowed: allowed, &reader)
            }
        }
        guard let mode else {
            if !typeFailed { try report(reader.error("the offer has no type (free-trial, pay-as-you-go or pay-up-front)", at: start)) }
            return nil
        }
        guard valid else { return nil }
        guard let period else {
            try report(reader.error("the offer has no period (an ISO 8601 period like P1W)", at: start))
            return nil
        }
        if promotional, id == nil {
            try report(reader.error("a promotional offer needs an id", at: start))
            return nil
        }
        var offer = Offer(id: id, mode: mode, period: period, periods: count, price: price, position: start, termPositions: positions)
        offer.billingPlanType = plan?.rawValue
        return offer
    }
}
