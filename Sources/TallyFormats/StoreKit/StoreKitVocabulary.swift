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
        // The keys known so far are listed, but `settings` never holds products: any other key
        // in it (Xcode 16's `_shouldSetupSyncOnLoad`, Xcode 26's `_interruptedPurchasesEnabled`,
        // the next one) is skipped without a word (`StoreKitDecoder.readSettings`), never
        // `unknown-content` on an untouched Xcode file.
        ignored: ["_locale", "_timeRate", "_compatibilityTimeRate", "_storeKitErrors", "_storeKitError", "_failTransactionsEnabled",
                  "_askToBuyEnabled", "_billingIssuesEnabled", "_renewalBillingIssuesEnabled", "_billingGracePeriodEnabled",
                  "_disableDialogs", "_applicationInternalID", "_developerTeamID", "_lastSynchronizedDate",
                  "_shouldSetupSyncOnLoad", "_interruptedPurchasesEnabled"])

    static let groupKeys = KeyVocabulary("subscription group", read: ["id", "name", "localizations", "subscriptions"])

    static let productKeys = KeyVocabulary(
        "product",
        read: ["productID", "type", "displayPrice", "familyShareable", "isFamilyShareable", "members", "referenceName", "localizations",
               "recurringSubscriptionPeriod", "duration", "groupNumber", "subscriptionGroupID", "introductoryOffer", "introductoryOffers",
               "adHocOffers", "codeOffers", "winbackOffers", "billingPlans"],
        // Xcode's own identifier of the product inside the file; the promoted purchase's image
        // (Xcode 26: the name of an image in the configuration package's Assets/, shown on the
        // App Store, not part of what the product is).
        ignored: ["internalID", "promotionalImageID"])

    /// An entry of a suite's or bundle's `members` written as an object.
    static let memberKeys = KeyVocabulary("member", read: ["productID", "id"])

    static let localizationKeys = KeyVocabulary("localization", read: ["locale", "displayName", "description"])

    static let offerKeys = KeyVocabulary(
        "offer",
        read: ["paymentMode", "subscriptionPeriod", "numberOfPeriods", "displayPrice", "offerID", "billingPlanType", "eligibility"],
        // Xcode's identifier; the offer's name for people in Xcode (no store compares it); whether
        // the test session lets it stack or treats the tester as eligible (session switches).
        // `priority`: a win-back offer's rank among the win-back offers the store may show
        // (Xcode 26, "normal" or "high"; App Store Connect's winBackOffers HIGH/NORMAL).
        ignored: ["internalID", "referenceName", "isStackable", "isEligible", "priority"])

    static let planKeys = KeyVocabulary(
        "billing plan",
        read: ["billingPlanType", "displayPrice", "commitmentDisplayPrice", "isEnabled"],
        // Xcode's identifier of the plan inside the file.
        ignored: ["internalID"])
}
