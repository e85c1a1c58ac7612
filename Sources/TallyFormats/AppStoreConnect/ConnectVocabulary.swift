import TallyModel

/// The App Store Connect API's enumerations, as the OpenAPI specification names them, mapped
/// onto Tally's model.
enum ConnectVocabulary {
    /// `inAppPurchaseType`: v2's three types and the legacy v1 ones.
    static let kinds: [String: ProductKind] = [
        "CONSUMABLE": .consumable, "NON_CONSUMABLE": .nonConsumable, "NON_RENEWING_SUBSCRIPTION": .nonRenewingSubscription,
        "AUTOMATICALLY_RENEWABLE_SUBSCRIPTION": .autoRenewableSubscription,
        // The retired Newsstand free subscription: it never renews and never expires.
        "FREE_SUBSCRIPTION": .nonRenewingSubscription,
    ]

    /// `subscriptionPeriod` and `SubscriptionOfferDuration`.
    static let periods: [String: String] = [
        "THREE_DAYS": "P3D", "ONE_WEEK": "P1W", "TWO_WEEKS": "P2W", "ONE_MONTH": "P1M", "TWO_MONTHS": "P2M",
        "THREE_MONTHS": "P3M", "SIX_MONTHS": "P6M", "ONE_YEAR": "P1Y",
    ]

    /// `SubscriptionOfferMode`.
    static let offerModes: [String: OfferMode] = [
        "FREE_TRIAL": .freeTrial, "PAY_AS_YOU_GO": .payAsYouGo, "PAY_UP_FRONT": .payUpFront,
    ]

    static func period(_ text: String) -> Period? { periods[text].flatMap { Period(iso8601: $0) } }

    static func describe(_ values: some Collection<String>) -> String { values.sorted().joined(separator: ", ") }
}
