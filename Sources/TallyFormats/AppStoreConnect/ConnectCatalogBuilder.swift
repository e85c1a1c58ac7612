import TallyModel

/// Joins the resources of an App Store Connect export into products: in-app purchases (v2 and
/// legacy v1) and subscriptions, their groups, the prices in force today (price → price point
/// → `customerPrice`, in the territory's `currency`), introductory and promotional offers.
struct ConnectCatalogBuilder {
    let store: ResourceStore
    let file: String
    let parts: [SourcePart]
    let options: ReadOptions
    private var products: [Product] = []
    var issues: [SourceIssue] = []
    /// Products left out by state, by state.
    private var hidden: [String: Int] = [:]
    /// Products left out by state that wait on the team or are on their way to sale (`StoreStates.heldWhenLeftOut`).
    private var held: [Product] = []
    private var members: [ResourceKey: [String]] = [:]

    init(store: ResourceStore, file: String, parts: [SourcePart], options: ReadOptions) {
        self.store = store
        self.file = file
        self.parts = parts
        self.options = options
    }

    mutating func build() throws -> Catalog {
        let subscriptionIDs = Set(store.all("subscriptions").compactMap { $0[attribute: "productId"]?.string })
        var account = KeyAccount()
        for key in store.order {
            guard let resource = store[key] else { continue }
            // A resource type Tally does not know may be products it does not read: named, with how many there are.
            if !ConnectPageVocabulary.types.knows(key.type) { account.note(key.type, in: ConnectPageVocabulary.types, entries: 1, at: resource.position) }
            guard !resource.attributes.isEmpty else { continue }
            switch key.type {
            case "inAppPurchases":
                account.check(resource, ConnectPageVocabulary.purchaseAttributes)
                try addPurchase(resource, subscriptionIDs: subscriptionIDs)
            case "subscriptions":
                account.check(resource, ConnectPageVocabulary.subscriptionAttributes)
                try addSubscription(resource)
            default: continue
            }
        }
        issues += store.issues + account.issues
        if products.isEmpty { try refuseUnownedPrices() }
        let groups = store.all("subscriptionGroups").compactMap { group -> SubscriptionGroup? in
            let ids = members[group.key] ?? []
            guard !ids.isEmpty || !group.attributes.isEmpty else { return nil }
            return SubscriptionGroup(id: group.key.id, name: group[attribute: "referenceName"]?.string, productIDs: ids, position: group.position,
                                     localizations: localizations(of: group, older: ("subscriptionGroupLocalizations", "subscriptionGroup"),
                                                                  versions: ("subscriptionGroupVersions", "subscriptionGroup")))
        }
        var catalog = Catalog(file: file, format: .appStoreConnect, defaultTerritory: .usa, products: products, groups: groups,
                              knownFields: knownFields(), issues: issues)
        catalog.parts = parts
        catalog.hiddenByState = hidden
        catalog.heldByState = held
        return catalog
    }

    /// What the export tells: prices and offers only when their pages are in it.
    private func knownFields() -> Set<Field> {
        var known: Set<Field> = [.id, .kind, .referenceName, .localizations]
        if products.contains(where: { $0.familyShareable != nil }) { known.insert(.familyShareable) }
        let subscriptions = store.all("subscriptions")
        if store.contains(type: "subscriptionPrices") || store.contains(type: "inAppPurchasePrices")
            || subscriptions.contains(where: { $0.relationships["prices"] != nil }) {
            known.insert(.prices)
        }
        if !subscriptions.isEmpty { known.formUnion([.period, .group, .level]) }
        // Plans (API 4.4) where the export tells them: plan availabilities, or prices that name their plan.
        if store.contains(type: "subscriptionPlanAvailabilities")
            || store.all("subscriptionPrices").contains(where: { $0[attribute: "planType"] != nil }) {
            known.insert(.billingPlans)
        }
        // Multi-seat subscriptions (API 4.5, 4.6.1) where the export tells them: the subscription's
        // multiSeatStatus or marketSettings, prices that state their seats.
        if subscriptions.contains(where: { $0[attribute: "multiSeatStatus"] != nil || $0[attribute: "marketSettings"] != nil }) {
            known.insert(.multiSeat)
        }
        if store.all("subscriptionPrices").contains(where: { $0[attribute: "minimumSeats"] != nil }) {
            known.insert(.seatTiers)
        }
        if store.contains(type: "subscriptionIntroductoryOffers") || subscriptions.contains(where: { $0.relationships["introductoryOffers"] != nil }) {
            known.insert(.introductoryOffer)
        }
        if store.contains(type: "subscriptionPromotionalOffers") || subscriptions.contains(where: { $0.relationships["promotionalOffers"] != nil }) {
            known.insert(.promotionalOffers)
        }
        // Win-back offers (API 3.6) where the export has them: their pages, or subscriptions that link them.
        if store.contains(type: "winBackOffers") || subscriptions.contains(where: { $0.relationships["winBackOffers"] != nil }) {
            known.insert(.winbackOffers)
        }
        return known
    }

