import Foundation

/// Which products count: by default only those for sale; `--include-state` adds others.
///
/// App Store Connect gives every in-app purchase and subscription a `state`; a product is for
/// sale in `APPROVED` (shown as "Ready for Sale" or "Approved" in App Store Connect). An App
/// Store package marks a product that is not for sale with `cleared_for_sale` false, which Tally
/// calls the state `NOT_CLEARED_FOR_SALE`. On Google Play, a base plan, offer or purchase option
/// is for sale when `ACTIVE`.
public enum ProductStates {
    /// The states in which a product is for sale, counted always.
    public static let forSale: Set<String> = ["APPROVED", "ACTIVE"]
    /// An App Store package product whose `cleared_for_sale` is false.
    public static let notClearedForSale = "NOT_CLEARED_FOR_SALE"
    /// Counts every product, whatever its state.
    public static let all = "ALL"

    /// Every state Tally knows: App Store Connect's `InAppPurchaseState` (v2), the legacy v1
    /// in-app purchase states and the subscription states, plus `NOT_CLEARED_FOR_SALE` and `ALL`.
    public static let known: [String] = [
        "APPROVED", "CREATED", "DELETED", "DELETION_IN_PROGRESS", "DEVELOPER_ACTION_NEEDED",
        "DEVELOPER_REMOVED_FROM_SALE", "DEVELOPER_SIGNED_OFF", "IN_REVIEW", "MISSING_METADATA",
        "PENDING_BINARY_APPROVAL", "PENDING_DEVELOPER_RELEASE", "PREPARE_FOR_SUBMISSION",
        "PROCESSING_CONTENT", "READY_TO_SUBMIT", "REJECTED", "REMOVED_FROM_SALE", "REPLACED",
        "WAITING_FOR_REVIEW", "WAITING_FOR_SCREENSHOT", "WAITING_FOR_UPLOAD",
        notClearedForSale, all,
    ] + googlePlay

    /// Google Play's states (base plans, offers, purchase options; the legacy API's `active` and
    /// `inactive` and the Play Console CSV's `published` and `unpublished` are read as ACTIVE and
    /// INACTIVE). ACTIVE is for sale.
    public static let googlePlay = ["ACTIVE", "DRAFT", "INACTIVE", "INACTIVE_PUBLISHED"]

    /// The canonical spelling of a state a user typed (`ready-to-submit` → `READY_TO_SUBMIT`),
    /// or nil when Tally does not know it.
    public static func normalise(_ text: String) -> String? {
        let canonical = text.trimmingCharacters(in: .whitespaces).uppercased()
            .replacingOccurrences(of: "-", with: "_").replacingOccurrences(of: " ", with: "_")
        return known.contains(canonical) ? canonical : nil
    }

    /// Whether a product in `state` counts; a product whose source gives no state counts.
    public static func counts(_ state: String?, including extra: Set<String>) -> Bool {
        guard let state else { return true }
        return forSale.contains(state) || extra.contains(state) || extra.contains(all)
    }

    /// `counts(_:including:)`, counting a product left out in `hidden` under its state.
    public static func counts(_ state: String?, including extra: Set<String>, hidden: inout [String: Int]) -> Bool {
        if counts(state, including: extra) { return true }
        hidden[state ?? "", default: 0] += 1
        return false
    }
}
