import Foundation
import TallyModel

/// Reads one saved Google Play Developer API response (androidpublisher v3) into `PlayRecords`.
///
/// Pages are small, so each is read into a `DocNode` tree first (positions and literal number
/// text kept, repeated keys refused) and its shape decided from its keys, whatever their order:
/// `subscriptions[]`, `subscriptionOffers[]`, `oneTimeProducts[]`, `inappproduct[]` (list
/// responses, with `nextPageToken` or `tokenPagination`), or a single `Subscription`,
/// `SubscriptionOffer`, `OneTimeProduct` or `InAppProduct`. `{}` is an empty list page.
struct PlayPageParser {
    let file: String
    /// Added to a page line to give the catalogue line.
    let shift: Int
    var records: PlayRecords
    /// Keys of the page Tally neither reads nor skips on purpose.
    var account = KeyAccount()

    /// Keys that mark a Google Play page; `sniff` looks for them.
    static let markers = [
        "\"basePlans\"", "\"oneTimeProducts\"", "\"inappproduct\"", "\"subscriptionOffers\"", "\"purchaseOptions\"", "\"oneTimeProductOffers\"",
        "\"androidpublisher#", "\"phases\"",
    ]

    /// A single legacy `InAppProduct` (as gradle-play-publisher keeps one per file under
    /// `play/products/`): `sku` with one of the keys only an in-app product has beside it.
    static func looksLikeInAppProduct(_ head: String) -> Bool {
        head.contains("\"sku\"") && ["\"purchaseType\"", "\"defaultPrice\"", "\"defaultLanguage\""].contains { head.contains($0) }
    }

    static func parse(bytes: [UInt8], file: String, firstLine: Int, maxDepth: Int, into records: inout PlayRecords) throws {
        var reader = try JSONReader(bytes: bytes, file: file, maxDepth: maxDepth)
        let kind = try reader.peekKind()
        guard kind == .object || kind == .array else {
            throw reader.error("a Google Play API page is a JSON object (a list response or one product); found \(kind.article)")
        }
        let root = try DocNode.read(from: &reader)
        try reader.finish()
        if case .array(let elements) = root.value {
            // Several responses saved in one array (each as sent, or wrapped): refused by what they are.
            var responses = PlayShapes.Responses()
            for element in elements { responses.add(element) }
            if responses.count > 0 {
                throw FormatError(PlayShapes.refusal(responses, in: "in one array"), file: file, position: root.position)
            }
            throw FormatError("a Google Play API page is a JSON object (a list response or one product); found an array", file: file, position: root.position)
        }
        var parser = PlayPageParser(file: file, shift: firstLine - 1, records: records)
        try parser.page(root)
        parser.records.issues += parser.account.issues
        records = parser.records
    }

    // MARK: - Shapes