    // MARK: - Products

    private mutating func addPurchase(_ resource: Resource, subscriptionIDs: Set<String>) throws {
        let (id, idAttribute) = try productID(resource)
        guard let type = resource[attribute: "inAppPurchaseType"], let typeText = type.string else {
            throw failure("in-app purchase \(id) has no inAppPurchaseType", at: resource.position)
        }
        guard let kind = ConnectVocabulary.kinds[typeText] else {
            throw failure("in-app purchase \(id) has an unknown inAppPurchaseType \"\(typeText)\" (expected \(ConnectVocabulary.describe(ConnectVocabulary.kinds.keys)))",
                          at: type.position)
        }
        // A legacy v1 auto-renewable purchase that the export also has as a subscription: the subscription tells more.
        if kind.isAutoRenewable, subscriptionIDs.contains(id) { return }
        try add(resource, id: id, kind: kind) { builder in
            var product = Product(id: id, kind: kind, position: resource.position)
            product.fieldPositions[.id] = idAttribute.position
            product.fieldPositions[.kind] = type.position
            builder.readCommon(resource, localizations: ("inAppPurchaseLocalizations", "inAppPurchaseV2"),
                               versions: ("inAppPurchaseVersions", "inAppPurchase"), into: &product)
            product.prices = try builder.purchasePrices(resource, id: id)
            product.availability = builder.availability(builder.store.related(resource, "inAppPurchaseAvailability", inverse: "inAppPurchase",
                                                                              type: "inAppPurchaseAvailabilities"))
            return product
        }
    }

    /// Builds a product with `make` and keeps it when its state counts; a product left out by
    /// state is counted in `hidden`, and kept in `held` when it waits on the team or is on its way
    /// to sale (`StoreStates.heldWhenLeftOut`; built leniently: what cannot be read of it neither stops the file nor becomes an issue).
    private mutating func add(_ resource: Resource, id: String, kind: ProductKind, make: (inout ConnectCatalogBuilder) throws -> Product) throws {
        let state = resource[attribute: "state"]?.string
        let counts = ProductStates.counts(state, including: options.includeStates, hidden: &hidden)
        if counts {
            var product = try make(&self)
            product.storeState = state
            products.append(product)
            return
        }
        guard StoreStates.heldWhenLeftOut(state) else { return }
        let issueCount = issues.count, groups = members
        var product = (try? make(&self)) ?? Product(id: id, kind: kind, position: resource.position)
        issues.removeSubrange(issueCount...)
        members = groups
        product.storeState = state
        held.append(product)
    }

    private mutating func addSubscription(_ resource: Resource) throws {
        let (id, idAttribute) = try productID(resource)
        try add(resource, id: id, kind: .autoRenewableSubscription) { builder in try builder.makeSubscription(resource, id: id, idAttribute: idAttribute) }
    }

