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
    public static let description = RuleDescription(
        id: .group, defaultSeverity: .error,
        summary: "A subscription is grouped with other subscriptions on one side but not on the other.", category: "cross-source",
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
            checked.append(CheckedSubject(ruleID: Self.description.id, subject: id, location: comparison.configuration.location(config.position)))
            let expected = matching.rightGroup[a]
            guard expected != b else { continue }
            let mates = (configMembers[a] ?? []).filter { $0 != id }
            let mateText = mates.isEmpty ? "" : " with \(Self.list(mates))"
            let expectation = expected.map { group in
                matching.pinned.contains(a) ? "; the policy pairs its group with \"\(group)\"" : "; its configuration group-mates are in \"\(group)\""
            } ?? ""
            findings.append(Finding(
                ruleID: Self.description.id, severity: Self.description.defaultSeverity, productID: id, field: .group,
                message: "\(id) is in group \"\(config.group?.groupName ?? a)\"\(mateText) in the configuration, but in group \"\(b)\" in the catalogue\(expectation)",
                left: comparison.configSide(config, .group, value: a),
                right: comparison.catalogSide(catalog, .group, value: b)))
        }
    }

    static func list(_ ids: [String]) -> String {
        ids.count <= 3 ? ids.joined(separator: ", ") : ids.prefix(3).joined(separator: ", ") + " and \(ids.count - 3) more"
    }
}

/// The order of levels inside a matched group differs.
public struct LevelRule: ComparisonRule {
    public static let description = RuleDescription(
        id: .level, defaultSeverity: .error,
        summary: "The level order of subscriptions inside a group differs (1 = highest level of service).", category: "cross-source",
        rationale: "Levels decide whether a change is an upgrade (immediate, prorated) or a downgrade (at the next renewal): a different order makes the server grant access at the wrong time.",
        fix: "Rank the group's subscriptions in the same order on both sides (1 = highest level of service), as in App Store Connect.")

    public init() {}

    public func evaluate(_ comparison: Comparison, findings: inout [Finding], checked: inout CheckedLog) {
        guard comparison.bothKnow(.level) else { return }
        let matching = comparison.groupPairing
        var members: [String: [Member]] = [:]
        for (config, catalog) in comparison.pairs {
            let id = config.id
            guard let a = config.group, let b = catalog.group, let left = a.level, let right = b.level,
                  matching.rightGroup[a.groupID] == b.groupID else { continue }
            members[a.groupID, default: []].append(Member(id: id, config: config, catalog: catalog, left: left, right: right))
        }
        for group in members.keys.sorted() {
            let shared = members[group]!.sorted { ($0.left, $0.right, $0.id) < ($1.left, $1.right, $1.id) }
            let keep = Self.longestNonDecreasing(shared.map(\.right))
            for (index, member) in shared.enumerated() {
                checked.append(CheckedSubject(ruleID: Self.description.id, subject: member.id,
                                              location: comparison.configuration.location(member.config.position)))
                let levels = "level \(member.left) in the configuration, \(member.right) in the catalogue"
                if !keep.contains(index) {
                    let witness = shared.enumerated().first { other in
                        keep.contains(other.offset) && ((other.element.left < member.left) != (other.element.right < member.right))
                            && other.element.left != member.left
                    }?.element
                    let contrast = witness.map { w in
                        w.left < member.left
                            ? "; it ranks below \(w.id) in the configuration but above it in the catalogue"
                            : "; it ranks above \(w.id) in the configuration but below it in the catalogue"
                    } ?? ""
                    findings.append(finding(member, comparison, "\(member.id) is out of order in its group: \(levels)\(contrast)"))
                } else if member.left != member.right, member.config.fieldPositions[.level] != nil,
                          member.catalog.fieldPositions[.level] != nil {
                    // Only levels both sources write down differ; a level taken from the order of a list
                    // (a property list's group, a catalogue group without level keys) only has to rank alike.
                    findings.append(finding(member, comparison, "\(member.id) has \(levels) (the order is the same, the level differs)"))
                }
            }
        }
    }

    private struct Member {
        var id: String
        var config: Product
        var catalog: Product
        var left: Int
        var right: Int
    }

    private func finding(_ member: Member, _ comparison: Comparison, _ message: String) -> Finding {
        Finding(ruleID: Self.description.id, severity: Self.description.defaultSeverity, productID: member.id, field: .level,
                message: message,
                left: comparison.configSide(member.config, .level, value: String(member.left)),
                right: comparison.catalogSide(member.catalog, .level, value: String(member.right)))
    }

    /// Indices of one longest non-decreasing subsequence (O(n log n)); earlier elements win ties.
    static func longestNonDecreasing(_ values: [Int]) -> Set<Int> {
        var tails: [Int] = []          // index of the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let mid = (low + high) / 2
                if values[tails[mid]] <= value { low = mid + 1 } else { high = mid }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var result = Set<Int>()
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            result.insert(cursor)
            cursor = previous[cursor]
        }
        return result
    }
}
