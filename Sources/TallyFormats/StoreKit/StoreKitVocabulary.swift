/// The keys of a StoreKit configuration, place by place: the ones the reader reads, and the
/// ones it skips on purpose, each with its reason. Any other key is an `unknown-content` warning.
extension StoreKitDecoder {
    static let rootKeys = KeyVocabulary(
        nil,
        read: ["version", "settings", "products", "nonRenewingSubscriptions", "subscriptionGroups", "subscriptionSuiteGroups",
               "subscriptionBundleGroups"],
        // Xcode's identifier of the file; the App Store policies shown in the test session
        // (`appPolicies`: EULA, privacy text); the offers' signing key pair, never read into memory.
        ignored: ["identifier", "appPolicies", "subscriptionOffersKeyPair"])

    static let versionKeys = KeyVocabulary("version", read: ["major", "minor"])

    static let settingsKeys = KeyVocabulary(
        "settings",
        read: ["_storefront"],
        // How Xcode's test session behaves (its locale, time rate, simulated errors, Ask to Buy,
        // billing issues, dialogs) and which App Store Connect app and team it was synchronised
        // from: about the session, not the products.
        ignored: ["_locale", "_timeRate", "_compatibilityTimeRate", "_storeKitErrors", "_storeKitError", "_failTransactionsEnabled",
                  "_askToBuyEnabled", "_billingIssuesEnabled", "_renewalBillingIssuesEnabled", "_billingGracePeriodEnabled",
                  "_disableDialogs", "_applicationInternalID", "_developerTeamID", "_lastSynchronizedDate"])

    static let groupKeys = KeyVocabulary("subscription group", read: ["id", "name", "localizations", "subscriptions"])

    static let productKeys = KeyVocabulary(
        "product",
        read: ["productID", "type", "displayPrice", "familyShareable", "isFamilyShareable", "members", "referenceName", "localizations",
               "recurringSubscriptionPeriod", "duration", "groupNumber", "subscriptionGroupID", "introductoryOffer", "introductoryOffers",
               "adHocOffers", "codeOffers", "winbackOffers", "billingPlans"],
        // Xcode's own identifier of the product inside the file.
        ignored: ["internalID"])

    /// An entry of a suite's or bundle's `members` written as an object.
    static let memberKeys = KeyVocabulary("member", read: ["productID", "id"])

    static let localizationKeys = KeyVocabulary("localization", read: ["locale", "displayName", "description"])

    static let offerKeys = KeyVocabulary(
        "offer",
        read: ["paymentMode", "subscriptionPeriod", "numberOfPeriods", "displayPrice", "offerID", "billingPlanType", "eligibility"],
        // Xcode's identifier; the offer's name for people in Xcode (no store compares it); whether
        // the test session lets it stack or treats the tester as eligible (session switches).
        ignored: ["internalID", "referenceName", "isStackable", "isEligible"])

    static let planKeys = KeyVocabulary(
        "billing plan",
        read: ["billingPlanType", "displayPrice", "commitmentDisplayPrice", "isEnabled"],
        // Xcode's identifier of the plan inside the file.
        ignored: ["internalID"])
}