    private mutating func makeSubscription(_ resource: Resource, id: String, idAttribute: Attribute) throws -> Product {
        var product = Product(id: id, kind: .autoRenewableSubscription, position: resource.position)
        product.fieldPositions[.id] = idAttribute.position
        readCommon(resource, localizations: ("subscriptionLocalizations", "subscription"), versions: ("subscriptionVersions", "subscription"),
                   into: &product)
        if let period = resource[attribute: "subscriptionPeriod"], let text = period.string {
            product.fieldPositions[.period] = period.position
            if let value = ConnectVocabulary.period(text) {
                product.period = value
            } else {
                issues.append(SourceIssue(rule: .invalidPeriod, productID: id, field: .period,
                                          message: "subscriptionPeriod \"\(text)\" is not one of \(ConnectVocabulary.describe(ConnectVocabulary.periods.keys))",
                                          position: period.position))
            }
        }
        let level = resource[attribute: "groupLevel"]
        if let level, level.int != nil { product.fieldPositions[.level] = level.position }
        let group = store.related(resource, "group").first ?? store.owners(of: resource.key, type: "subscriptionGroups", via: "subscriptions").first
        product.group = GroupMembership(groupID: group?.key.id ?? "", groupName: group.flatMap { store[$0.key]?[attribute: "referenceName"]?.string },
                                        level: level?.int)
        if let group { members[group.key, default: []].append(id) }
        // API 4.4: a price of the monthly plan says planType MONTHLY; the rest are the up-front plan's.
        // A plan type Tally does not know is named, and its prices left out (never taken for the up-front plan's).
        let allPrices = store.related(resource, "prices").filter { knownPlan($0, productID: id, what: "its prices") }
        let isMonthly = { (price: Resource) in price[attribute: "planType"]?.string == BillingPlanKind.monthly.rawValue }
        // API 4.6.1 volume tiers: a price that states its seats (`minimumSeats`) is a tier's per-seat
        // price; the tier from 1 seat is also the subscription's price (see `seatTiers`).
        let ordinary = allPrices.filter { ($0[attribute: "minimumSeats"]?.int ?? 1) == 1 }
        product.prices = try currentPrices(ordinary.filter { !isMonthly($0) }.map { ($0, 0) }, owner: resource,
                                           point: "subscriptionPricePoint", productID: id).map(\.price)
        let monthly = try currentPrices(ordinary.filter(isMonthly).map { ($0, 0) }, owner: resource,
                                        point: "subscriptionPricePoint", productID: id).map(\.price)
        try readMultiSeat(resource, prices: allPrices, productID: id, into: &product)
        product.billingPlans = plans(resource, upfront: product.prices, monthly: monthly)
        let (introductory, planOffers) = try introductoryOffers(resource, productID: id)
        product.introductoryOffer = introductory
        product.otherIntroductoryOffers = planOffers
        if let offer = product.introductoryOffer { product.fieldPositions[.introductoryOffer] = offer.position }
        product.promotionalOffers = try promotionalOffers(resource, productID: id)
        if let offer = product.promotionalOffers.first { product.fieldPositions[.promotionalOffers] = offer.position }
        product.winbackOffers = try winBackOffers(resource, productID: id)
        if let offer = product.winbackOffers.first { product.fieldPositions[.winbackOffers] = offer.position }
        product.codeOffers = try offerCodes(resource, productID: id)
        if let offer = product.codeOffers.first { product.fieldPositions[.codeOffers] = offer.position }
        // Where it is sold: the subscription's availability, else (API 4.4) its up-front plan's.
        product.availability = availability(store.related(resource, "subscriptionAvailability", inverse: "subscription",
                                                          type: "subscriptionAvailabilities"))
            ?? availability(store.related(resource, "planAvailabilities", inverse: "subscription", type: "subscriptionPlanAvailabilities")
                .filter { $0[attribute: "planType"]?.string.map { $0 == "UPFRONT" } ?? true })
        return product
    }

