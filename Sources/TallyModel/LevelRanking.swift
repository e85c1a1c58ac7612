/// Which subscriptions of a group moved in the ranking between two sides: the one judgement
/// `tally check` (the `level` rule) and `tally diff` (a reordered group) both use.
///
/// Levels are a ranking (1 = highest level of service; equal levels are crossgrades). With
/// `strict` (both sides write every level down) ties count: level-with on one side and above on
/// the other is a move. Otherwise a side's levels may only be a list's order, and a tie there
/// agrees with any order. The subscriptions that moved are the fewest whose removal leaves a
/// ranking both sides agree on; among equally small answers, those whose levels did not change
/// stay.
public enum LevelRanking {
    /// Indices of `members` (sorted by left level, then right) outside one largest set that
    /// ranks alike on both sides, in O(n log n): a
    /// weighted longest chain over the classes of equal (left, right) levels, which stand or fall
    /// together. Taken in the configuration's order, the catalogue's levels must rise where the
    /// configuration's rise; when `strict`, strictly, and stay equal where they are equal.
    public static func moved(_ members: [(left: Int, right: Int)], strict: Bool) -> Set<Int> {
        var classes: [(left: Int, right: Int, members: [Int])] = []
        var classIndex: [Pair: Int] = [:]
        for (index, member) in members.enumerated() {
            let pair = Pair(left: member.left, right: member.right)
            if let existing = classIndex[pair] {
                classes[existing].members.append(index)
            } else {
                classIndex[pair] = classes.count
                classes.append((member.left, member.right, [index]))
            }
        }
        // Strict: right levels descending within one configuration level, and a chain that rises
        // strictly, take at most one class per configuration level and per catalogue level.
        // Lenient: ascending, and a chain that never falls.
        let order = classes.indices.sorted {
            let (a, b) = (classes[$0], classes[$1])
            return a.left != b.left ? a.left < b.left : (strict ? a.right > b.right : a.right < b.right)
        }
        let rights = Array(Set(classes.map(\.right))).sorted()
        let rank = Dictionary(uniqueKeysWithValues: rights.enumerated().map { ($1, $0 + 1) })
        // A Fenwick tree of the best chain (weight, last class) ending at each catalogue level.
        var tree = [(weight: Int, last: Int)](repeating: (0, -1), count: rights.count + 1)
        var previous = [Int](repeating: -1, count: classes.count)
        var best = (weight: 0, last: -1)
        for index in order {
            let position = rank[classes[index].right] ?? 1
            var query = (weight: 0, last: -1)
            var cursor = strict ? position - 1 : position
            while cursor > 0 {
                if tree[cursor].weight > query.weight { query = tree[cursor] }
                cursor -= cursor & -cursor
            }
            previous[index] = query.last
            // Ties between equally large sets keep the subscriptions whose levels did not change.
            let unchanged = classes[index].left == classes[index].right ? classes[index].members.count : 0
            let chain = (weight: query.weight + classes[index].members.count * (members.count + 1) + unchanged, last: index)
            if chain.weight > best.weight { best = chain }
            cursor = position
            while cursor < tree.count {
                if chain.weight > tree[cursor].weight { tree[cursor] = chain }
                cursor += cursor & -cursor
            }
        }
        var kept = Set<Int>()
        var cursor = best.last
        while cursor >= 0 {
            kept.formUnion(classes[cursor].members)
            cursor = previous[cursor]
        }
        return Set(members.indices).subtracting(kept)
    }

    struct Pair: Hashable {
        var left: Int
        var right: Int
    }

    /// "above", "below" or "level with": where a level stands against another (1 is the top).
    public static func relation(_ level: Int, to other: Int) -> String {
        level == other ? "level with" : level < other ? "above" : "below"
    }
}
