import TallyModel

/// Both sides are auto-renewable subscriptions: the subscription rules apply.
private func bothSubscriptions(_ config: Product, _ catalog: Product) -> Bool {
    config.kind.isAutoRenewable && catalog.kind.isAutoRenewable
}

/// The subscription's billing period differs (P7D equals P1W; P4W is not P1M).
public struct PeriodRule: ProductPairRule {
    public static let description = describe(
        id: .period, defaultSeverity: .error,
        summary: "The subscription period differs (P7D equals P1W; P4W is not P1M).",
        rationale: "The renewal period decides how often users are charged; a server with another period computes expiry dates and entitlements that disagree with the App Store's.",
        fix: "Use the period from App Store Connect on both sides, written as an ISO 8601 duration (P1W, P1M, P2M, P3M, P6M, P1Y).")

    public init() {}

    public func applies(to config: Product, _ catalog: Product, in comparison: Comparison) -> Bool {
        comparison.bothKnow(.period) && bothSubscriptions(config, catalog) && config.period != nil && catalog.period != nil
    }

    public func compare(_ config: Product, _ catalog: Product, in comparison: Comparison) -> [Finding] {
        guard let left = config.period, let right = catalog.period, left != right else { return [] }
        return [finding(config.id, .period,
                        "\(product: config.id) renews every \(PeriodWords.contrast(left, right, comparison)) (\(left) vs \(right))",
                        left: comparison.configSide(config, .period, value: .period(left)),
                        right: comparison.catalogSide(catalog, .period, value: .period(right)))]
    }
}

/// Words that show why two periods differ: "4 weeks (28 days) vs 1 month", "1 week vs 1 month".
enum PeriodWords {
    static func contrast(_ left: Period, _ right: Period, _ comparison: Comparison) -> FindingMessage {
        contrast(left, right, comparison.configNoun, comparison.catalogNoun)
    }

    static func contrast(_ left: Period, _ right: Period, _ leftNoun: String, _ rightNoun: String) -> FindingMessage {
        // Against months, four weeks or more also read as days: "4 weeks (28 days) vs 1 month"
        // shows why they differ, and still names the period as the offer's summary does.
        let mixed = (left.months == 0) != (right.months == 0)
        return "\(duration: left, days: mixed && left.days >= 28) in \(source: leftNoun) vs \(duration: right, days: mixed && right.days >= 28) in \(source: rightNoun)"
    }
}

/// The introductory offer differs: presence, mode, period, number of periods or price.
public struct IntroOfferRule: ProductPairRule {
    public static let description = describe(
        id: .introOffer, defaultSeverity: .error,
        summary: "The introductory offer differs (presence, type, period, number of periods or price).",
        rationale: "The introductory offer is what a new subscriber pays first: a one-week trial in the app and a one-month trial on the server means the paywall, the server's eligibility checks and the store disagree about the deal.",
        fix: "Make the offer's type, period, number of periods and price match App Store Connect on both sides, or remove it from both.")

    public init() {}

    public func applies(to config: Product, _ catalog: Product, in comparison: Comparison) -> Bool {
        comparison.bothKnow(.introductoryOffer) && bothSubscriptions(config, catalog)
            && !Self.silentForWant(of: catalog.introductoryOffer, comparison.catalog, against: config.introductoryOffer)
            && !Self.silentForWant(of: config.introductoryOffer, comparison.configuration, against: catalog.introductoryOffer)
    }

    /// Whether a side says nothing only because its format cannot express the other side's
    /// offer (an App Store package knows free trials only): silence is then not a mismatch.
    static func silentForWant(of offer: Offer?, _ source: Catalog, against other: Offer?) -> Bool {
        guard offer == nil, let other, let modes = source.introductoryOfferModes else { return false }
        return !modes.contains(other.mode)
    }

