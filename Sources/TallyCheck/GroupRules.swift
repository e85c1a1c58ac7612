import TallyModel

extension Comparison {
    /// The configuration's groups paired with the catalogue's (`GroupPairing`): the pairs the
    /// policy names first (`groupCorrespondences`), then by members.
    static func pairGroups(_ configuration: Catalog, _ catalog: Catalog, _ pairs: [(config: Product, catalog: Product)],
                           _ correspondences: [GroupCorrespondence]) -> GroupPairing {
        let pins = correspondences.compactMap { correspondence -> (left: String, right: String)? in
            guard let a = correspondence.configurationGroup(in: configuration), let b = correspondence.catalogGroup(in: catalog) else { return nil }
            return (a, b)
        }
        return GroupPairing(left: configuration, right: catalog, members: pairs.lazy.map { ($0.config, $0.catalog) }, pinned: pins)
    }
}

/// Products grouped together on one side but not on the other.
public struct GroupRule: ComparisonRule {
    public static let description = describe(
        id: .group, defaultSeverity: .error,
        summary: "A subscription is grouped with other subscriptions on one side but not on the other.",
        rationale: "Subscriptions in one group are alternatives (upgrade, downgrade, crossgrade); in different groups a user can hold, and be charged for, both at once.",
        fix: "Put the subscription in the group that holds its group-mates on both sides. If the groups are meant to correspond but the members disagree, or you want the pairing explicit, list it under 'groups:' in .tally.yml.")

    public init() {}

    public func evaluate(_ comparison: Comparison, findings: inout [Finding], checked: inout CheckedLog) {
        guard comparison.bothKnow(.group) else { return }
        let matching = comparison.groupPairing
        var configMembers: [String: [String]] = [:]
        for (config, _) in comparison.pairs {
            if let group = config.group?.groupID { configMembers[group, default: []].append(config.id) }
        }
        for (config, catalog) in comparison.pairs {
            let id = config.id
            guard let a = config.group?.groupID, !a.isEmpty, let b = catalog.group?.groupID, !b.isEmpty else { continue }
            mark(id, at: comparison.configuration.location(config.position), &checked)
            let expected = matching.rightGroup[a]
            guard expected != b else { continue }
            let mates = (configMembers[a] ?? []).filter { $0 != id }
            let mateText: FindingMessage = mates.isEmpty ? "" : " with \(Self.listed(mates))"
            // Groups by their names on both sides (a StoreKit group's ID is an internal hex code).
            let leftName = Self.name(of: a, in: comparison.configuration)
            let rightName = Self.name(of: b, in: comparison.catalog)
            let expectation: FindingMessage = expected.map { group -> FindingMessage in
                let name = Self.name(of: group, in: comparison.catalog)
                return matching.pinned.contains(a) ? "; the policy pairs its group with \"\(name: name)\"" : "; its configuration group-mates are in \"\(name: name)\" there"
            } ?? ""
            findings.append(Finding(
                ruleID: Self.description.id, severity: Self.description.defaultSeverity, productID: id, field: .group,
                message: "\(product: id) is in group \"\(name: leftName)\"\(mateText) in \(source: comparison.configNoun), but in group \"\(name: rightName)\" in \(source: comparison.catalogNoun)\(expectation)",
                left: comparison.configSide(config, .group, value: leftName),
                right: comparison.catalogSide(catalog, .group, value: rightName)))
        }
    }

    /// A group for people: its name (the declared group's, else a member's), else its ID.
    static func name(of id: String, in source: Catalog) -> String {
        if let name = source.groups.first(where: { $0.id == id })?.name, !name.isEmpty { return name }
        for product in source.products where product.group?.groupID == id {
            if let name = product.group?.groupName, !name.isEmpty { return name }
        }
        return id
    }

    /// The product IDs as `list` writes them, each a product value.
    static func listed(_ ids: [String]) -> FindingMessage {
        let shown = FindingMessage.joined(ids.prefix(3).map { "\(product: $0)" }, separator: ", ")
        return ids.count <= 3 ? shown : shown + " and \(count: ids.count - 3) more"
    }

    static func list(_ ids: [String]) -> String {
        ids.count <= 3 ? ids.joined(separator: ", ") : ids.prefix(3).joined(separator: ", ") + " and \(ids.count - 3) more"
    }
}
