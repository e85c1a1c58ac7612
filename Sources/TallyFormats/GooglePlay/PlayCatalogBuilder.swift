import Foundation
import TallyModel

/// Builds the products of a Google Play source from its pages.
///
/// - A subscription's base plan is one product, `PRODUCT_ID:BASE_PLAN_ID`: an auto-renewing plan
///   renews every `billingPeriodDuration`; an installments plan too, with its commitment kept as
///   a billing plan; a prepaid plan is a non-renewing subscription (a billing plan says so).
/// - Its introductory offer is its first offer for sale that targets new customers
///   (`acquisitionRule`), else its first developer-determined offer. The offer's first phase
///   decides it: free is a free trial of `recurrenceCount` × `duration`; a price or discount is
///   pay-as-you-go (per period, `recurrenceCount` periods) when it recurs, pay-up-front when not.
/// - One-time products (`oneTimeProducts`, legacy `managedUser` in-app products) are priced by
///   their first buy option for sale; Google Play does not tell consumables from non-consumables.
///   A legacy in-app product that the new APIs list too (same ID) is read from the new ones.
struct PlayCatalogBuilder {
    let records: PlayRecords
    let file: String
    let options: ReadOptions

    func build(parts: [SourcePart]) -> Catalog {
        var products: [Product] = []
        var hidden = records.hidden
        var issues = records.issues
        let offers = Dictionary(grouping: records.offers.filter { counts($0.state) }) { "\($0.productID):\($0.basePlanID)" }
        for subscription in records.subscriptions {
            if subscription.archived, !options.includeStates.contains(ProductStates.all) {
                hidden["ARCHIVED", default: 0] += max(subscription.basePlans.count, 1)
                continue
            }
            for plan in subscription.basePlans where counts(plan.state, hidden: &hidden) {
                products.append(product(subscription, plan, offers: offers["\(subscription.productID):\(plan.basePlanID)"] ?? []))
            }
        }
        let offersByProduct = Dictionary(grouping: records.oneTimeOffers, by: \.productID).mapValues { $0.map(\.offer) }
        for item in records.oneTimeProducts {
            guard let option = item.options.first(where: { counts($0.state) && !$0.isRent }) ?? item.options.first(where: { counts($0.state) }) else {
                if let state = item.options.first?.state {
                    hidden[state.uppercased(), default: 0] += 1
                } else {
                    // A customer buys a purchase option: a product without one sells nothing, and is said so.
                    issues.append(SourceIssue(rule: .storeState, productID: item.productID, field: .id,
                                              message: "this one-time product has no purchase options, so it sells nothing and is not read (a customer buys a purchase option)",
                                              position: item.idPosition))
                }
                continue
            }
            var product = Product(id: item.productID, kind: option.isRent ? .nonRenewingSubscription : .nonConsumable,
                                  localizations: item.listings, prices: option.prices, position: item.position,
                                  fieldPositions: [.id: item.idPosition, .prices: option.pricesPosition, .kind: option.position])
            if option.isRent { product.billingPlans = [BillingPlan(type: "google-play-rental \(option.rentalPeriod?.literal ?? "")")] }
            product.oneTimeOffers = offersByProduct[item.productID] ?? []
            products.append(product)
        }
        // An offer on a one-time product this source does not list (its page saved without the
        // products'): named, so that it does not vanish.
        let oneTimeIDs = Set(records.oneTimeProducts.map(\.productID))
        for (productID, offer) in records.oneTimeOffers where !oneTimeIDs.contains(productID) {
            issues.append(SourceIssue(rule: .unknownContent, productID: productID, field: .id,
                                      message: "one-time product offer \(offer.id) is for \(productID), a one-time product this source does not list: save its oneTimeProducts page too",
                                      position: offer.position))
        }
        // The legacy API lists the same products the new ones do (a snapshot holds both): the new ones win.
        let listed = Set(records.oneTimeProducts.map(\.productID) + records.subscriptions.map(\.productID))
        for item in records.inAppProducts where !listed.contains(item.sku) && counts(item.status, hidden: &hidden) {
            var prices = item.prices
            if prices.isEmpty, let price = item.defaultPrice,
               let placed = PlayDefaultPrice.place(price.money.amount, currency: price.money.currency,
                                                   written: "defaultPrice \(price.literal) with no prices per region",
                                                   productID: item.sku, position: price.position, options: options, issues: &issues) {
                prices = [placed]
            }
            var product = Product(id: item.sku, kind: item.isSubscription ? .autoRenewableSubscription : .nonConsumable,
                                  localizations: item.listings, prices: prices, period: item.isSubscription ? item.period : nil,
                                  position: item.position,
                                  fieldPositions: [.id: item.idPosition, .kind: item.kindPosition, .prices: item.pricesPosition,
                                                   .period: item.periodPosition, .introductoryOffer: item.trialPosition])
            if item.isSubscription, let trial = item.trial {
                product.introductoryOffer = Offer(mode: .freeTrial, period: trial, position: item.trialPosition)
            }
            products.append(product)
        }
        products += records.consoleProducts

        var known: Set<Field> = [.id, .kind, .localizations, .prices, .period]
        if records.sawOffers || records.inAppProducts.contains(where: \.isSubscription) { known.insert(.introductoryOffer) }
        var catalog = Catalog(file: file, format: .googlePlay, defaultTerritory: .usa, products: products, knownFields: known,
                              issues: issues)
        catalog.parts = parts
        catalog.hiddenByState = hidden
        catalog.distinguishesConsumables = false
        return catalog
    }