    /// API 4.5's `multiSeatStatus` and `marketSettings` on the subscription, and its volume tiers.
    ///
    /// The documentation this was built from (App Store Connect API 4.6.1 release notes) says a
    /// price has up to four additional volume tiers and that the API reads a subscription's tiers,
    /// but gives no JSON shape for a tier. Read literally, a tier is a subscription price for a
    /// range of seats: a `subscriptionPrices` resource that states `minimumSeats` and
    /// `maximumSeats` (null or absent for the last tier; the names of StoreKit's `PriceTier`) and
    /// links its price point and territory like every price. Prices are grouped into tiers by seats
    /// and `planType`; each tier's price in force today per territory is its per-seat price.
    private mutating func readMultiSeat(_ resource: Resource, prices: [Resource], productID id: String, into product: inout Product) throws {
        if let status = resource[attribute: "multiSeatStatus"], let text = status.string {
            product.fieldPositions[.multiSeat] = status.position
            if let value = MultiSeatStatus(sourceText: text) {
                product.multiSeatStatus = value
            } else {
                issues.append(SourceIssue(rule: .unknownContent, productID: id, field: .multiSeat,
                                          message: "multiSeatStatus \"\(text)\" is not ENABLED or DISABLED", position: status.position))
            }
        }
        if let markets = resource[attribute: "marketSettings"], let texts = markets.strings {
            if product.fieldPositions[.multiSeat] == nil { product.fieldPositions[.multiSeat] = markets.position }
            var known: [SeatMarket] = []
            for text in texts {
                guard let market = SeatMarket(rawValue: text) else {
                    issues.append(SourceIssue(rule: .unknownContent, productID: id, field: .multiSeat,
                                              message: "marketSettings names \"\(text)\", not one of \(SeatMarket.allCases.map(\.rawValue).joined(separator: ", "))",
                                              position: markets.position))
                    continue
                }
                known.append(market)
            }
            product.marketSettings = known
        }
        var groups: [(key: String, tier: SeatTier, prices: [Resource])] = []
        for price in prices {
            guard let minimum = price[attribute: "minimumSeats"]?.int else { continue }
            let maximum = price[attribute: "maximumSeats"]?.int
            let plan = price[attribute: "planType"]?.string.flatMap(BillingPlanKind.init(sourceText:))
            let key = "\(minimum)-\(maximum.map(String.init) ?? "")-\(plan?.rawValue ?? "")"
            if let index = groups.firstIndex(where: { $0.key == key }) {
                groups[index].prices.append(price)
            } else {
                groups.append((key, SeatTier(minimumSeats: minimum, maximumSeats: maximum, billingPlan: plan, position: price.position), [price]))
            }
        }
        guard !groups.isEmpty else { return }
        var tiers: [SeatTier] = []
        for group in groups {
            var tier = group.tier
            tier.prices = try currentPrices(group.prices.map { ($0, 0) }, owner: resource, point: "subscriptionPricePoint", productID: id).map(\.price)
            if !tier.prices.isEmpty { tiers.append(tier) }
        }
        tiers.sort { ($0.billingPlan?.rawValue ?? "", $0.minimumSeats) < ($1.billingPlan?.rawValue ?? "", $1.minimumSeats) }
        var plans: [BillingPlanKind?] = []
        for tier in tiers where !plans.contains(tier.billingPlan) { plans.append(tier.billingPlan) }
        for plan in plans {
            let ofPlan = tiers.filter { $0.billingPlan == plan }
            for problem in SeatTier.problems(in: ofPlan) {
                issues.append(SourceIssue(rule: .invalidPrice, productID: id, field: .seatTiers, message: problem.message,
                                          position: ofPlan.indices.contains(problem.index) ? ofPlan[problem.index].position : resource.position))
            }
        }
        product.seatTiers = tiers
        if let first = tiers.first { product.fieldPositions[.seatTiers] = first.position }
    }

