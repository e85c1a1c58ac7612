import TallyDiff
import TallyReport
import TallyModel
import Testing

@Suite("Subscription groups: matched by members, moves, level order")
struct GroupDiffTests {
    /// A group of subscriptions `ids` at levels 1, 2, 3... in the order given.
    static func group(_ id: String, _ ids: [String], levels: [Int]? = nil) -> [Product] {
        ids.enumerated().map { index, product in .subscription(product, group: id, level: levels?[index] ?? index + 1, line: index * 10 + 1) }
    }

    @Test("Groups are matched by their members: a new group ID (StoreKit's hex IDs) is not a move")
    func matchedByMembers() {
        let result = diff(Self.group("21A4F0C1", ["m", "y"]), Self.group("0F3B7A22", ["m", "y"]))
        #expect(lines(result) == ["(catalogue) › subscription groups › 21A4F0C1: changed"])
        #expect(result.sourceChanges.first?.summary == "group renamed \"21A4F0C1\" → \"0F3B7A22\"")
    }

    @Test("A subscription that moved to another group is reported with both group names")
    func moved() throws {
        // Given: kids.monthly leaves "plus" for a new group "kids"
        let old = Self.group("plus", ["plus.monthly", "plus.yearly", "kids.monthly"])
        let new = Self.group("plus", ["plus.monthly", "plus.yearly"]) + Self.group("kids", ["kids.monthly"])
        // When
        let result = diff(old, new)
        // Then
        #expect(lines(result) == ["(catalogue) › subscription groups › kids: added", "kids.monthly › group: changed"])
        let move = try #require(result.products.first?.changes.first)
        #expect(move.summary == "moved from group \"plus\" to group \"kids\"")
    }

    @Test("A subscription whose order in its group flipped needs attention; the others do not")
    func reordered() throws {
        // Given: weekly goes from the lowest level (3) to the highest (1)
        let result = diff(Self.group("g", ["yearly", "monthly", "weekly"]), Self.group("g", ["yearly", "monthly", "weekly"], levels: [2, 3, 1]))
        // Then: one reordered subscription; the others only renumbered
        let changes = result.allChanges
        #expect(lines(result) == ["monthly › level: changed", "weekly › level: changed", "yearly › level: changed"])
        let weekly = try #require(changes.first { $0.productID == "weekly" })
        #expect(weekly.attention == [.groupReordered])
        #expect(weekly.summary == "3 → 1 (was below monthly, now above it)")
        #expect(changes.filter { $0.productID != "weekly" }.allSatisfy { $0.attention.isEmpty && $0.noteText == "same order in the group" })
    }

    @Test("Of two equally long explanations, the one where the unchanged subscriptions kept their place wins")
    func preferUnchanged() throws {
        // Given: weekly jumps from level 3 to 1, beside yearly; monthly stays at 2
        let result = diff(Self.group("g", ["yearly", "monthly", "weekly"]), Self.group("g", ["yearly", "monthly", "weekly"], levels: [1, 2, 1]))
        // Then: weekly moved, not monthly
        #expect(lines(result) == ["weekly › level: changed"])
        let weekly = try #require(result.allChanges.first)
        #expect(weekly.attention == [.groupReordered])
        #expect(weekly.noteText == "was below monthly, now above it")
    }

    @Test("The level order of a large group is found in n log n, and a single move is the one reported")
    func largeGroup() {
        let ids = (0..<2_000).map { "s\($0)" }
        var levels = Array(1...2_000)
        levels[1_500] = 10
        let result = diff(Self.group("g", ids), Self.group("g", ids, levels: levels))
        #expect(lines(result) == ["s1500 › level: changed"])
        #expect(result.summary.attention == 1)
    }

    @Test("A level inserted above shifts the numbers but not the order: no attention")
    func renumbered() {
        let result = diff(Self.group("g", ["monthly", "weekly"]), Self.group("g", ["premium", "monthly", "weekly"]))
        #expect(lines(result) == ["monthly › level: changed", "premium: added", "weekly › level: changed"])
        #expect(result.summary.attention == 0)
    }

    @Test("Groups whose members all left or arrived are removed or added")
    func groupsAddedAndRemoved() {
        let result = diff(Self.group("old", ["a"]), Self.group("new", ["b"]))
        #expect(lines(result) == [
            "(catalogue) › subscription groups › new: added", "(catalogue) › subscription groups › old: removed", "a: removed", "b: added",
        ])
    }

    @Test("Two old groups merged into one: the larger is the same group, the smaller's members moved")
    func merged() {
        let result = diff(Self.group("big", ["a", "b"]) + Self.group("small", ["c"]), Self.group("big", ["a", "b", "c"]))
        #expect(lines(result) == ["(catalogue) › subscription groups › small: removed", "c › group: changed"])
    }
}
