/// The App Store states that ask for the team's action before a product can be sold, as App Store
/// Connect's Help describes them ("In-app purchase statuses",
/// https://developer.apple.com/help/app-store-connect/reference/in-app-purchase-statuses).
/// Written as the API spells them (`InAppPurchaseState`, `SubscriptionState`, the legacy v1 states).
///
/// States where Apple or time acts (`WAITING_FOR_REVIEW`, `IN_REVIEW`, `PENDING_BINARY_APPROVAL`,
/// `PROCESSING_CONTENT`), where the product is complete (`READY_TO_SUBMIT`: "you uploaded all the
/// metadata needed"), for sale (`APPROVED`) or off sale by choice or on removal
/// (`DEVELOPER_REMOVED_FROM_SALE`, `REMOVED_FROM_SALE`, `DELETED`) ask nothing of it here.
public enum StoreStates {
    /// App Review returned the product: `REJECTED` ("Apple has rejected your in-app purchase
    /// product during the review process") and `DEVELOPER_ACTION_NEEDED`. It cannot be sold
    /// until the team changes it and submits it again.
    public static let returnedByReview: Set<String> = ["REJECTED", "DEVELOPER_ACTION_NEEDED"]

    /// The product lacks something the team must add before it can be submitted:
    /// `MISSING_METADATA` ("you have not yet uploaded a screenshot or completed your metadata"),
    /// the legacy `WAITING_FOR_SCREENSHOT`, and `WAITING_FOR_UPLOAD` (hosted content not uploaded).
    public static let incomplete: Set<String> = ["MISSING_METADATA", "WAITING_FOR_SCREENSHOT", "WAITING_FOR_UPLOAD"]

    /// Whether a product in `state` waits on the team.
    public static func needsAction(_ state: String?) -> Bool {
        guard let state else { return false }
        return returnedByReview.contains(state) || incomplete.contains(state)
    }

    /// The product is complete or on its way to sale, not yet for sale: `READY_TO_SUBMIT` (it goes
    /// to App Review with an app version, or alone once the app has one approved purchase),
    /// `WAITING_FOR_REVIEW`, `IN_REVIEW`, `PENDING_BINARY_APPROVAL` (it waits for the app's version),
    /// `PENDING_DEVELOPER_RELEASE`, `PREPARE_FOR_SUBMISSION` and `CREATED` (the legacy v1 states
    /// before metadata), `PROCESSING_CONTENT` (hosted content being processed).
    public static let onTheWay: Set<String> = [
        "READY_TO_SUBMIT", "WAITING_FOR_REVIEW", "IN_REVIEW", "PENDING_BINARY_APPROVAL", "PENDING_DEVELOPER_RELEASE",
        "PREPARE_FOR_SUBMISSION", "CREATED", "PROCESSING_CONTENT",
    ]

    /// Whether a product the state filter leaves out in `state` is kept aside (`Catalog.heldByState`)
    /// rather than dropped: it waits on the team (`needsAction`) or is on its way to sale
    /// (`onTheWay`). A source that has it then learns why the store does not sell it, instead of
    /// reading it as missing from the store. Products taken off sale or deleted are dropped.
    public static func heldWhenLeftOut(_ state: String?) -> Bool {
        guard let state else { return false }
        return needsAction(state) || onTheWay.contains(state)
    }

    /// Whether App Store Connect holds the product complete in `state`: everything it asks before
    /// review is there (`onTheWay`), so a missing localization or price in a source is that
    /// source's gap, not the store's cause.
    public static func isComplete(_ state: String?) -> Bool {
        guard let state else { return false }
        return onTheWay.contains(state)
    }

    /// A state as people read it (`MISSING_METADATA` → "Missing Metadata"), as App Store Connect shows it.
    public static func displayName(_ state: String) -> String {
        state.split(separator: "_").map { word in
            let lower = word.lowercased()
            return ["to", "for", "from"].contains(lower) ? lower : lower.prefix(1).uppercased() + lower.dropFirst()
        }.joined(separator: " ")
    }
}