    public func compare(_ config: Product, _ catalog: Product, in comparison: Comparison) -> [Finding] {
        let left = config.introductoryOffer
        let right = catalog.introductoryOffer
        guard let differences = OfferComparison.differences(left, right, comparison), !differences.isEmpty else { return [] }
        let at = OfferComparison.positions(left, right)
        return [finding(config.id, .introductoryOffer,
                        "\(product: config.id) introductory offer differs: \(FindingMessage.joined(differences, separator: "; "))",
                        left: comparison.configSide(config, .introductoryOffer, value: left.map(FindingValue.offer) ?? "none", position: at.left),
                        right: comparison.catalogSide(catalog, .introductoryOffer, value: right.map(FindingValue.offer) ?? "none", position: at.right))]
    }
}

/// Promotional offers, matched by offer ID, wherever both sides state them for a product
/// (`Catalog.states`): a list, even an empty one, against a list with other offers is a finding.
/// A server catalogue that says nothing about a product's promotional offers is skipped, and
/// the comparison's coverage line says so.
public struct PromotionalOfferRule: ProductPairRule {
    public static let description = describe(
        id: .promoOffer, defaultSeverity: .error,
        summary: "A promotional offer (matched by offer ID) is missing on one side or has other terms.",
        rationale: "The server signs promotional offers by offer ID: an offer missing on one side cannot be signed or is shown without being redeemable, and different terms promise users a deal they do not get.",
        fix: "Give both sides the same offer IDs with the same type, period, number of periods and price; delete retired offers from both.")

    public init() {}

    public func applies(to config: Product, _ catalog: Product, in comparison: Comparison) -> Bool {
        bothSubscriptions(config, catalog) && comparison.configuration.states(.promotionalOffers, for: config)
            && comparison.catalog.states(.promotionalOffers, for: catalog)
    }

    public func compare(_ config: Product, _ catalog: Product, in comparison: Comparison) -> [Finding] {
        OfferLists.compare(config, catalog, \.promotionalOffers, field: .promotionalOffers, noun: "promotional offer", in: comparison, rule: self)
    }
}

/// Two lists of offers matched by offer ID (promotional offers, win-back offers): an offer on one
/// side only, and an offer whose terms differ, are each a finding of `rule`.
enum OfferLists {
    static func compare<R: ProductPairRule>(_ config: Product, _ catalog: Product, _ offers: KeyPath<Product, [Offer]>, field: Field, noun: String,
                                            in comparison: Comparison, rule: R) -> [Finding] {
        var result: [Finding] = []
        var catalogByID: [String: Offer] = [:]
        for offer in catalog[keyPath: offers] { if let id = offer.id, catalogByID[id] == nil { catalogByID[id] = offer } }
        var configIDs = Set<String>()
        for offer in config[keyPath: offers] {
            guard let id = offer.id, configIDs.insert(id).inserted else { continue }
            let left = comparison.configSide(config, field, value: .offer(offer), position: offer.position)
            guard let other = catalogByID[id] else {
                result.append(rule.finding(config.id, field, "\(product: config.id) \(words: noun) \(name: id) is missing from \(source: comparison.catalogNoun)",
                                           left: left, right: comparison.catalogSide(catalog, field, value: nil as FindingValue?), offerID: id))
                continue
            }
            if let differences = OfferComparison.differences(offer, other, comparison), !differences.isEmpty {
                let at = OfferComparison.positions(offer, other)
                result.append(rule.finding(config.id, field,
                                           "\(product: config.id) \(words: noun) \(name: id) differs: \(FindingMessage.joined(differences, separator: "; "))",
                                           left: comparison.configSide(config, field, value: .offer(offer), position: at.left),
                                           right: comparison.catalogSide(catalog, field, value: .offer(other), position: at.right),
                                           offerID: id))
            }
        }
        for offer in catalog[keyPath: offers] {
            guard let id = offer.id, !configIDs.contains(id) else { continue }
            configIDs.insert(id)
            result.append(rule.finding(config.id, field, "\(product: config.id) \(words: noun) \(name: id) is missing from \(source: comparison.configNoun)",
                                       left: comparison.configSide(config, field, value: nil as FindingValue?),
                                       right: comparison.catalogSide(catalog, field, value: .offer(offer), position: offer.position),
                                       offerID: id))
        }
        return result
    }
}