    /// An export of prices with no product they price (a `subscriptionPrices` or `manualPrices`
    /// page saved alone) gives no products: a located error that says so, never 0 products silently.
    private func refuseUnownedPrices() throws {
        let priceTypes = ["subscriptionPrices", "inAppPurchasePrices", "subscriptionPricePoints", "inAppPurchasePricePoints"]
        // Products the export has but hides by state are not this case: they are said elsewhere.
        guard !store.all("inAppPurchases").contains(where: { !$0.attributes.isEmpty }),
              !store.all("subscriptions").contains(where: { !$0.attributes.isEmpty }),
              let type = priceTypes.first(where: { store.contains(type: $0) }),
              let first = store.all(type).first(where: { $0.position.isKnown }) else { return }
        let count = store.all(type).count
        let points = store.all("subscriptionPricePoints") + store.all("inAppPurchasePricePoints")
        let tierOnly = points.filter { $0[attribute: "customerPrice"] == nil && $0[attribute: "priceTier"] != nil }.count
        var message = "this export holds \(count) \(type) but no inAppPurchases or subscriptions they price, so it has no products"
        if tierOnly > 0 {
            message += "; \(tierOnly) of its price points give only priceTier, no customerPrice"
        }
        message += ": save the product pages too (GET /v1/apps/{id}/inAppPurchasesV2, /v1/subscriptionGroups/{id}/subscriptions) in the same folder, "
            + "and price pages with include=\(type.hasPrefix("subscription") ? "subscriptionPricePoint" : "inAppPurchasePricePoint"),territory"
        throw failure(message, at: first.position)
    }

    private func productID(_ resource: Resource) throws -> (String, Attribute) {
        guard let attribute = resource[attribute: "productId"], let id = attribute.string, !id.isEmpty else {
            throw failure("\(resource.key) has attributes but no productId: export it with all its attributes (no fields[\(resource.key.type)] filter)",
                          at: resource.position)
        }
        return (id, attribute)
    }

    /// The reference name, family sharing and localizations, read alike for both kinds.
    private func readCommon(_ resource: Resource, localizations: (type: String, inverse: String), versions: (type: String, inverse: String),
                            into product: inout Product) {
        if let name = resource[attribute: "name"] ?? resource[attribute: "referenceName"], let text = name.string {
            product.referenceName = text
            product.fieldPositions[.referenceName] = name.position
        }
        if let family = resource[attribute: "familySharable"], let flag = family.bool {
            product.familyShareable = flag
            product.fieldPositions[.familyShareable] = family.position
        }
        product.localizations = self.localizations(of: resource, older: localizations, versions: versions)
    }

    // MARK: - Prices and offers

    /// An in-app purchase's prices: its price schedule's manual prices, then its automatic
    /// (equalised) ones. The schedule is the one the purchase links to, or the one with its ID.
    private mutating func purchasePrices(_ purchase: Resource, id: String) throws -> [Price] {
        var schedules = store.related(purchase, "iapPriceSchedule")
        let sameID = ResourceKey(type: "inAppPurchasePriceSchedules", id: purchase.key.id)
        if !schedules.contains(where: { $0.key == sameID }), let schedule = store[sameID] { schedules.append(schedule) }
        var candidates: [(Resource, Int)] = []
        for schedule in schedules {
            candidates += store.related(schedule, "manualPrices").map { ($0, 0) }
            candidates += store.related(schedule, "automaticPrices").map { ($0, 1) }
        }
        // Set by hand or derived: the price's own `manual` attribute, else the list it came from.
        let origins = Dictionary(candidates.map { ($0.0.key, $0.1 == 0 ? PriceOrigin.manual : .automatic) }, uniquingKeysWith: { first, _ in first })
        return try currentPrices(candidates, owner: purchase, point: "inAppPurchasePricePoint", productID: id).map { found in
            var price = found.price
            if let manual = found.resource[attribute: "manual"]?.bool {
                price.origin = manual ? .manual : .automatic
            } else {
                price.origin = origins[found.resource.key]
            }
            return price
        }
    }

