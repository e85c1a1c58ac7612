import TallyModel

/// A subscription group whose plans are separate Google Play subscriptions (issue 36, class 5):
/// the same tier is one App Store group, where monthly and yearly exclude each other, and two
/// Play subscription products, which a user can hold, and pay for, at once.
public struct PlayGroupSplitRule: ComparisonRule {
    public static let description = describe(
        id: .playGroupSplit, defaultSeverity: .error,
        summary: "Plans of one subscription group are separate Google Play subscriptions of one base plan each, not base plans of one subscription.",
        rationale: "The plans of one App Store subscription group exclude each other: a subscriber holds one and moves between them "
            + "(upgrade, downgrade, crossgrade). On Google Play that is what the base plans of one subscription are. Two Play "
            + "subscription products are two subscriptions: a user can hold, and be charged for, both at once, and moving between "
            + "them is a purchase the app has to replace by itself. Tiers are reported only in that shape: several Play "
            + "subscriptions of several base plans each (one per tier, as Google Play advises) are not.",
        fix: "Make the plans of one tier base plans of one Google Play subscription (Play Console: the subscription → Add base plan) and name "
            + "them subscription:base-plan in the catalogue (google_play:). If the tiers are meant to be held together, put the "
            + "App Store products in separate groups.")

    public init() {}

    public func evaluate(_ comparison: Comparison, findings: inout [Finding], checked: inout CheckedLog) {
        // One side names base plans in its IDs (Google Play), the other groups its subscriptions.
        let playIsCatalog = comparison.catalog.format.store.basePlanSeparator != nil
        guard playIsCatalog != (comparison.configuration.format.store.basePlanSeparator != nil) else { return }
        let grouped = playIsCatalog ? comparison.configuration : comparison.catalog
        let play = playIsCatalog ? comparison.catalog : comparison.configuration
        guard grouped.knownFields.contains(.group) else { return }
        // The group's members sold on Google Play, in the grouped source's order.
        var members: [String: [(grouped: Product, play: Product)]] = [:]
        var order: [String] = []
        for pair in comparison.pairs {
            let (mine, theirs) = playIsCatalog ? (pair.config, pair.catalog) : (pair.catalog, pair.config)
            guard mine.kind.isAutoRenewable, theirs.kind.isAutoRenewable, let group = mine.group?.groupID, !group.isEmpty else { continue }
            if members[group] == nil { order.append(group) }
            members[group, default: []].append((mine, theirs))
        }
        // Base plans per Play subscription, over the whole Play source.
        var basePlans: [String: Int] = [:]
        for product in play.products where product.kind.isAutoRenewable { basePlans[Self.subscription(of: product.id), default: 0] += 1 }
        for group in order {
            guard let plans = members[group], let first = plans.first else { continue }
            mark(group, at: grouped.location(first.grouped.position), &checked)
            // Play subscriptions that sell one plan of the group and nothing else: the group's
            // plans cut into separate subscriptions. (Several base plans to a Play subscription,
            // one subscription per tier, is Play's own shape for tiers: not reported.)
            let singles = plans.filter { basePlans[Self.subscription(of: $0.play.id)] == 1 }
            guard singles.count > 1 else { continue }
            let name = GroupRule.name(of: group, in: grouped)
            let groupedNoun = playIsCatalog ? comparison.configNoun : comparison.catalogNoun
            let playNoun = playIsCatalog ? comparison.catalogNoun : comparison.configNoun
            let listed = FindingMessage.joined(singles.map { "\(product: Self.subscription(of: $0.play.id)) (\(product: $0.play.id))" }, separator: ", ")
            let subscriptions = singles.map { Self.subscription(of: $0.play.id) }
            let groupSide = FindingSide(role: playIsCatalog ? comparison.configRole : comparison.catalogRole, value: .text(name),
                                        location: grouped.location(of: first.grouped, .group))
            let playSide = FindingSide(role: playIsCatalog ? comparison.catalogRole : comparison.configRole, store: .googlePlay,
                                       value: .text(subscriptions.joined(separator: ", ")), location: play.location(singles[0].play.position))
            findings.append(Finding(
                ruleID: Self.description.id, severity: Self.description.defaultSeverity, productID: nil, field: .group,
                message: "group \"\(name: name)\" of \(source: groupedNoun) is sold as \(count: singles.count) subscriptions of one base plan each "
                    + "in \(source: playNoun): \(listed); a user can hold, and pay for, them all at once, where the group's plans exclude each other",
                left: playIsCatalog ? groupSide : playSide, right: playIsCatalog ? playSide : groupSide,
                hint: "plans of one tier belong as base plans of one Play subscription: one subscription per tier, its periods as base plans (SUBSCRIPTION:monthly, SUBSCRIPTION:yearly)"))
        }
    }

    /// The Play subscription a product belongs to: `pro` of `pro:monthly`; a legacy subscription is its own.
    static func subscription(of playID: String) -> String {
        playID.split(separator: ":", maxSplits: 1).first.map(String.init) ?? playID
    }
}
