import TallyModel

/// Group moves, level order and groups added, removed or renamed.
enum GroupDiffer {
    /// The product moved to a group that is not the counterpart of its old group.
    static func move(_ old: Product, _ new: Product, context: DiffContext) -> Change? {
        let x = old.group.map(\.groupID).flatMap { $0.isEmpty ? nil : $0 }
        let y = new.group.map(\.groupID).flatMap { $0.isEmpty ? nil : $0 }
        if x == nil, y == nil { return nil }
        if let x, let y, context.groups.rightGroup[x] == y { return nil }
        let before = x.map { ChangeValue.text(context.groups.leftLabels[$0] ?? $0) }
        let after = y.map { ChangeValue.text(context.groups.rightLabels[$0] ?? $0) }
        return Change(.group, .changed, productID: new.id, old: before, new: after,
                      oldPosition: old.position(of: .group), newPosition: new.position(of: .group))
    }

    /// Level changes of subscriptions that stayed in their (paired) group, by product ID. One
    /// whose order against the others flipped is marked `groupReordered`; one whose number
    /// changed while the order stayed (a level inserted above it) is a plain change.
    static func levelChanges(_ context: DiffContext) -> [String: Change] {
        guard context.bothKnow(.level) else { return [:] }
        var groups: [String: [Member]] = [:]
        for (id, a) in context.oldProducts {
            guard a.kind.isAutoRenewable, let b = context.newProducts[id], b.kind.isAutoRenewable,
                  let x = a.group, let y = b.group, let left = x.level, let right = y.level,
                  context.groups.rightGroup[x.groupID] == y.groupID else { continue }
            groups[x.groupID, default: []].append(Member(id: id, old: a, new: b, left: left, right: right))
        }
        var result: [String: Change] = [:]
        for (_, unsorted) in groups {
            let members = unsorted.sorted { ($0.left, $0.right, $0.id) < ($1.left, $1.right, $1.id) }
            // The one ranking judgement `tally check` makes too: ties count where both sides write
            // every level down.
            let strict = members.allSatisfy { $0.old.fieldPositions[.level] != nil && $0.new.fieldPositions[.level] != nil }
            let moved = LevelRanking.moved(members.map { ($0.left, $0.right) }, strict: strict)
            let kept = members.indices.map { !moved.contains($0) }
            let witnesses = Witnesses(members, kept: kept)
            for (index, member) in members.enumerated() where !kept[index] || member.left != member.right {
                var note = ChangeNote.sameOrder
                if !kept[index] {
                    note = witnesses.note(for: index, in: members)
                }
                result[member.id] = Change(
                    .level, .changed, productID: member.id, old: .level(member.left), new: .level(member.right),
                    oldPosition: member.old.position(of: .level), newPosition: member.new.position(of: .level),
                    attention: kept[index] ? [] : [.groupReordered], note: note)
            }
        }
        return result
    }

    /// Subscription groups added, removed or renamed, sorted by name.
    static func groupChanges(_ context: DiffContext) -> [Change] {
        let pairing = context.groups
        var changes: [Change] = []
        let oldGroups = Dictionary(context.old.groups.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let newGroups = Dictionary(context.new.groups.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for (id, label) in pairing.leftLabels {
            let position = oldGroups[id]?.position ?? .unknown
            guard let other = pairing.rightGroup[id] else {
                changes.append(Change(.subscriptionGroup, .removed, productID: nil, key: label, old: .text(label), oldPosition: position,
                                      note: members(oldGroups[id])))
                continue
            }
            let renamed = pairing.rightLabels[other] ?? other
            if renamed != label {
                changes.append(Change(.subscriptionGroup, .changed, productID: nil, key: label, old: .text(label), new: .text(renamed),
                                      oldPosition: position, newPosition: newGroups[other]?.position ?? .unknown, note: .renamed))
            }
        }
        for (id, label) in pairing.rightLabels where pairing.leftGroup[id] == nil {
            changes.append(Change(.subscriptionGroup, .added, productID: nil, key: label, new: .text(label),
                                  newPosition: newGroups[id]?.position ?? .unknown, note: members(newGroups[id])))
        }
        return changes.sorted { ($0.key ?? "", $0.action.rawValue) < ($1.key ?? "", $1.action.rawValue) }
    }

    private static func members(_ group: SubscriptionGroup?) -> ChangeNote? {
        guard let group, !group.productIDs.isEmpty else { return nil }
        return .members(group.productIDs.count)
    }

    struct Member {
        var id: String
        var old: Product
        var new: Product
        var left: Int
        var right: Int
    }

    /// For members sorted by old level, the kept member that best shows an order flip: among
    /// kept members ranked strictly above (lower old level), the one now lowest; among those
    /// strictly below, the one now highest. Linear: kept levels never decrease along the order.
    struct Witnesses {
        private var lastKeptBefore: [Int]
        private var firstKeptFrom: [Int]
        private var blockStart: [Int]
        private var blockEnd: [Int]

        init(_ members: [Member], kept: [Bool]) {
            let count = members.count
            lastKeptBefore = [Int](repeating: -1, count: count + 1)
            for index in 0..<count { lastKeptBefore[index + 1] = kept[index] ? index : lastKeptBefore[index] }
            firstKeptFrom = [Int](repeating: -1, count: count + 1)
            for index in stride(from: count - 1, through: 0, by: -1) { firstKeptFrom[index] = kept[index] ? index : firstKeptFrom[index + 1] }
            blockStart = [Int](repeating: 0, count: count)
            blockEnd = [Int](repeating: count, count: count)
            for index in members.indices {
                blockStart[index] = index > 0 && members[index].left == members[index - 1].left ? blockStart[index - 1] : index
            }
            for index in stride(from: count - 2, through: 0, by: -1) {
                blockEnd[index] = members[index].left == members[index + 1].left ? blockEnd[index + 1] : index + 1
            }
        }

        func note(for index: Int, in members: [Member]) -> ChangeNote {
            let member = members[index]
            let above = lastKeptBefore[blockStart[index]]
            if above >= 0, members[above].right > member.right {
                return .nowAbove(members[above].id)
            }
            let below = firstKeptFrom[blockEnd[index]]
            if below >= 0, members[below].right < member.right {
                return .nowBelow(members[below].id)
            }
            return .orderChanged
        }
    }
}
