import TallyModel

/// Pairs each configuration subscription group with the catalogue group that holds most of its
/// members. Group IDs differ between sources (StoreKit uses hex IDs, servers use names), so groups
/// are matched by members; the ID or name only breaks ties. Pairs the policy names explicitly
/// (`Comparison.groupCorrespondences`) come first.
public struct GroupMatching: Sendable {
    /// Configuration group ID → catalogue group ID.
    public private(set) var catalogGroup: [String: String] = [:]
    /// Configuration group IDs paired by the policy rather than by members.
    public private(set) var pinned: Set<String> = []

    static let empty = GroupMatching()

    private init() {}

    init(_ comparison: Comparison) {
        var taken = Set<String>()
        for correspondence in comparison.groupCorrespondences {
            guard let a = correspondence.configurationGroup(in: comparison.configuration),
                  let b = correspondence.catalogGroup(in: comparison.catalog),
                  catalogGroup[a] == nil, !taken.contains(b) else { continue }
            catalogGroup[a] = b
            pinned.insert(a)
            taken.insert(b)
        }
        var counts: [Pair: Int] = [:]
        for (config, catalog) in comparison.pairs {
            guard let a = config.group?.groupID, !a.isEmpty, let b = catalog.group?.groupID, !b.isEmpty else { continue }
            counts[Pair(config: a, catalog: b), default: 0] += 1
        }
        let names = Dictionary(comparison.configuration.groups.map { ($0.id, $0.name?.lowercased() ?? "") }, uniquingKeysWith: { a, _ in a })
        let otherNames = Dictionary(comparison.catalog.groups.map { ($0.id, $0.name?.lowercased() ?? "") }, uniquingKeysWith: { a, _ in a })
        func alike(_ pair: Pair) -> Bool {
            pair.config == pair.catalog || (!(names[pair.config] ?? "").isEmpty && names[pair.config] == otherNames[pair.catalog])
        }
        let ordered = counts.sorted { lhs, rhs in
            if lhs.value != rhs.value { return lhs.value > rhs.value }
            let (l, r) = (alike(lhs.key), alike(rhs.key))
            if l != r { return l }
            return (lhs.key.config, lhs.key.catalog) < (rhs.key.config, rhs.key.catalog)
        }
        for (pair, _) in ordered where catalogGroup[pair.config] == nil && !taken.contains(pair.catalog) {
            catalogGroup[pair.config] = pair.catalog
            taken.insert(pair.catalog)
        }
    }

    private struct Pair: Hashable {
        var config: String
        var catalog: String
    }
}

/// Products grouped together on one side but not on the other.
public struct GroupRule: ComparisonRule {
    public static let description = RuleDescription(
        id: "group", defaultSeverity: .error,
        summary: "A subscription is grouped with other subscriptions on one side but not on the other.", category: "cross-source",
        rationale: "Subscriptions in one group are alternatives (upgrade, downgrade, crossgrade); in different groups a user can hold, and be charged for, both at once.",
        fix: "Put the subscription in the group that holds its group-mates on both sides. If the groups are meant to correspond but the members disagree, or you want the pairing explicit, list it under 'groups:' in .tally.yml.")

    public init() {}

    public func evaluate(_ comparison: Comparison, findings: inout [Finding], checked: inout CheckedLog) {
        guard comparison.bothKnow(.group) else { return }
        let matching = comparison.groupMatching
        var configMembers: [String: [String]] = [:]
        for (config, _) in comparison.pairs {
            if let group = config.group?.groupID { configMembers[group, default: []].append(config.id) }
        }
        for (config, catalog) in comparison.pairs {
            let id = config.id
            guard let a = config.group?.groupID, !a.isEmpty, let b = catalog.group?.groupID, !b.isEmpty else { continue }
            checked.append(CheckedSubject(ruleID: Self.description.id, subject: id, location: comparison.configuration.location(config.position)))
            let expected = matching.catalogGroup[a]
            guard expected != b else { continue }
            let mates = (configMembers[a] ?? []).filter { $0 != id }
            let mateText = mates.isEmpty ? "" : " with \(Self.list(mates))"
            let expectation = expected.map { group in
                matching.pinned.contains(a) ? "; the policy pairs its group with \"\(group)\"" : "; its configuration group-mates are in \"\(group)\""
            } ?? ""
            findings.append(Finding(
                ruleID: Self.description.id, severity: Self.description.defaultSeverity, productID: id, field: .group,
                message: "\(id) is in group \"\(config.group?.groupName ?? a)\"\(mateText) in \(comparison.configNoun), but in group \"\(b)\" in \(comparison.catalogNoun)\(expectation)",
                left: comparison.configSide(config, .group, value: a),
                right: comparison.catalogSide(catalog, .group, value: b)))
        }
    }

    static func list(_ ids: [String]) -> String {
        ids.count <= 3 ? ids.joined(separator: ", ") : ids.prefix(3).joined(separator: ", ") + " and \(ids.count - 3) more"
    }
}