/// Win-back offers (StoreKit 4.0's `winbackOffers`, App Store Connect's `winBackOffers`, API
/// 3.6), matched by offer ID, wherever both sides state them for a subscription: the App Store
/// shows a lapsed subscriber the offer App Store Connect has, and an app tested against a
/// `.storekit` file with other terms (or without it) shows something else (issue 50).
public struct WinbackOfferRule: ProductPairRule {
    public static let description = describe(
        id: .winbackOffer, defaultSeverity: .error,
        summary: "A win-back offer (matched by offer ID) is missing on one side or has other terms.",
        rationale: "The App Store offers a lapsed subscriber the win-back offers App Store Connect has, in the App Store and through StoreKit's Message and purchase APIs; a StoreKit configuration with other terms, or without the offer, tests a path users never take and misses the one they do.",
        fix: "Give both sides the same win-back offer IDs with the same type, duration, number of periods and price; remove ended offers from both.")

    public init() {}

    public func applies(to config: Product, _ catalog: Product, in comparison: Comparison) -> Bool {
        bothSubscriptions(config, catalog) && comparison.configuration.states(.winbackOffers, for: config)
            && comparison.catalog.states(.winbackOffers, for: catalog)
    }

    public func compare(_ config: Product, _ catalog: Product, in comparison: Comparison) -> [Finding] {
        OfferLists.compare(config, catalog, \.winbackOffers, field: .winbackOffers, noun: "win-back offer", in: comparison, rule: self)
    }
}

/// What differs between two offers (`Offer.termDifferences`), in words; nil when both are absent.
enum OfferComparison {
    static func differences(_ left: Offer?, _ right: Offer?, _ comparison: Comparison) -> [FindingMessage]? {
        let (leftNoun, rightNoun) = (comparison.configNoun, comparison.catalogNoun)
        switch (left, right) {
        case (nil, nil): return nil
        case (let offer?, nil): return ["\(source: leftNoun) has \(offer: offer), \(source: rightNoun) has none"]
        case (nil, let offer?): return ["\(source: rightNoun) has \(offer: offer), \(source: leftNoun) has none"]
        case (let a?, let b?):
            return a.termDifferences(b).map { term -> FindingMessage in
                switch term {
                case .mode: return "type \(words: a.mode) vs \(words: b.mode)"
                case .period: return "period \(PeriodWords.contrast(a.period, b.period, leftNoun, rightNoun))"
                case .periods: return "\(count: a.periods) vs \(count: b.periods) periods"
                case .price:
                    let compared = a.comparedPrices(b)
                    let regional = !a.regionalPrices.isEmpty || !b.regionalPrices.isEmpty
                    let place: FindingMessage = regional ? (compared?.territory).map { " in \($0)" } ?? "" : ""
                    func price(_ money: Money?) -> FindingMessage { money.map { "\($0)" } ?? "none" }
                    return "price\(place) \(price(compared?.mine ?? a.price)) vs \(price(compared?.theirs ?? b.price))"
                case .eligibility: return "eligibility \(words: Self.eligibility(a)) vs \(words: Self.eligibility(b))"
                }
            }
        }
    }

    /// Where a finding about two offers points on each side: at the first term they differ in
    /// (the period's value, say), not at the offer's opening brace; at the offer itself when the
    /// other side has none.
    static func positions(_ left: Offer?, _ right: Offer?) -> (left: Position?, right: Position?) {
        guard let left, let right, let term = left.termDifferences(right).first else { return (left?.position, right?.position) }
        return (left.position(of: term), right.position(of: term))
    }

    private static func eligibility(_ offer: Offer) -> String {
        offer.eligibility.isEmpty ? "none" : offer.eligibility.joined(separator: ", ")
    }
}