    private mutating func page(_ root: DocNode) throws {
        let keys = Set(members(root).map(\.key))
        if let error = root.member("error") {
            let message = error.member("message")?.scalarText ?? "no details given"
            let code = error.member("code")?.scalarText.map { "\($0) " } ?? ""
            throw fail("this page is a Google Play API error response, not data: \(code)\(message)", root)
        }
        if keys == ["regionsVersion"] {
            throw fail("this is gradle-play-publisher's subscription metadata ({\"regionsVersion\": ...}), not a product: it goes with "
                       + "the subscription file of the same name beside it (NAME.json for NAME.metadata.json); read that file, or the folder, "
                       + "where Tally passes the metadata by", root)
        }
        // A list whose entries are responses saved wrapped (`{productId, status, response}`) is
        // not a list page, however its key is called.
        for key in PlayShapes.listKeys.sorted() {
            guard case .array(let elements)? = root.member(key)?.value else { continue }
            var responses = PlayShapes.Responses()
            for element in elements where PlayShapes.wrappingKey(element) != nil { responses.add(element) }
            if responses.count > 0 { throw fail(PlayShapes.refusal(responses, in: "in its \"\(key)\" list"), root) }
        }
        var recognised = false
        if !keys.isDisjoint(with: PlayShapes.listKeys) { account.check(root, shift: shift, PlayVocabulary.page) }
        if let list = root.member("subscriptions") {
            recognised = true
            for node in try array(list, "subscriptions") { try subscription(node) }
        }
        if let list = root.member("subscriptionOffers") {
            recognised = true
            records.sawOffers = true
            for node in try array(list, "subscriptionOffers") { try offer(node) }
        }
        if let list = root.member("oneTimeProducts") {
            recognised = true
            for node in try array(list, "oneTimeProducts") { try oneTimeProduct(node) }
        }
        if let list = root.member("inappproduct") {
            recognised = true
            for node in try array(list, "inappproduct") { try inAppProduct(node) }
        }
        if let list = root.member("oneTimeProductOffers") {
            recognised = true
            for node in try array(list, "oneTimeProductOffers") { try oneTimeOffer(node) }
        }
        if recognised { return }
        // A single resource is told by the keys its type requires: a Subscription has base plans
        // (or, before it has any, its package name and listings beside its product ID).
        let isSubscription = keys.contains("productId") && !keys.contains("purchaseOptions")
            && (keys.contains("basePlans") || (keys.contains("packageName") && keys.contains("listings"))
                || (keys.contains("packageName") && keys.isSubset(of: PlayShapes.subscriptionKeys)))
        if isSubscription {
            try subscription(root)
        } else if keys.contains("offerId") && keys.contains("basePlanId") || keys.contains("phases") {
            records.sawOffers = true
            try offer(root)
        } else if keys.contains("purchaseOptions") && keys.contains("productId") {
            try oneTimeProduct(root)
        } else if keys.contains("offerId") && keys.contains("purchaseOptionId") && keys.contains("productId") {
            try oneTimeOffer(root)
        } else if keys.contains("sku") {
            try inAppProduct(root)
        } else if keys.isEmpty || keys.isSubset(of: ["nextPageToken", "kind", "tokenPagination", "pageInfo"]) {
            return // an empty list page: the API leaves out an empty list
        } else if let responses = Self.responses(in: root) {
            throw fail(PlayShapes.refusal(responses.found, in: responses.container), root)
        } else {
            let found = members(root).map(\.key).prefix(8).joined(separator: ", ")
            throw fail("not a Google Play API page: expected subscriptions, subscriptionOffers, oneTimeProducts or inappproduct "
                       + "(a list response), or one Subscription (productId, basePlans), SubscriptionOffer (productId, basePlanId, "
                       + "offerId, phases), OneTimeProduct (productId, purchaseOptions) or InAppProduct (sku); found the keys \(found)", root)
        }
    }

    /// The responses an unrecognised object holds, wrapped or as sent: itself a wrapper, or
    /// members (or lists in members) that are responses; nil when it holds none.
    private static func responses(in root: DocNode) -> (found: PlayShapes.Responses, container: String)? {
        var found = PlayShapes.Responses()
        if PlayShapes.wrappingKey(root) != nil {
            found.add(root)
            return (found, "")
        }
        var keys: [String] = []
        for member in PlayShapes.members(root) {
            let before = found.count
            if case .array(let elements) = member.node.value {
                for element in elements { found.add(element) }
            } else {
                found.add(member.node)
            }
            if found.count > before { keys.append(member.key) }
        }
        guard found.count > 0 else { return nil }
        let named = keys.prefix(8).map { "\"\($0)\"" }.joined(separator: ", ") + (keys.count > 8 ? ", ..." : "")
        return (found, "in one object, under \(named)")
    }

    private mutating func subscription(_ node: DocNode) throws {
        let id = try requiredString(node, "productId", in: "a subscription")
        account.check(node, shift: shift, PlayVocabulary.subscription)
        var subscription = PlaySubscription(productID: id.text, position: at(node), idPosition: id.position)
        subscription.archived = node.member("archived")?.scalarText == "true"
        if let listings = node.member("listings") { subscription.listings = try listingArray(listings) }
        if let plans = node.member("basePlans") {
            for plan in try array(plans, "basePlans") { subscription.basePlans.append(try basePlan(plan, productID: id.text)) }
        }
        if subscription.basePlans.isEmpty, !subscription.archived {
            // A customer buys a base plan: a subscription without one sells nothing, and is said so.
            records.issues.append(SourceIssue(rule: .storeState, productID: id.text, field: .id,
                                              message: "this subscription has no base plans, so it sells nothing and no product is read from it "
                                                  + "(a customer buys a base plan; Tally reads each as PRODUCT_ID:BASE_PLAN_ID)",
                                              position: id.position))
        }
        records.subscriptions.append(subscription)
    }

