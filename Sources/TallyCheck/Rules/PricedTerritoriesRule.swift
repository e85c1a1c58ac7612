import TallyModel

/// A product priced in territories on one side that the other side does not price: one finding
/// per product and pair, naming the territories each side prices and the other does not (as
/// each side's value, so JSON, SARIF and baselines keep them).
///
/// Which products are compared: those both sides price territory by territory. A StoreKit
/// configuration prices one storefront by design (its `settings._storefront`) and is never
/// compared here. A store's own record (an App Store Connect snapshot, Google Play) against a
/// team's catalogue is compared where the store says where the product is sold (the snapshot's
/// availability): the catalogue's territories the store does not price are named, and the
/// store's that the catalogue lacks only when the two share none (a catalogue of reference prices in a few territories is not a
/// finding; one priced in other territories altogether is). Two catalogues, or two store
/// records, are compared both ways where both price the product in more than one territory, or
/// the policy or an availability says where it must be. Severity: an error when a territory one
/// side lacks is one the store sells the product in or the policy requires, a warning otherwise.
///
/// Territories that never meet (no territory priced on both sides) are always compared, and a
/// store record priced in one territory beside a catalogue that prices many is compared too
/// (issue 48): otherwise no price of the product was compared and nothing named it.
///
/// `unpriced-territory` says that one source lacks a price it must have; this rule says that two
/// sources disagree on where the product is priced (the paywall priced in pounds for a launch in
/// Australia and New Zealand; a price matrix the store never received).
public struct PricedTerritoriesRule: ComparisonRule {
    public static let description = describe(
        id: .pricedTerritories, defaultSeverity: .warning,
        summary: "A product is priced in territories on one side that the other does not price (one finding per product, both lists named): an error where the store sells it there (a snapshot's availability) or the policy requires them (required_territories), a warning otherwise. A StoreKit configuration, which prices one storefront, is not compared; a store snapshot is compared with a catalogue where it says where the product is sold.",
        rationale: "Two sources that price a product in different territories disagree on where it can be bought and what it costs there: a paywall priced in pounds for a launch in Australia and New Zealand shows a price the store never charges, a price matrix narrowed on one side leaves the store without the prices App Store Connect asks for (the subscription stays in Missing Metadata), and a server that lacks the store's territories cannot show or record what customers pay. Without this rule the difference shows only in the compared: line and the check passes.",
        fix: "Price the product in the same territories on both sides: add the prices the message names to the side that lacks them (in App Store Connect or the Play Console, or in the catalogue), or take the territories out of the side that should not sell there. For territories left out on purpose, add an ignore with the reason.")

    /// The territories the policy requires (`required_territories`): a side that lacks one the
    /// other prices is an error, and products priced in one territory are compared too.
    public var territories: [Territory]

    public init(territories: [Territory] = []) {
        self.territories = territories
    }

