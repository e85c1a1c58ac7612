import TallyModel

/// The subscriptions of one matched group, with their levels on both sides, and which of them
/// rank differently. What `LevelRule` and `LevelNumberRule` both read.
///
/// Levels are a ranking (1 = highest level of service; equal levels are crossgrades): two
/// subscriptions rank alike when one is above, below or level with the other on both sides.
/// Where a side's levels are only the order of a list (a property list's group, a catalogue
/// group without level keys), it cannot say "level with", so a tie there agrees with any order.
/// The subscriptions that "moved" are the fewest whose removal leaves a ranking both sides
/// agree on; each gets one finding, naming a group-mate it ranks differently against.
struct LevelAnalysis {
    struct Member {
        var id: String
        var config: Product
        var catalog: Product
        var left: Int
        var right: Int
    }

    struct Group {
        /// Sorted by the configuration's level, then the catalogue's, then ID.
        var members: [Member]
        /// Indices into `members` of the subscriptions that rank differently.
        var moved: Set<Int>
        /// Whether both sides write every level down, so that ties (crossgrades) count.
        var strict: Bool

        /// Whether two members rank differently (see `LevelAnalysis`).
        func conflict(_ a: Member, _ b: Member) -> Bool {
            if strict { return LevelAnalysis.relation(a.left, to: b.left) != LevelAnalysis.relation(a.right, to: b.right) }
            return (a.left < b.left && a.right > b.right) || (a.left > b.left && a.right < b.right)
        }
    }

    /// Every matched group with subscriptions on both sides, ordered by the configuration's group ID.
    static func groups(_ comparison: Comparison) -> [Group] {
        guard comparison.bothKnow(.level) else { return [] }
        let matching = comparison.groupPairing
        var byGroup: [String: [Member]] = [:]
        for (config, catalog) in comparison.pairs {
            guard let a = config.group, let b = catalog.group, let left = a.level, let right = b.level,
                  matching.rightGroup[a.groupID] == b.groupID else { continue }
            byGroup[a.groupID, default: []].append(Member(id: config.id, config: config, catalog: catalog, left: left, right: right))
        }
        return byGroup.keys.sorted().map { key in
            let members = (byGroup[key] ?? []).sorted { ($0.left, $0.right, $0.id) < ($1.left, $1.right, $1.id) }
            let strict = members.allSatisfy { $0.config.fieldPositions[.level] != nil && $0.catalog.fieldPositions[.level] != nil }
            return Group(members: members, moved: moved(members, strict: strict), strict: strict)
        }
    }

    /// The members outside one largest set that ranks alike on both sides (`LevelRanking`,
    /// which `tally diff` asks too).
    static func moved(_ members: [Member], strict: Bool) -> Set<Int> {
        LevelRanking.moved(members.map { ($0.left, $0.right) }, strict: strict)
    }

    /// "above", "below" or "level with": where a level stands against another (1 is the top).
    static func relation(_ level: Int, to other: Int) -> String {
        LevelRanking.relation(level, to: other)
    }
}

/// Subscriptions rank differently inside a matched group: an upgrade on one side is a
/// downgrade (or a crossgrade) on the other.
public struct LevelRule: ComparisonRule {
    public static let description = describe(
        id: .level, defaultSeverity: .error,
        summary: "A subscription ranks differently inside its group (1 = highest level of service): the level order differs.",
        rationale: "Levels decide whether a change is an upgrade (immediate, prorated), a downgrade (at the next renewal) or a crossgrade: a different ranking makes the server grant access at the wrong time.",
        fix: "Rank the group's subscriptions in the same order on both sides (1 = highest level of service), as in App Store Connect.")

    public init() {}

    public func evaluate(_ comparison: Comparison, findings: inout [Finding], checked: inout CheckedLog) {
        for group in LevelAnalysis.groups(comparison) {
            for (index, member) in group.members.enumerated() {
                mark(member.id, at: comparison.configuration.location(member.config.position), &checked)
                guard group.moved.contains(index) else { continue }
                findings.append(finding(member, against: witness(for: member, in: group), comparison))
            }
        }
    }

    /// A group-mate that keeps its rank and that `member` ranks differently against (one always
    /// exists: otherwise `member` would rank alike with all of them and would not have moved).
    private func witness(for member: LevelAnalysis.Member, in group: LevelAnalysis.Group) -> LevelAnalysis.Member? {
        group.members.enumerated().first { index, other in
            !group.moved.contains(index) && group.conflict(member, other)
        }?.element
    }

    private func finding(_ member: LevelAnalysis.Member, against other: LevelAnalysis.Member?, _ comparison: Comparison) -> Finding {
        let (here, there) = (comparison.configNoun, comparison.catalogNoun)
        let message: FindingMessage
        if let other {
            message = "\(product: member.id) ranks \(words: LevelAnalysis.relation(member.left, to: other.left)) \(product: other.id) in \(source: here) "
                + "(level \(count: member.left) vs \(count: other.left)) but \(words: LevelAnalysis.relation(member.right, to: other.right)) it in \(source: there) "
                + "(level \(count: member.right) vs \(count: other.right))"
        } else {
            message = "\(product: member.id) ranks differently in its group: level \(count: member.left) in \(source: here), \(count: member.right) in \(source: there)"
        }
        return Finding(ruleID: Self.description.id, severity: Self.description.defaultSeverity, productID: member.id, field: .level,
                       message: message,
                       left: comparison.configSide(member.config, .level, value: String(member.left)),
                       right: comparison.catalogSide(member.catalog, .level, value: String(member.right)))
    }
}

/// A matched group ranks its subscriptions alike on both sides, but numbers the levels
/// differently (1, 2, 3 against 2, 3, 4). Reported only where both sources write the levels down
/// and nothing in the group ranks differently (then `level` reports the moves).
public struct LevelNumberRule: ComparisonRule {
    public static let description = describe(
        id: .levelNumber, defaultSeverity: .warning,
        summary: "A group ranks its subscriptions alike on both sides, but the level numbers differ.",
        rationale: "The ranking decides upgrades and downgrades, and it agrees; but code that compares level numbers across the sources (or with StoreKit's) will get them wrong.",
        fix: "Number the levels as App Store Connect does (1 = highest level of service, then 2, 3, … down the group) on both sides.")

    public init() {}

    public func evaluate(_ comparison: Comparison, findings: inout [Finding], checked: inout CheckedLog) {
        for group in LevelAnalysis.groups(comparison) where group.moved.isEmpty {
            for member in group.members {
                // A level taken from the order of a list (a property list's group, a catalogue
                // group without level keys) has no number of its own to compare.
                guard member.config.fieldPositions[.level] != nil, member.catalog.fieldPositions[.level] != nil else { continue }
                mark(member.id, at: comparison.configuration.location(member.config.position), &checked)
                guard member.left != member.right else { continue }
                findings.append(Finding(
                    ruleID: Self.description.id, severity: Self.description.defaultSeverity, productID: member.id, field: .level,
                    message: "\(product: member.id) is numbered level \(count: member.left) in \(source: comparison.configNoun) but \(count: member.right) in \(source: comparison.catalogNoun); "
                        + "the group ranks its subscriptions alike on both sides, only the numbers differ",
                    left: comparison.configSide(member.config, .level, value: String(member.left)),
                    right: comparison.catalogSide(member.catalog, .level, value: String(member.right))))
            }
        }
    }
}