    private mutating func basePlan(_ node: DocNode, productID: String) throws -> PlayBasePlan {
        let id = try requiredString(node, "basePlanId", in: "a base plan")
        account.check(node, shift: shift, PlayVocabulary.basePlan)
        let productKey = "\(productID):\(id.text)"
        var plan = PlayBasePlan(basePlanID: id.text, position: at(node), idPosition: id.position)
        plan.state = try string(node, "state")?.text
        for (key, type) in [("autoRenewingBasePlanType", PlayPlanType.autoRenewing), ("prepaidBasePlanType", .prepaid),
                            ("installmentsBasePlanType", .installments(committedPayments: nil))] {
            guard let typeNode = node.member(key) else { continue }
            try expect(typeNode, .object, key)
            account.check(typeNode, shift: shift, PlayVocabulary.planType)
            plan.typePosition = at(typeNode)
            if case .installments = type {
                let count = try string(typeNode, "committedPaymentsCount").flatMap { Int($0.text) }
                plan.type = .installments(committedPayments: count)
            } else {
                plan.type = type
            }
            if let period = try string(typeNode, "billingPeriodDuration") {
                plan.periodPosition = period.position
                plan.period = self.period(period, productID: productKey, field: .period, what: "billing period")
            }
        }
        if let configs = node.member("regionalConfigs") {
            plan.pricesPosition = at(configs)
            var seen: [Territory: DocNode] = [:]
            for config in try array(configs, "regionalConfigs") {
                let region = try territory(config)
                account.check(config, shift: shift, PlayVocabulary.regionalPlanConfig)
                try once(region, config, in: &seen, "regionalConfigs", productID: productKey)
                guard let priceNode = config.member("price") else { continue }
                if let money = try money(priceNode, productID: productKey, field: .prices, region: region.code) {
                    plan.prices.append(Price(territory: region, money: money, position: at(priceNode)))
                }
            }
        }
        return plan
    }

    private mutating func offer(_ node: DocNode) throws {
        let product = try requiredString(node, "productId", in: "a subscription offer")
        let basePlan = try requiredString(node, "basePlanId", in: "a subscription offer")
        let offerID = try requiredString(node, "offerId", in: "a subscription offer")
        account.check(node, shift: shift, PlayVocabulary.offer)
        let productKey = "\(product.text):\(basePlan.text)"
        var offer = PlayOffer(productID: product.text, basePlanID: basePlan.text, offerID: offerID.text, position: at(node))
        offer.state = try string(node, "state")?.text
        if let targeting = node.member("targeting") {
            if targeting.member("acquisitionRule") != nil { offer.targeting = .acquisition }
            else if targeting.member("upgradeRule") != nil { offer.targeting = .upgrade }
        }
        if let phases = node.member("phases") {
            for phaseNode in try array(phases, "phases") {
                var phase = PlayPhase(position: at(phaseNode))
                account.check(phaseNode, shift: shift, PlayVocabulary.phase)
                if let count = phaseNode.member("recurrenceCount") {
                    guard let text = count.scalarText, let value = Int(text), value > 0 else {
                        throw fail("recurrenceCount must be a whole number from 1", count)
                    }
                    phase.recurrenceCount = value
                }
                if let duration = try string(phaseNode, "duration") {
                    phase.durationPosition = duration.position
                    phase.duration = period(duration, productID: productKey, field: .introductoryOffer, what: "offer phase duration")
                }
                if let configs = phaseNode.member("regionalConfigs") {
                    for config in try array(configs, "regionalConfigs") {
                        let region = try territory(config)
                        if let pricing = try pricing(config, productID: productKey, region: region.code) {
                            phase.regional.append((region, pricing, at(config)))
                        }
                    }
                }
                if let other = phaseNode.member("otherRegionsConfig") {
                    phase.otherRegions = try pricing(other, productID: productKey, region: "other regions")
                }
                offer.phases.append(phase)
            }
        }
        records.offers.append(offer)
    }

    /// `free {}`, `price`, `absoluteDiscount` or `relativeDiscount` of a phase's regional config.
    private mutating func pricing(_ node: DocNode, productID: String, region: String) throws -> PlayPhase.Pricing? {
        if node.member("free") != nil { return .free }
        for key in ["price", "absoluteDiscount", "otherRegionsPrice"] {
            guard let priceNode = node.member(key) else { continue }
            guard let money = try money(priceNode, productID: productID, field: .introductoryOffer, region: region) else { return nil }
            return key == "absoluteDiscount" ? .absoluteDiscount(money) : .price(money)
        }
        if let relative = node.member("relativeDiscount") {
            guard let text = relative.scalarText, let fraction = DecimalText.parse(text), fraction >= 0, fraction <= 1 else {
                records.issues.append(SourceIssue(rule: .invalidOffer, productID: productID, field: .introductoryOffer,
                                                  message: "relativeDiscount \"\(relative.scalarText ?? "")\" in \(region) is not a fraction from 0 to 1",
                                                  position: at(relative)))
                return nil
            }
            return .relativeDiscount(fraction)
        }
        return nil
    }