    public func evaluate(_ comparison: Comparison, findings: inout [Finding], checked: inout CheckedLog) {
        guard comparison.bothKnow(.prices), comparison.otherStorefront == nil,
              !Self.pricesOneStorefront(comparison.configuration), !Self.pricesOneStorefront(comparison.catalog) else { return }
        let required = Set(territories)
        let stores = (Self.isStoreRecord(comparison.configuration), Self.isStoreRecord(comparison.catalog))
        for (config, catalog) in comparison.pairs {
            let left = Self.territories(config), right = Self.territories(catalog)
            guard !left.isEmpty, !right.isEmpty else { continue }
            let sold = (config.availability?.territories ?? []) + (catalog.availability?.territories ?? [])
            let leftSet = Set(left), rightSet = Set(right)
            var onlyLeft = left.filter { !rightSet.contains($0) }, onlyRight = right.filter { !leftSet.contains($0) }
            // Territories that never meet: no price of the product was compared at all, so the
            // product is named whatever else is known (issue 48: USD for the USA beside INR for
            // India; a launch in Australia and New Zealand priced in pounds).
            let disjoint = leftSet.isDisjoint(with: rightSet)
            if stores.0 != stores.1 {
                // The store's record against a team's catalogue: compared where the store says where
                // the product is sold (pages saved by hand, or prices fetched for some territories,
                // say nothing of the others), where the two never meet, and where the store prices
                // one territory beside a catalogue that prices many (a subscription priced in the
                // USA alone). The store's territories the catalogue leaves out are named only when
                // the two share none; a catalogue pricing some of the store's territories is a reference.
                let (storeSide, teamSide) = stores.0 ? (left, right) : (right, left)
                let storeInOne = storeSide.count == 1 && teamSide.count > 1
                guard !sold.isEmpty || disjoint || storeInOne else { continue }
                if !disjoint {
                    if stores.0 { onlyLeft = [] } else { onlyRight = [] }
                }
            } else {
                guard (left.count > 1 && right.count > 1) || !required.isEmpty || !sold.isEmpty || disjoint else { continue }
            }
            mark(config.id, at: comparison.configuration.location(of: config, .prices), &checked)
            guard !onlyLeft.isEmpty || !onlyRight.isEmpty else { continue }
            let soldSet = Set(sold)
            let differing = onlyLeft + onlyRight
            let soldThere = differing.filter { soldSet.contains($0) }
            let requiredThere = differing.filter { required.contains($0) && !soldSet.contains($0) }
            var parts: [FindingMessage] = []
            if !onlyLeft.isEmpty {
                parts.append("priced in \(Self.words(onlyLeft)) in \(source: comparison.configNoun) but not in \(source: comparison.catalogNoun)")
            }
            if !onlyRight.isEmpty {
                parts.append("\(words: onlyLeft.isEmpty ? "priced " : "")in \(Self.words(onlyRight)) in \(source: comparison.catalogNoun) but not in \(source: comparison.configNoun)")
            }
            var message: FindingMessage = "\(product: config.id) is \(FindingMessage.joined(parts, separator: ", and "))"
            if !soldThere.isEmpty { message.append("; the store sells it in \(Self.words(soldThere))") }
            if !requiredThere.isEmpty { message.append("; the policy requires \(Self.words(requiredThere))") }
            let severity: Severity = soldThere.isEmpty && requiredThere.isEmpty ? Self.description.defaultSeverity : .error
            findings.append(Finding(
                ruleID: Self.description.id, severity: severity, productID: config.id, field: .prices, message: message,
                left: comparison.configSide(config, .prices, value: onlyLeft.isEmpty ? nil : .territories(onlyLeft) as FindingValue?),
                right: comparison.catalogSide(catalog, .prices, value: onlyRight.isEmpty ? nil : .territories(onlyRight) as FindingValue?)))
        }
    }

    /// Whether the source is a store's own record of its products (an App Store Connect snapshot,
    /// storeconfig's export, an App Store package, Google Play): it prices where the store sells.
    static func isStoreRecord(_ source: Catalog) -> Bool {
        source.format.pricesWhereSold
    }

    /// Whether the source prices one storefront by design (a StoreKit configuration), so that
    /// its territories say nothing about where the product is sold.
    static func pricesOneStorefront(_ source: Catalog) -> Bool {
        source.format.pricesOneStorefront
    }

    /// The territories a product is priced in, in source order, each once.
    static func territories(_ product: Product) -> [Territory] {
        var seen = Set<Territory>()
        return product.prices.map(\.territory).filter { seen.insert($0).inserted }
    }

    /// "AUS, NZL" or, for a long list, "AUT, BEL, BGR, CYP, CZE and 160 more".
    static func words(_ territories: [Territory]) -> FindingMessage {
        territories.count <= 8 ? "\(territories)" : "\(Array(territories.prefix(5))) and \(count: territories.count - 5) more"
    }
}

extension PricedTerritoriesRule {
    /// The policy's required territories.
    public func configured(by policy: Policy) -> any ComparisonRule { PricedTerritoriesRule(territories: policy.requiredTerritories) }
}