    private func counts(_ state: String?) -> Bool {
        ProductStates.counts(state?.uppercased(), including: options.includeStates)
    }

    private func counts(_ state: String?, hidden: inout [String: Int]) -> Bool {
        ProductStates.counts(state?.uppercased(), including: options.includeStates, hidden: &hidden)
    }

    private func product(_ subscription: PlaySubscription, _ plan: PlayBasePlan, offers: [PlayOffer]) -> Product {
        let kind: ProductKind = plan.type == .prepaid ? .nonRenewingSubscription : .autoRenewableSubscription
        var product = Product(id: "\(subscription.productID):\(plan.basePlanID)", kind: kind,
                              localizations: subscription.listings, prices: plan.prices,
                              period: kind == .autoRenewableSubscription ? plan.period : nil,
                              position: plan.position,
                              fieldPositions: [.id: plan.idPosition, .kind: plan.typePosition, .period: plan.periodPosition,
                                               .prices: plan.pricesPosition])
        switch plan.type {
        case .prepaid?:
            product.billingPlans = [BillingPlan(type: "google-play-prepaid \(plan.period?.literal ?? "")")]
        case .installments(let count)?:
            product.billingPlans = [BillingPlan(type: "google-play-installments \(count.map(String.init) ?? "?") × \(plan.period?.literal ?? "")")]
        default:
            break
        }
        if kind == .autoRenewableSubscription,
           let chosen = offers.first(where: { $0.targeting == .acquisition }) ?? offers.first(where: { $0.targeting == .developerDetermined }),
           let offer = introductoryOffer(chosen, basePrices: plan.prices) {
            product.introductoryOffer = offer
            product.fieldPositions[.introductoryOffer] = offer.position
        }
        return product
    }

    /// The offer's first phase as an introductory offer, with its price in every region it
    /// prices (`Offer.regionalPrices`); `price` and `territory` are the United States' when the
    /// phase has a US price, else its first region's.
    private func introductoryOffer(_ offer: PlayOffer, basePrices: [Price]) -> Offer? {
        guard let phase = offer.phases.first, let duration = phase.duration else { return nil }
        let regional = phase.regional.first { $0.territory == .usa } ?? phase.regional.first
        guard let pricing = regional?.pricing ?? phase.otherRegions else { return nil }
        let territory = regional?.territory
        let position = regional?.position ?? phase.position
        if case .free = pricing {
            return Offer(mode: .freeTrial, period: duration, periods: phase.recurrenceCount,
                         territory: territory, position: position)
        }
        let regionalPrices = phase.regional.compactMap { entry -> Price? in
            price(entry.pricing, base: basePrices.first { $0.territory == entry.territory }?.money)
                .map { Price(territory: entry.territory, money: $0, position: entry.position) }
        }
        let base = territory.flatMap { territory in basePrices.first { $0.territory == territory }?.money }
        let mode: OfferMode = phase.recurrenceCount > 1 ? .payAsYouGo : .payUpFront
        var result = Offer(mode: mode, period: duration, periods: phase.recurrenceCount, price: price(pricing, base: base),
                           territory: territory, position: position)
        result.regionalPrices = regionalPrices
        return result
    }

    /// A phase's price in one region: its price, or the base plan's price there less the discount.
    private func price(_ pricing: PlayPhase.Pricing, base: Money?) -> Money? {
        switch pricing {
        case .free: nil
        case .price(let money): money
        case .absoluteDiscount(let discount): base.map { Money(amount: $0.amount - discount.amount, currency: $0.currency) }
        case .relativeDiscount(let fraction): base.map { Money(amount: $0.amount * (1 - fraction), currency: $0.currency) }
        }
    }
}
