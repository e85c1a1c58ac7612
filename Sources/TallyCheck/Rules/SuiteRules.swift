import TallyModel

/// A subscription suite or bundle (StoreKit 6.3) includes other subscriptions on one side than
/// on the other: members are compared as sets of product IDs, where both sides state the kind
/// and both products are suites or bundles.
public struct SuiteMembersRule: ProductPairRule {
    public static let description = describe(
        id: .suiteMembers, defaultSeverity: .error,
        summary: "A subscription suite or bundle includes other subscriptions on one side than on the other.",
        rationale: "A suite or bundle grants access to its member subscriptions: with other members on one side, the app, StoreKit testing or the server unlocks what the store does not sell in it, or withholds what it does.",
        fix: "Make both sides list the members App Store Connect has for the suite or bundle (its included subscriptions), by product ID.")

    public init() {}

    public func applies(to config: Product, _ catalog: Product, in comparison: Comparison) -> Bool {
        comparison.bothKnow(.kind) && config.kind.includesSubscriptions && catalog.kind.includesSubscriptions
    }

    public func compare(_ config: Product, _ catalog: Product, in comparison: Comparison) -> [Finding] {
        let left = Set(config.members), right = Set(catalog.members)
        guard left != right else { return [] }
        let onlyLeft = config.members.filter { !right.contains($0) }, onlyRight = catalog.members.filter { !left.contains($0) }
        var parts: [String] = []
        if !onlyLeft.isEmpty { parts.append("\(onlyLeft.joined(separator: ", ")) only in \(comparison.configNoun)") }
        if !onlyRight.isEmpty { parts.append("\(onlyRight.joined(separator: ", ")) only in \(comparison.catalogNoun)") }
        return [finding(config.id, .kind, "\(product: config.id) includes other subscriptions on each side: \(words: parts.joined(separator: "; "))",
                        left: comparison.configSide(config, .kind, value: config.members.joined(separator: ", ")),
                        right: comparison.catalogSide(catalog, .kind, value: catalog.members.joined(separator: ", ")))]
    }
}

/// A suite or bundle member that the same source does not have. Members may be subscriptions of
/// the organisation's other apps, so it is a warning, not an error.
public struct SuiteMemberRule: LintRule {
    public static let description = describe(
        id: .suiteMember, defaultSeverity: .warning,
        summary: "A subscription suite or bundle includes a subscription that its own source does not have.",
        rationale: "A member that no product of the file is cannot be purchased or tested with it: a typo in the member's ID, a subscription removed since, or one of another app of the organisation.",
        fix: "Correct the member's product ID, add the subscription, or, for a member sold by another app of the organisation, ignore the finding with that reason.")

    public init() {}

    public func lint(_ catalog: Catalog, findings: inout [Finding], checked: inout CheckedLog) {
        let ids = Set(catalog.products.map(\.id))
        for product in catalog.products where product.kind.includesSubscriptions {
            markChecked(catalog, product, &checked)
            for member in product.members where !ids.contains(member) {
                let near = NearMatch.productID(for: member, among: ids)
                var found = finding(catalog, product.id, .kind, "\(product: product.id) includes \(product: member), which no product of this source is",
                                    at: product.position, path: product.path, value: member)
                if let near { found.hint = "did you mean \(near)?" }
                findings.append(found)
            }
        }
    }
}

/// Two product IDs of one source that differ only by case (`ekme.TenScrolls.plus.monthly`,
/// `ekme.Tenscrolls.plus.monthly`): App Store Connect keeps both, and the app's code asks for one.
public struct IDCaseRule: LintRule {
    public static let description = describe(
        id: .idCase, defaultSeverity: .warning,
        summary: "Two product IDs of one source differ only by case.",
        rationale: "Product IDs are compared exactly: two that differ only by case are two products, and code that asks for one spelling gets nothing for the other; usually one of them is a typo.",
        fix: "Use one spelling everywhere: the one App Store Connect has.")

    public init() {}

    public func lint(_ catalog: Catalog, findings: inout [Finding], checked: inout CheckedLog) {
        var byFolded: [String: Product] = [:]
        var reported = Set<String>()
        for product in catalog.products {
            let folded = product.id.lowercased()
            if let first = byFolded[folded] {
                guard first.id != product.id, reported.insert(product.id).inserted else { continue }
                findings.append(finding(catalog, product.id, .id,
                                        "\(product: product.id) differs from \(product: first.id) only by case (at \(source: catalog.location(of: first, .id).description))",
                                        at: product.position(of: .id), path: product.path(of: .id), value: product.id))
            } else {
                byFolded[folded] = product
            }
        }
    }
}

/// What a reader saw and does not read: a key it does not know (a future `subscriptionXGroups`
/// that may hold products), a newer format version, a product type it does not know. Named, with
/// how many entries it holds, never left out in silence.
public struct UnknownContentRule: SourceIssueRule {
    public static let description = describe(
        id: .unknownContent, defaultSeverity: .warning,
        summary: "A source holds something Tally does not read: a key it does not know, a newer format version, or a product of an unknown type.",
        rationale: "A newer Xcode or store export adds keys and types; what Tally does not read is not checked, and a product it leaves out would otherwise vanish from every comparison without a word.",
        fix: "Check whether the key or type holds products the app sells; if it does, tell the Tally project (a reader can learn it), and until then compare those products by hand. Ignore the finding once you have.")
    public init() {}
}

/// Subscription groups of one source that share one ID (a RevenueCat-generated configuration
/// gives three groups the ID `6306BD58`): they cannot be told apart.
public struct DuplicateGroupIDRule: LintRule {
    public static let description = describe(
        id: .duplicateGroupID, defaultSeverity: .warning,
        summary: "Several subscription groups of one source share one group ID.",
        rationale: "A subscription group is known by its ID: groups that share one cannot be told apart, so their subscriptions look like one group to anything that reads the file (levels, upgrades and the one-subscription-per-group rule then span groups that are meant to be separate).",
        fix: "Give each group its own ID (in Xcode, recreate the group, or regenerate the configuration from App Store Connect).")

    public init() {}

    public func lint(_ catalog: Catalog, findings: inout [Finding], checked: inout CheckedLog) {
        var byID: [String: [SubscriptionGroup]] = [:]
        var order: [String] = []
        for group in catalog.groups {
            if byID[group.id] == nil { order.append(group.id) }
            byID[group.id, default: []].append(group)
        }
        for id in order {
            guard let groups = byID[id], groups.count > 1 else { continue }
            let names = groups.map { $0.name ?? $0.id }.joined(separator: ", ")
            let product = groups.first?.productIDs.first
            findings.append(Finding(
                ruleID: Self.description.id, severity: Self.description.defaultSeverity, productID: product, field: .group,
                message: "\(count: groups.count) subscription groups share the ID \(name: id): \(words: names)",
                left: FindingSide(role: nil, value: id, location: catalog.location(groups[1].position)), right: nil))
        }
    }
}