    /// A `OneTimeProductOffer` (2025): a discounted offer, a pre-order or a game reward on one
    /// purchase option, with its discount per region (`noOverride`, `absoluteDiscount`,
    /// `relativeDiscount`) where it is available.
    private mutating func oneTimeOffer(_ node: DocNode) throws {
        let product = try requiredString(node, "productId", in: "a one-time product offer")
        let id = try requiredString(node, "offerId", in: "a one-time product offer")
        account.check(node, shift: shift, PlayVocabulary.oneTimeOffer)
        var offer = OneTimeOffer(id: id.text, purchaseOptionID: try string(node, "purchaseOptionId")?.text,
                                 state: try string(node, "state")?.text, position: at(node))
        if node.member("discountedOffer") != nil { offer.kind = .discounted }
        if node.member("preOrderOffer") != nil { offer.kind = .preOrder }
        if node.member("gameRewardOffer") != nil { offer.kind = .gameReward }
        if let configs = node.member("regionalPricingAndAvailabilityConfigs") {
            var seen: [Territory: DocNode] = [:]
            for config in try array(configs, "regionalPricingAndAvailabilityConfigs") {
                let region = try territory(config)
                account.check(config, shift: shift, PlayVocabulary.oneTimeOfferRegion)
                try once(region, config, in: &seen, "regionalPricingAndAvailabilityConfigs", productID: product.text)
                let availability = try string(config, "availability")?.text
                guard availability == nil || availability == "AVAILABLE" else { continue }
                switch try pricing(config, productID: product.text, region: region.code) {
                case .absoluteDiscount(let money)?: offer.discounts[region] = .absolute(money)
                case .relativeDiscount(let fraction)?: offer.discounts[region] = .relative(fraction)
                default: if config.member("noOverride") != nil { offer.discounts[region] = OneTimeOffer.Discount.none }
                }
            }
        }
        records.oneTimeOffers.append((product.text, offer))
    }

    private mutating func oneTimeProduct(_ node: DocNode) throws {
        let id = try requiredString(node, "productId", in: "a one-time product")
        account.check(node, shift: shift, PlayVocabulary.oneTimeProduct)
        var product = PlayOneTimeProduct(productID: id.text, position: at(node), idPosition: id.position)
        if let listings = node.member("listings") { product.listings = try listingArray(listings) }
        if let options = node.member("purchaseOptions") {
            for optionNode in try array(options, "purchaseOptions") {
                var option = PlayPurchaseOption(optionID: try string(optionNode, "purchaseOptionId")?.text, position: at(optionNode))
                account.check(optionNode, shift: shift, PlayVocabulary.purchaseOption)
                option.state = try string(optionNode, "state")?.text
                if let rent = optionNode.member("rentOption") {
                    option.isRent = true
                    if let period = try string(rent, "rentalPeriod") {
                        option.rentalPeriod = self.period(period, productID: id.text, field: .period, what: "rental period")
                    }
                }
                if let configs = optionNode.member("regionalPricingAndAvailabilityConfigs") {
                    option.pricesPosition = at(configs)
                    var seen: [Territory: DocNode] = [:]
                    for config in try array(configs, "regionalPricingAndAvailabilityConfigs") {
                        let region = try territory(config)
                        account.check(config, shift: shift, PlayVocabulary.regionalOptionConfig)
                        try once(region, config, in: &seen, "regionalPricingAndAvailabilityConfigs", productID: id.text)
                        let availability = try string(config, "availability")?.text
                        guard availability == nil || availability == "AVAILABLE", let priceNode = config.member("price") else { continue }
                        if let money = try money(priceNode, productID: id.text, field: .prices, region: region.code) {
                            option.prices.append(Price(territory: region, money: money, position: at(priceNode)))
                        }
                    }
                }
                product.options.append(option)
            }
        }
        records.oneTimeProducts.append(product)
    }