    /// The price in force today in each territory: dated prices that span today, preserved
    /// prices (kept for existing subscribers) left out; a lower rank, then a later start, wins.
    private mutating func currentPrices(_ candidates: [(resource: Resource, rank: Int)], owner: Resource, point: String,
                                        productID: String) throws -> [(price: Price, resource: Resource)] {
        var best: [Territory: (rank: Int, start: String, price: Price, resource: Resource)] = [:]
        var order: [Territory] = []
        for (resource, rank) in candidates {
            guard resource.position.isKnown else {
                throw failure("the export has no \(resource.key), linked from \(owner.key) (\(productID)): save that page too", at: owner.position)
            }
            let start = try day(resource, "startDate")
            guard DayText.span(start: start, end: try day(resource, "endDate"), contains: options.today),
                  resource[attribute: "preserved"]?.bool != true,
                  let price = try price(of: resource, point: point, productID: productID) else { continue }
            if let current = best[price.territory] {
                guard rank < current.rank || (rank == current.rank && (start ?? "") > current.start) else { continue }
            } else {
                order.append(price.territory)
            }
            best[price.territory] = (rank, start ?? "", price, resource)
        }
        return order.compactMap { territory in best[territory].map { ($0.price, $0.resource) } }
    }

    /// A price (or offer) resource's amount: its price point's `customerPrice`, in its territory.
    private mutating func price(of resource: Resource, point relationship: String, productID: String) throws -> Price? {
        guard let pointKey = resource.relationships[relationship]?.first else {
            throw failure("\(resource.key) (\(productID)) does not link its \(relationship): save the page with include=\(relationship),territory",
                          at: resource.position)
        }
        if let point = store[pointKey], point[attribute: "customerPrice"] == nil, let tier = point[attribute: "priceTier"] {
            let tierText: String
            switch tier.value {
            case .string(let value), .number(let value): tierText = value
            default: tierText = "?"
            }
            issues.append(SourceIssue(rule: .invalidPrice, productID: productID, field: .prices,
                                      message: "\(pointKey) gives priceTier \(tierText) but no customerPrice, so \(resource.key) has no amount "
                                          + "(save the page with include=\(relationship),territory from today's API: its price points carry customerPrice)",
                                      position: tier.position))
            return nil
        }
        guard let point = store[pointKey], let customerPrice = point[attribute: "customerPrice"] else {
            throw failure("the export has no \(pointKey) with a customerPrice for \(resource.key) (\(productID)): save the page with include=\(relationship),territory",
                          at: resource.position)
        }
        guard let territoryKey = resource.relationships["territory"]?.first ?? point.relationships["territory"]?.first,
              let territory = Territory(territoryKey.id) else {
            throw failure("\(resource.key) (\(productID)) names no territory (an App Store storefront code like USA)", at: resource.position)
        }
        let text: String
        switch customerPrice.value {
        case .string(let value), .number(let value): text = value
        default: text = ""
        }
        guard let amount = DecimalText.parse(text) else {
            issues.append(SourceIssue(rule: .invalidPrice, productID: productID, field: .prices,
                                      message: "customerPrice \"\(text)\" in \(territory) \(DecimalText.rejection(text))", position: customerPrice.position))
            return nil
        }
        let currency = store[territoryKey]?[attribute: "currency"]?.string ?? territory.currency
        return Price(territory: territory, money: Money(amount: amount, currency: currency), position: customerPrice.position)
    }

