/// The keys of Google Play Developer API resources (androidpublisher v3), place by place: the
/// ones the reader reads and the ones it skips on purpose, with the reason. Any other key is an
/// `unknown-content` warning.
enum PlayVocabulary {
    /// A list response: its list and its paging.
    static let page = KeyVocabulary(
        nil,
        read: ["subscriptions", "subscriptionOffers", "oneTimeProducts", "inappproduct", "oneTimeProductOffers"],
        // Paging and the resource kind: about the response, not the products.
        ignored: ["nextPageToken", "kind", "tokenPagination", "pageInfo"])

    /// The app a resource belongs to (`packageName`), its tax categories and the countries
    /// where payment is restricted (`restrictedPaymentCountries`), the labels the app gives it
    /// (`offerTags`), and the version of Google Play's region list its prices were made for
    /// (`regionsVersion`): none is a product's identity, price or terms.
    private static let aboutTheApp: Set<String> = ["packageName", "taxAndComplianceSettings", "restrictedPaymentCountries", "offerTags", "regionsVersion"]

    static let subscription = KeyVocabulary(
        "subscription", read: ["productId", "basePlans", "listings", "archived"], ignored: aboutTheApp)

    static let listing = KeyVocabulary("listing", read: ["languageCode", "title", "description", "benefits"])

    static let basePlan = KeyVocabulary(
        "base plan",
        read: ["basePlanId", "state", "regionalConfigs", "autoRenewingBasePlanType", "prepaidBasePlanType", "installmentsBasePlanType"],
        // The prices for regions Google Play opens later (in USD and EUR, for no region yet).
        ignored: aboutTheApp.union(["otherRegionsConfig"]))

    /// `autoRenewingBasePlanType`, `prepaidBasePlanType`, `installmentsBasePlanType`.
    static let planType = KeyVocabulary(
        "base plan type",
        read: ["billingPeriodDuration", "committedPaymentsCount"],
        // What happens at renewal, after a failed payment and on a plan change (grace period,
        // account hold, resubscribing, proration, time extension, renewal type, legacy
        // compatibility): the store's handling of a subscriber, not the plan's price or period.
        ignored: ["gracePeriodDuration", "accountHoldDuration", "resubscribeState", "prorationMode", "legacyCompatible",
                  "legacyCompatibleSubscriptionOfferId", "timeExtension", "renewalType"])

    static let regionalPlanConfig = KeyVocabulary(
        "regional config",
        read: ["regionCode", "price"],
        // Whether new subscribers can buy in the region: Tally compares the price set there.
        ignored: ["newSubscriberAvailability"])

    static let offer = KeyVocabulary(
        "subscription offer",
        read: ["productId", "basePlanId", "offerId", "state", "phases", "targeting"],
        // The regions where the offer is available (`regionalConfigs` of regionCode and
        // newSubscriberAvailability, `otherRegionsConfig`): each phase's prices are read per region.
        ignored: aboutTheApp.union(["regionalConfigs", "otherRegionsConfig"]))

    static let phase = KeyVocabulary("offer phase", read: ["recurrenceCount", "duration", "regionalConfigs", "otherRegionsConfig"])

    static let oneTimeProduct = KeyVocabulary(
        "one-time product", read: ["productId", "listings", "purchaseOptions"], ignored: aboutTheApp)

    static let purchaseOption = KeyVocabulary(
        "purchase option",
        read: ["purchaseOptionId", "state", "buyOption", "rentOption", "regionalPricingAndAvailabilityConfigs"],
        // The prices for regions Google Play opens later (`newRegionsConfig`).
        ignored: aboutTheApp.union(["newRegionsConfig"]))

    static let regionalOptionConfig = KeyVocabulary("regional config", read: ["regionCode", "price", "availability"])

    /// `OneTimeProductOffer`: its kind's own terms (`discountedOffer {startTime, endTime,
    /// redemptionLimit}`, `preOrderOffer {startTime, endTime, releaseTime, priceChangeBehavior}`,
    /// `gameRewardOffer`) say when and how often, not what it costs, and are not read further.
    static let oneTimeOffer = KeyVocabulary(
        "one-time product offer",
        read: ["productId", "purchaseOptionId", "offerId", "state", "regionalPricingAndAvailabilityConfigs", "discountedOffer",
               "preOrderOffer", "gameRewardOffer"],
        ignored: aboutTheApp)

    static let oneTimeOfferRegion = KeyVocabulary(
        "offer regional config", read: ["regionCode", "availability", "noOverride", "absoluteDiscount", "relativeDiscount"])

    static let inAppProduct = KeyVocabulary(
        "in-app product",
        read: ["sku", "status", "purchaseType", "defaultPrice", "prices", "listings", "subscriptionPeriod", "trialPeriod"],
        // The listing language Play falls back to, the grace period after a failed payment, a
        // legacy subscription's season (a fixed date range, no longer sold) and the tax settings.
        ignored: aboutTheApp.union(["defaultLanguage", "gracePeriod", "season", "subscriptionTaxesAndComplianceSettings",
                                    "managedProductTaxesAndComplianceSettings"]))

    static let inAppListing = KeyVocabulary("listing", read: ["title", "description", "benefits"])
}

extension KeyAccount {
    /// `check(_:at:_:shift:)` for a tree of a Google Play page, whose parser keeps no key paths.
    mutating func check(_ node: DocNode, shift: Int, _ vocabulary: KeyVocabulary) {
        guard case .object(let members) = node.value else { return }
        check(members, at: "", vocabulary, shift: shift)
    }
}