    private mutating func inAppProduct(_ node: DocNode) throws {
        let sku = try requiredString(node, "sku", in: "an in-app product")
        account.check(node, shift: shift, PlayVocabulary.inAppProduct)
        var product = PlayInAppProduct(sku: sku.text, position: at(node), idPosition: sku.position)
        product.status = try string(node, "status")?.text.uppercased()
        if let type = try string(node, "purchaseType") {
            product.kindPosition = type.position
            switch type.text {
            case "managedUser": product.isSubscription = false
            case "subscription": product.isSubscription = true
            default: throw fail("unknown purchaseType \"\(type.text)\" (expected managedUser or subscription)", node.member("purchaseType") ?? node)
            }
        }
        if let defaultPrice = node.member("defaultPrice"), !defaultPrice.isNull,
           let money = try micros(defaultPrice, productID: sku.text, region: "defaultPrice") {
            product.defaultPrice = (money, defaultPrice.member("priceMicros")?.scalarText ?? "", at(defaultPrice))
        }
        if let prices = node.member("prices") {
            product.pricesPosition = at(prices)
            try expect(prices, .object, "prices")
            for (index, member) in members(prices).enumerated() {
                guard let region = Territory(region: member.key) else {
                    throw fail(Territory.notARegion(member.key), member.node, at: prices.keyPositions.indices.contains(index) ? prices.keyPositions[index] : nil)
                }
                if let money = try micros(member.node, productID: sku.text, region: member.key) {
                    product.prices.append(Price(territory: region, money: money, position: at(member.node)))
                }
            }
        }
        if let listings = node.member("listings") {
            try expect(listings, .object, "listings")
            for member in members(listings) {
                account.check(member.node, shift: shift, PlayVocabulary.inAppListing)
                let benefits = try member.node.member("benefits").map { try array($0, "benefits").compactMap(\.scalarText) } ?? []
                product.listings.append(Localization(locale: member.key.replacingOccurrences(of: "-", with: "_"),
                                                     displayName: try string(member.node, "title")?.text,
                                                     description: try string(member.node, "description")?.text, benefits: benefits))
            }
        }
        if let period = try string(node, "subscriptionPeriod") {
            product.periodPosition = period.position
            product.period = self.period(period, productID: sku.text, field: .period, what: "subscription period")
        }
        if let trial = try string(node, "trialPeriod") {
            product.trialPosition = trial.position
            product.trial = self.period(trial, productID: sku.text, field: .introductoryOffer, what: "trial period")
        }
        records.inAppProducts.append(product)
    }

    // MARK: - Values

    /// `Money {currencyCode, units, nanos}`: units is an int64 written as a string ("4") or a
    /// number, nanos a number of billionths; 4 units + 990000000 nanos is exactly 4.99.
    private mutating func money(_ node: DocNode, productID: String, field: Field, region: String) throws -> Money? {
        try expect(node, .object, "price")
        let currency = try string(node, "currencyCode")?.text
        let unitsText = node.member("units")?.scalarText ?? "0"
        let nanosText = node.member("nanos")?.scalarText ?? "0"
        guard let amount = PlayAmount.money(units: unitsText, nanos: nanosText) else {
            records.issues.append(SourceIssue(rule: .invalidPrice, productID: productID, field: field,
                                              message: "price in \(region) (units \"\(unitsText)\", nanos \"\(nanosText)\") is not a whole number of units and nanos (0 to 999999999)",
                                              position: at(node)))
            return nil
        }
        return Money(amount: amount, currency: currency)
    }

    /// The legacy `Price {priceMicros, currency}`: "990000" micros is 0.99.
    private mutating func micros(_ node: DocNode, productID: String, region: String) throws -> Money? {
        try expect(node, .object, "price")
        let text = node.member("priceMicros")?.scalarText ?? ""
        guard let amount = PlayAmount.micros(text) else {
            records.issues.append(SourceIssue(rule: .invalidPrice, productID: productID, field: .prices,
                                              message: "priceMicros \"\(text)\" in \(region) is not a whole number of micro-units",
                                              position: at(node)))
            return nil
        }
        return Money(amount: amount, currency: try string(node, "currency")?.text)
    }

    private mutating func period(_ value: (text: String, position: Position), productID: String, field: Field, what: String) -> Period? {
        if let period = Period(iso8601: value.text) { return period }
        records.issues.append(SourceIssue(rule: .invalidPeriod, productID: productID, field: field,
                                          message: "\(what) \"\(value.text)\" is not an ISO 8601 period like P1M", position: value.position))
        return nil
    }

    /// The storefront of a config's `regionCode` (alpha-2, through the one table).
    private func territory(_ config: DocNode) throws -> Territory {
        let code = try requiredString(config, "regionCode", in: "a regional config")
        guard let territory = Territory(region: code.text) else {
            throw fail(Territory.notARegion(code.text), config.member("regionCode") ?? config)
        }
        return territory
    }

