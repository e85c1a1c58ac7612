import TallyModel

/// A product of the paywall platform that no offering's package holds (issue 36, class 6), where
/// the source lists the platform's offerings as a whole (RevenueCat's offerings pages). With no
/// offering at all, `PaywallNoCurrentOfferingRule` says so once instead.
public struct PaywallUnofferedProductRule: PaywallRule {
    public static let description = describe(
        id: .paywallUnofferedProduct, defaultSeverity: .warning,
        summary: "A product of the paywall platform is in no offering's package.",
        rationale: "Apps that sell through offerings (RevenueCat's Purchases.shared.offerings, its paywalls) can only show what a "
            + "package holds: a product in no package is never offered, and the paywall lacks the plan. It is a warning, not an "
            + "error: a product kept for subscribers who still renew it, or one the app buys by ID, is in no offering on purpose.",
        fix: "Add a package with the product to the offering that should sell it (RevenueCat: Product catalog → Offerings → the "
            + "offering → Add package). If it is kept on purpose (a retired plan that still renews), ignore the finding with that reason.")
    public init() {}

    /// How to tell a retired plan from a forgotten one, and how to make the gate fail on it.
    static func hint(_ product: PaywallProduct, _ context: PaywallContext) -> String {
        let sellers = context.sides.filter { $0.catalog.format.role == .configuration && $0.products[product.storeID] != nil }.map(\.catalog.file)
        let selling = sellers.isEmpty ? "" : "\(sellers.joined(separator: ", ")) sells it, so the app expects to show it; "
        return selling + "a retired plan kept for subscribers who still renew is in no offering on purpose (ignore it with that reason); "
            + "a plan meant for sale is forgotten: add it to an offering. To fail the gate on such products, set "
            + "'rules: {paywall-unoffered-product: error}' in .tally.yml"
    }

    public func evaluate(_ context: PaywallContext, findings: inout [Finding], checked: inout CheckedLog) {
        let paywall = context.paywall
        guard paywall.listsOfferings, !paywall.offerings.isEmpty,
              paywall.offerings.allSatisfy({ $0.statesPackages && $0.packages.allSatisfy(\.statesProducts) }) else { return }
        let held = Set(paywall.offerings.flatMap { $0.packages.flatMap(\.productKeys) })
        var reported = Set<String>()
        for product in paywall.products where product.store != nil {
            mark(context, product.storeID, at: product.position, &checked)
            guard !held.contains(product.key), reported.insert("\(product.store?.rawValue ?? "") \(product.storeID)").inserted else { continue }
            let offerings = FindingMessage.joined(paywall.offerings.map { "\(name: $0.key)" }, separator: ", ")
            findings.append(finding(product.storeID, .id,
                                    "\(product: product.storeID) is a product of \(source: context.noun) that no offering's package holds "
                                    + "(offerings: \(offerings)): an app that sells through offerings never shows it",
                                    left: context.paywallSide(.text(product.storeID), at: product.position),
                                    hint: Self.hint(product, context)))
        }
    }
}
