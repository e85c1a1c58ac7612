/// The subscription groups of two catalogues paired with each other: one judgement, used by
/// `tally check` (configuration ↔ catalogue) and `tally diff` (old ↔ new) alike.
///
/// Group IDs are not stable between sources (StoreKit uses hex IDs, servers use names, a
/// re-created group gets a new ID), members are. Pairs are made in this order, each group
/// taking part in one pair at most:
///
/// 1. Pinned pairs (a policy's `groups:`), in the order given.
/// 2. Groups that share members, the pair sharing most members first. Among pairs sharing
///    equally many members, a pair whose groups are *alike* (the same ID, or the same name
///    ignoring case) comes first; after that, the left group that comes first in its file, then
///    the right group that comes first in its file.
/// 3. Groups still unpaired that share no member: the right group with the same ID, else the
///    first right group with the same name ignoring case, left groups in file order.
///
/// A group's file order is the order of the catalogue's declared groups, then groups only
/// named by their members, in the order of those members.
public struct GroupPairing: Sendable, Hashable {
    /// Left group ID → right group ID.
    public private(set) var rightGroup: [String: String] = [:]
    /// Right group ID → left group ID.
    public private(set) var leftGroup: [String: String] = [:]
    /// Left group IDs paired because they were pinned rather than by their members.
    public private(set) var pinned: Set<String> = []
    /// Every group of each side, ID → name (the ID when unnamed).
    public let leftLabels: [String: String]
    public let rightLabels: [String: String]

    /// Pairs the groups of `left` and `right`. `members` are the products the two sides share
    /// (matched by ID, each ID once); `pinned` are pairs of group IDs paired ahead of members.
    public init(
        left: Catalog, right: Catalog, members: some Sequence<(Product, Product)>,
        pinned pins: [(left: String, right: String)] = []
    ) {
        let leftGroups = Self.groups(left), rightGroups = Self.groups(right)
        leftLabels = Dictionary(leftGroups.map { ($0.id, $0.label) }, uniquingKeysWith: { first, _ in first })
        rightLabels = Dictionary(rightGroups.map { ($0.id, $0.label) }, uniquingKeysWith: { first, _ in first })
        let leftOrder = Dictionary(leftGroups.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: min)
        let rightOrder = Dictionary(rightGroups.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: min)

        for pin in pins where pairUp(pin.left, pin.right) { pinned.insert(pin.left) }

        var counts: [Pair: Int] = [:]
        for (a, b) in members {
            guard let x = a.group?.groupID, !x.isEmpty, let y = b.group?.groupID, !y.isEmpty else { continue }
            counts[Pair(left: x, right: y), default: 0] += 1
        }
        let candidates = counts.map { pair, count in
            (pair, Rank(shared: count, alike: Self.alike(pair.left, leftLabels[pair.left], pair.right, rightLabels[pair.right]),
                        order: [leftOrder[pair.left] ?? Int.max, rightOrder[pair.right] ?? Int.max]))
        }
        for (pair, _) in candidates.sorted(by: { ($0.1, $0.0.left, $0.0.right) < ($1.1, $1.0.left, $1.0.right) }) {
            pairUp(pair.left, pair.right)
        }

        for group in leftGroups where rightGroup[group.id] == nil {
            if rightLabels[group.id] != nil, pairUp(group.id, group.id) { continue }
            let name = group.label.lowercased()
            if let other = rightGroups.first(where: { leftGroup[$0.id] == nil && $0.label.lowercased() == name }) {
                pairUp(group.id, other.id)
            }
        }
    }

    /// Whether two groups look like the same group: the same ID, or the same name ignoring case.
    public static func alike(_ leftID: String, _ leftName: String?, _ rightID: String, _ rightName: String?) -> Bool {
        if leftID == rightID { return true }
        guard let leftName, let rightName, !leftName.isEmpty else { return false }
        return leftName.lowercased() == rightName.lowercased()
    }

    @discardableResult
    private mutating func pairUp(_ left: String, _ right: String) -> Bool {
        guard rightGroup[left] == nil, leftGroup[right] == nil else { return false }
        rightGroup[left] = right
        leftGroup[right] = left
        return true
    }

    private struct Pair: Hashable {
        var left: String
        var right: String
    }

    /// How strongly a pair of groups belongs together; the smaller rank goes first.
    private struct Rank: Comparable {
        var shared: Int
        var alike: Bool
        /// The left group's, then the right group's, place in its file.
        var order: [Int]

        /// Most shared members, then alike groups, then file order on the left, then on the right.
        static func < (lhs: Rank, rhs: Rank) -> Bool {
            if lhs.shared != rhs.shared { return lhs.shared > rhs.shared }
            if lhs.alike != rhs.alike { return lhs.alike }
            return lhs.order.lexicographicallyPrecedes(rhs.order)
        }
    }

    /// Every group a catalogue names, in file order: declared groups, then groups only referred
    /// to by their members. The label is the name, or the ID when unnamed.
    private static func groups(_ catalog: Catalog) -> [(id: String, label: String)] {
        var seen = Set<String>()
        var result: [(id: String, label: String)] = []
        for group in catalog.groups where !group.id.isEmpty && seen.insert(group.id).inserted {
            result.append((group.id, group.name.flatMap { $0.isEmpty ? nil : $0 } ?? group.id))
        }
        for product in catalog.products {
            guard let membership = product.group, !membership.groupID.isEmpty, seen.insert(membership.groupID).inserted else { continue }
            result.append((membership.groupID, membership.groupName.flatMap { $0.isEmpty ? nil : $0 } ?? membership.groupID))
        }
        return result
    }
}
