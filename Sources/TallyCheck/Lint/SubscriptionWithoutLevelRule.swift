import TallyModel

/// A subscription that App Store Connect holds in a group but with no level there: created
/// through the API without `groupLevel`. App Store Connect shows it (even Ready to Submit), but
/// StoreKit cannot load it: `Product.products(for:)` leaves it out, logging
/// `missingValue(for: [StoreKit.ProductResponse.Key.attributes, StoreKit.ProductResponse.Key.subscriptionGroupLevel], …)`,
/// so the app's paywall shows nothing for it.
///
/// Only the store's own record is examined (an App Store Connect snapshot, where `groupLevel` is
/// the store's attribute): a catalogue or a StoreKit configuration that leaves a level out says
/// nothing about the store. Products the state filter leaves out are `store-state`'s, which names
/// the missing level among their causes.
public struct SubscriptionWithoutLevelRule: LintRule {
    public static let description = describe(
        id: .subscriptionWithoutLevel, defaultSeverity: .error,
        summary: "App Store Connect holds an auto-renewable subscription in a group with no level there (created through the API without groupLevel); StoreKit cannot load it.",
        rationale: "Every subscription of a group has a level (its rank for upgrades and downgrades). One created through the App Store Connect API without a level is listed in App Store Connect, even Ready to Submit, but StoreKit fails to decode it (missingValue for subscriptionGroupLevel) and returns no product: the paywall is empty and App Review rejects the app.",
        fix: "Give the subscription its level in the group: drag it into place under the group's subscriptions in App Store Connect, or set groupLevel through the API (PATCH /v1/subscriptions/{id}); then fetch the snapshot again.")

    public init() {}

    public func lint(_ catalog: Catalog, findings: inout [Finding], checked: inout CheckedLog) {
        guard catalog.format.isConnectAPIRecord, catalog.knownFields.contains(.level) else { return }
        for product in catalog.products where product.kind.isAutoRenewable {
            markChecked(catalog, product, &checked)
            guard Self.lacksLevel(product, in: catalog), let group = product.group else { continue }
            findings.append(finding(catalog, product.id, .level,
                                    "\(product: product.id) has no level in its subscription group \(name: GroupIDMismatchRule.named(group)) in \(source: catalog.format.storeNoun): StoreKit cannot load it (missingValue for subscriptionGroupLevel)",
                                    at: product.position, path: product.path))
        }
    }

    /// Whether `product` is a subscription the store's record places in a group without a level.
    static func lacksLevel(_ product: Product, in catalog: Catalog) -> Bool {
        guard catalog.format.isConnectAPIRecord, catalog.knownFields.contains(.level), product.kind.isAutoRenewable,
              let group = product.group, !group.groupID.isEmpty else { return false }
        return group.level == nil
    }
}
