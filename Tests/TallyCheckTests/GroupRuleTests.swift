import Testing
@testable import TallyCheck
import TallyModel

@Suite struct GroupRuleTests {
    static func plans(group: String, levels: [Int] = [1, 2, 3, 4], prefix: String = "plan") -> [Product] {
        levels.enumerated().map { .subscription("\(prefix).tier\($0.offset + 1)", group: group, level: $0.element) }
    }

    @Test func groupsAreMatchedByMembersNotIDs() {
        #expect(findings(Self.plans(group: "7096FF06"), Self.plans(group: "premium")).isEmpty)
    }

    @Test func aSubscriptionFiledInAnotherGroupIsReported() {
        var catalog = Self.plans(group: "premium")
        catalog[2].group?.groupID = "misfiled"
        let result = findings(Self.plans(group: "ABCD"), catalog)
        #expect(pairs(result) == ["group plan.tier3"])
        #expect(result[0].message.contains("with plan.tier1, plan.tier2, plan.tier4"))
        #expect(result[0].right?.value == "misfiled")
    }

    @Test func twoGroupsMergedIntoOneReportsTheSmallerSide() {
        let config = Self.plans(group: "A") + Self.plans(group: "B", levels: [1, 2], prefix: "kids")
        let catalog = (Self.plans(group: "all") + Self.plans(group: "all", levels: [5, 6], prefix: "kids"))
        #expect(pairs(findings(config, catalog)) == ["group kids.tier1", "group kids.tier2"])
    }

    @Test func levelOrderChangeBlamesTheMovedSubscription() {
        // tier3 drops to the bottom in the catalogue: only tier3 is out of order.
        let result = findings(Self.plans(group: "A"), Self.plans(group: "B", levels: [1, 2, 7, 4]))
        #expect(pairs(result) == ["level plan.tier3"])
        #expect(result[0].message.contains("out of order"))
        #expect(findings(Self.plans(group: "A"), Self.plans(group: "B", levels: [5, 2, 3, 4])).map(\.productID) == ["plan.tier1"])
    }

    @Test func sameOrderButOtherLevelNumberIsReported() {
        let result = findings(Self.plans(group: "A"), Self.plans(group: "B", levels: [1, 2, 3, 8]))
        #expect(pairs(result) == ["level plan.tier4"])
        #expect(result[0].message.contains("level 4 in the configuration, 8 in the catalogue"))
    }

    @Test func sharedLevelsAreAllowed() {
        #expect(findings(Self.plans(group: "A", levels: [1, 1, 2, 2]), Self.plans(group: "B", levels: [1, 1, 2, 2])).isEmpty)
    }

    @Test func ranksOnlySharedMembers() {
        // tier2 is missing from the catalogue: the remaining ranks still agree.
        var catalog = Self.plans(group: "B")
        catalog.remove(at: 1)
        #expect(pairs(findings(Self.plans(group: "A"), catalog)) == ["missing-in-catalog plan.tier2"])
    }

    @Test func levelsTheCatalogueLeavesOutAreOnlyComparedByOrder() {
        var catalog = Self.plans(group: "B", levels: [1, 2, 3, 4])
        for index in catalog.indices { catalog[index].fieldPositions[.level] = nil }
        #expect(findings(Self.plans(group: "A", levels: [1, 1, 2, 2]), catalog).isEmpty)
    }
}

@Suite struct LongestNonDecreasingTests {
    @Test func keepsTheLongestRun() {
        #expect(LevelRule.longestNonDecreasing([1, 2, 7, 4]).count == 3)
        #expect(!LevelRule.longestNonDecreasing([1, 2, 7, 4]).contains(2))
        #expect(LevelRule.longestNonDecreasing([]).isEmpty)
        #expect(LevelRule.longestNonDecreasing([3, 3, 3]).count == 3)
    }
}