    /// Refuses a region configured twice in one list, naming the product, both configs and their prices.
    private func once(_ region: Territory, _ config: DocNode, in seen: inout [Territory: DocNode], _ list: String, productID: String) throws {
        guard let first = seen[region] else {
            seen[region] = config
            return
        }
        func describe(_ node: DocNode) -> String {
            let price = node.member("price")
            let amount = price.flatMap { PlayAmount.money(units: $0.member("units")?.scalarText ?? "0", nanos: $0.member("nanos")?.scalarText ?? "0") }
            let currency = price?.member("currencyCode")?.scalarText
            let where_ = node.position
            return "\(amount.map { PeopleText.money(plain: MachineText.decimal($0), currency: currency) } ?? "no price") at \(file):\(where_.line):\(where_.column)"
        }
        let code = config.member("regionCode")?.scalarText ?? region.code
        throw fail("\(productID): region \(code) is configured twice in \(list): \(describe(first)) and \(describe(config)); keep one of them", config)
    }

    private mutating func listingArray(_ node: DocNode) throws -> [Localization] {
        try array(node, "listings").map { listing in
            account.check(listing, shift: shift, PlayVocabulary.listing)
            let benefits = try listing.member("benefits").map { try array($0, "benefits").compactMap(\.scalarText) } ?? []
            return Localization(locale: (try string(listing, "languageCode")?.text ?? "").replacingOccurrences(of: "-", with: "_"),
                                displayName: try string(listing, "title")?.text, description: try string(listing, "description")?.text,
                                benefits: benefits)
        }
    }

    // MARK: - Tree access

    private func at(_ node: DocNode) -> Position {
        node.position.isKnown ? Position(line: Int(node.position.line) + shift, column: Int(node.position.column)) : .unknown
    }

    private func members(_ node: DocNode) -> [(key: String, node: DocNode)] {
        if case .object(let members) = node.value { return members }
        return []
    }

    private func fail(_ message: String, _ node: DocNode, at position: Position? = nil) -> FormatError {
        FormatError(message, file: file, position: position ?? node.position)
    }

    private func expect(_ node: DocNode, _ kind: ValueKind, _ name: String) throws {
        guard node.kind == kind else { throw fail("\"\(name)\" must be \(kind.article), found \(node.kind.article)", node) }
    }

    private func array(_ node: DocNode, _ name: String) throws -> [DocNode] {
        if case .array(let elements) = node.value { return elements }
        if node.isNull { return [] }
        throw fail("\"\(name)\" must be an array, found \(node.kind.article)", node)
    }

    /// A string member and its catalogue position; nil when absent or null.
    private func string(_ node: DocNode, _ key: String) throws -> (text: String, position: Position)? {
        guard let value = node.member(key), !value.isNull else { return nil }
        guard value.kind == .string || value.kind == .number, let text = value.scalarText else {
            throw fail("\"\(key)\" must be a string, found \(value.kind.article)", value)
        }
        return (text, at(value))
    }

    private func requiredString(_ node: DocNode, _ key: String, in what: String) throws -> (text: String, position: Position) {
        guard let value = try string(node, key), !value.text.isEmpty else {
            throw fail("\(what) needs a \"\(key)\"", node)
        }
        return value
    }
}

/// Exact amounts from Google Play's two ways of writing money.
enum PlayAmount {
    /// `units` + `nanos` × 10⁻⁹; nil unless units is a whole number and nanos a whole number
    /// below 10⁹ in size with the same sign as units.
    static func money(units: String, nanos: String) -> Decimal? {
        guard let whole = Int64(units), let billionths = Int32(nanos), abs(Int64(billionths)) < 1_000_000_000,
              whole == 0 || billionths == 0 || (whole < 0) == (billionths < 0) else { return nil }
        return Decimal(whole) + Decimal(sign: billionths < 0 ? .minus : .plus, exponent: -9, significand: Decimal(abs(Int64(billionths))))
    }

    /// Micro-units (`priceMicros`, the Play Console CSV): "990000" is 0.99.
    static func micros(_ text: String) -> Decimal? {
        guard let value = Int64(text.trimmingCharacters(in: .whitespaces)) else { return nil }
        return Decimal(sign: value < 0 ? .minus : .plus, exponent: -6, significand: Decimal(value.magnitude))
    }
}