    /// The introductory offers in force today: per plan, the one in the default territory (USA),
    /// else the first (App Store Connect keeps one offer resource per territory). The up-front
    /// plan's (or the only one's) is the introductory offer; when offers name their plan
    /// (`planType`, API 4.4), each plan's is also returned, tagged with it.
    private mutating func introductoryOffers(_ subscription: Resource, productID: String) throws -> (Offer?, [Offer]) {
        let type = "subscriptionIntroductoryOffers"
        var byPlan: [String: Offer] = [:]
        var plans: [String] = []
        for resource in store.related(subscription, "introductoryOffers", inverse: "subscription", type: type) {
            guard resource.position.isKnown else {
                throw failure("the export has no \(resource.key), linked from \(subscription.key) (\(productID)): save that page too",
                              at: subscription.position)
            }
            guard DayText.span(start: try day(resource, "startDate"), end: try day(resource, "endDate"), contains: options.today),
                  knownPlan(resource, productID: productID, what: "its terms") else { continue }
            guard let (mode, period) = modeAndPeriod(resource, "introductory offer", field: .introductoryOffer, productID: productID) else { continue }
            let territory = resource.relationships["territory"]?.first.flatMap { Territory($0.id) }
            var price: Money?
            if mode != .freeTrial { price = try self.price(of: resource, point: "subscriptionPricePoint", productID: productID)?.money }
            var offer = Offer(mode: mode, period: period, periods: resource[attribute: "numberOfPeriods"]?.int ?? 1, price: price,
                              territory: territory, position: resource.position)
            let plan = resource[attribute: "planType"]?.string ?? ""
            offer.billingPlanType = plan.isEmpty ? nil : plan
            if byPlan[plan] == nil { plans.append(plan) }
            if let chosen = byPlan[plan], !(territory == .usa && chosen.territory != .usa) { continue }
            byPlan[plan] = offer
        }
        let main = byPlan[""] ?? byPlan[BillingPlanKind.upfront.rawValue] ?? plans.first.flatMap { byPlan[$0] }
        let tagged = plans.filter { !$0.isEmpty }.compactMap { byPlan[$0] }
        return (main, tagged)
    }

    /// An offer's `offerMode` and `duration`; nil, with an issue naming the offer (`kind`), when
    /// either is not one the API writes.
    private mutating func modeAndPeriod(_ resource: Resource, _ kind: String, field: Field, productID: String) -> (OfferMode, Period)? {
        let modeText = resource[attribute: "offerMode"]?.string ?? ""
        let durationText = resource[attribute: "duration"]?.string ?? ""
        guard let mode = ConnectVocabulary.offerModes[modeText], let period = ConnectVocabulary.period(durationText) else {
            issues.append(SourceIssue(rule: .invalidOffer, productID: productID, field: field,
                                      message: "\(kind) \(resource.key.id) has offerMode \"\(modeText)\" and duration \"\(durationText)\"; expected "
                                          + "\(ConnectVocabulary.describe(ConnectVocabulary.offerModes.keys)) and one of \(ConnectVocabulary.describe(ConnectVocabulary.periods.keys))",
                                      position: resource.position))
            return nil
        }
        return (mode, period)
    }

    /// The promotional offers, each with its `offerCode` as the offer ID (what StoreKit calls the
    /// offer identifier) and its price in the default territory (USA), else its first.
    private mutating func promotionalOffers(_ subscription: Resource, productID: String) throws -> [Offer] {
        let type = "subscriptionPromotionalOffers"
        var offers: [Offer] = []
        for resource in store.related(subscription, "promotionalOffers", inverse: "subscription", type: type) {
            guard resource.position.isKnown else {
                throw failure("the export has no \(resource.key), linked from \(subscription.key) (\(productID)): save that page too",
                              at: subscription.position)
            }
            guard let (mode, period) = modeAndPeriod(resource, "promotional offer", field: .promotionalOffers, productID: productID) else { continue }
            var price: Price?
            if mode != .freeTrial {
                for candidate in store.related(resource, "prices") {
                    guard candidate.position.isKnown else {
                        throw failure("the export has no \(candidate.key), linked from \(resource.key) (\(productID)): save that page too",
                                      at: resource.position)
                    }
                    guard let found = try self.price(of: candidate, point: "subscriptionPricePoint", productID: productID) else { continue }
                    if price == nil || (found.territory == .usa && price?.territory != .usa) { price = found }
                }
            }
            let offerID = resource[attribute: "offerCode"]?.string ?? resource[attribute: "name"]?.string ?? resource.key.id
            offers.append(Offer(id: offerID, mode: mode, period: period, periods: resource[attribute: "numberOfPeriods"]?.int ?? 1,
                                price: price?.money, territory: price?.territory, position: resource.position))
        }
        return offers
    }

