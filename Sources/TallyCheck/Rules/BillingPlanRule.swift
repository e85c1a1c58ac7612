import TallyModel

/// A subscription's billing plans differ: a plan (up front, or monthly with a 12-month
/// commitment) on one side only, a plan priced differently in the configuration's storefront,
/// enabled on one side only, or an offer on one plan on one side and on the other plan on the other.
public struct BillingPlanRule: ProductPairRule {
    public static let description = describe(
        id: .billingPlan, defaultSeverity: .error,
        summary: "A subscription's billing plans differ: a plan on one side only, a plan priced or enabled differently, or an offer on another plan.",
        rationale: "Since iOS 26.4 a subscription can be billed up front or monthly with a 12-month commitment, each plan with its own prices and offers; a server or paywall that knows another plan, price or offer shows customers terms the store does not charge.",
        fix: "Make both sides carry the plans App Store Connect has for the subscription (its plan availabilities and plan prices), each with its monthly price and its own offers.")

    public init() {}

    public func applies(to config: Product, _ catalog: Product, in comparison: Comparison) -> Bool {
        config.kind.isAutoRenewable && catalog.kind.isAutoRenewable && comparison.bothKnow(.billingPlans)
            && comparison.configuration.states(.billingPlans, for: config) && comparison.catalog.states(.billingPlans, for: catalog)
    }

    public func compare(_ config: Product, _ catalog: Product, in comparison: Comparison) -> [Finding] {
        var result: [Finding] = []
        let territory = comparison.territory
        let mine = config.billingPlansByKind, theirs = catalog.billingPlansByKind
        for kind in BillingPlanKind.allCases {
            switch (mine[kind], theirs[kind]) {
            case let (left?, nil):
                result.append(finding(config.id, .billingPlans, "\(product: config.id) has a \(words: kind) in \(source: comparison.configNoun) but none in \(source: comparison.catalogNoun)",
                                      left: comparison.configSide(config, .billingPlans, value: kind.rawValue, position: left.position),
                                      right: comparison.catalogSide(catalog, .billingPlans, value: nil as String?)))
            case let (nil, right?):
                result.append(finding(config.id, .billingPlans, "\(product: config.id) has a \(words: kind) in \(source: comparison.catalogNoun) but none in \(source: comparison.configNoun)",
                                      left: comparison.configSide(config, .billingPlans, value: nil as String?),
                                      right: comparison.catalogSide(catalog, .billingPlans, value: kind.rawValue, position: right.position)))
            case let (left?, right?):
                // A plan given for a subscription that lists none has its prices: the price rule compares those.
                guard !config.billingPlans.isEmpty, !catalog.billingPlans.isEmpty else { continue }
                if let a = left.price(in: territory), let b = right.price(in: territory), a.amount != b.amount {
                    let per = kind == .monthly ? " a month" : ""
                    result.append(finding(config.id, .billingPlans,
                                          "\(product: config.id)'s \(words: kind) costs \(a)\(words: per) in \(territory) in \(source: comparison.configNoun) but \(b)\(words: per) in \(source: comparison.catalogNoun)",
                                          left: comparison.configSide(config, .billingPlans, value: .money(a), position: left.position),
                                          right: comparison.catalogSide(catalog, .billingPlans, value: .money(b), position: right.position),
                                          territory: territory))
                }
                if let a = left.isEnabled, let b = right.isEnabled, a != b {
                    result.append(finding(config.id, .billingPlans,
                                          "\(product: config.id)'s \(words: kind) is \(words: a ? "enabled" : "disabled") in \(source: comparison.configNoun) but \(words: b ? "enabled" : "disabled") in \(source: comparison.catalogNoun)",
                                          left: comparison.configSide(config, .billingPlans, value: String(a), position: left.position),
                                          right: comparison.catalogSide(catalog, .billingPlans, value: String(b), position: right.position)))
                }
            case (nil, nil):
                continue
            }
        }
        result += offersOnOtherPlans(config, catalog, in: comparison)
        return result
    }

    /// An offer with the same terms on both sides, on one plan here and on another there.
    private func offersOnOtherPlans(_ config: Product, _ catalog: Product, in comparison: Comparison) -> [Finding] {
        var result: [Finding] = []
        var used = Set<Int>()
        let others = catalog.allOffers
        for offer in config.allOffers {
            guard let plan = offer.billingPlan else { continue }
            // The same offer on the same plan there: nothing to say.
            if let index = others.indices.first(where: { !used.contains($0) && others[$0].billingPlan == plan && others[$0].sameTerms(as: offer) }) {
                used.insert(index)
                continue
            }
            guard let index = others.indices.first(where: { !used.contains($0) && others[$0].billingPlan != nil && others[$0].sameTerms(as: offer) }),
                  let otherPlan = others[index].billingPlan else { continue }
            used.insert(index)
            result.append(finding(config.id, .billingPlans,
                                  "\(product: config.id)'s \(offer: offer) is on the \(words: plan) in \(source: comparison.configNoun) but on the \(words: otherPlan) in \(source: comparison.catalogNoun)",
                                  left: comparison.configSide(config, .billingPlans, value: plan.rawValue, position: offer.position),
                                  right: comparison.catalogSide(catalog, .billingPlans, value: otherPlan.rawValue, position: others[index].position),
                                  offerID: offer.id))
        }
        return result
    }
}