    /// The win-back offers (API 3.6) not yet ended on `ReadOptions.today`, each with its `offerId`
    /// (what StoreKit and a `.storekit` file's `winbackOffers` call the offer identifier), its
    /// `offerMode`, `duration` and `periodCount`, and its price in the default territory (USA),
    /// else its first, through `winBackOfferPrices` → `subscriptionPricePoints`. `priority`,
    /// `promotionIntent` and the eligibility attributes say who is offered it and how it is shown,
    /// not what it costs: not compared.
    private mutating func winBackOffers(_ subscription: Resource, productID: String) throws -> [Offer] {
        var offers: [Offer] = []
        for resource in store.related(subscription, "winBackOffers", inverse: "subscription", type: "winBackOffers") {
            guard resource.position.isKnown else {
                throw failure("the export has no \(resource.key), linked from \(subscription.key) (\(productID)): save that page too",
                              at: subscription.position)
            }
            if let end = try day(resource, "endDate"), end < options.today { continue }
            guard let (mode, period) = modeAndPeriod(resource, "win-back offer", field: .winbackOffers, productID: productID) else { continue }
            let price = mode == .freeTrial ? nil : try offerPrice(resource, productID: productID)
            let offerID = resource[attribute: "offerId"]?.string ?? resource[attribute: "referenceName"]?.string ?? resource.key.id
            offers.append(Offer(id: offerID, mode: mode, period: period, periods: resource[attribute: "periodCount"]?.int ?? 1,
                                price: price?.money, territory: price?.territory, position: resource.position))
        }
        return offers
    }

    /// The subscription offer codes still active (`active`), named by their `name` (App Store
    /// Connect gives an offer code no other identifier), with their `customerEligibilities` as
    /// StoreKit writes them (`new`, `existing`, `expired`) and their price through
    /// `subscriptionOfferCodePrices`. The codes themselves (one-time-use and custom) are not terms.
    private mutating func offerCodes(_ subscription: Resource, productID: String) throws -> [Offer] {
        var offers: [Offer] = []
        for resource in store.related(subscription, "offerCodes", inverse: "subscription", type: "subscriptionOfferCodes") {
            guard resource.position.isKnown else {
                throw failure("the export has no \(resource.key), linked from \(subscription.key) (\(productID)): save that page too",
                              at: subscription.position)
            }
            if resource[attribute: "active"]?.bool == false { continue }
            guard let (mode, period) = modeAndPeriod(resource, "offer code", field: .codeOffers, productID: productID) else { continue }
            let price = mode == .freeTrial ? nil : try offerPrice(resource, productID: productID)
            let eligibility = resource[attribute: "customerEligibilities"]?.strings?.map { $0.lowercased() } ?? []
            offers.append(Offer(id: resource[attribute: "name"]?.string ?? resource.key.id, mode: mode, period: period,
                                periods: resource[attribute: "numberOfPeriods"]?.int ?? 1, price: price?.money, territory: price?.territory,
                                eligibility: eligibility, position: resource.position))
        }
        return offers
    }

    /// An offer's price among its `prices`: the default territory's (USA), else the first.
    private mutating func offerPrice(_ offer: Resource, productID: String) throws -> Price? {
        var price: Price?
        for candidate in store.related(offer, "prices") {
            guard candidate.position.isKnown else {
                throw failure("the export has no \(candidate.key), linked from \(offer.key) (\(productID)): save that page too", at: offer.position)
            }
            guard let found = try self.price(of: candidate, point: "subscriptionPricePoint", productID: productID) else { continue }
            if price == nil || (found.territory == .usa && price?.territory != .usa) { price = found }
        }
        return price
    }

    // MARK: - Helpers

    /// A date attribute (`YYYY-MM-DD`), nil when absent or null.
    private func day(_ resource: Resource, _ name: String) throws -> String? {
        guard let attribute = resource[attribute: name], let text = attribute.string else { return nil }
        guard DayText.isValid(text) else { throw failure("\(name) \"\(text)\" is not a date like 2024-03-01", at: attribute.position) }
        return text
    }

    private func failure(_ message: String, at position: Position) -> FormatError {
        var locator = Catalog(file: file, format: .appStoreConnect)
        locator.parts = parts
        return FormatError(message, at: locator.location(position))
    }
}
