import TallyReport
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

    @Test func groupsAreNamedByTheirNamesOnBothSidesNotTheirIDs() throws {
        // Given: a StoreKit group with an internal hex ID and a name; the catalogue's groups named too.
        func named(_ products: [Product], _ names: [String: String]) -> [Product] {
            products.map { product in
                var product = product
                if let id = product.group?.groupID { product.group?.groupName = names[id] }
                return product
            }
        }
        var catalog = Self.plans(group: "premium")
        catalog[2].group?.groupID = "misfiled"
        let config = named(Self.plans(group: "21A4F0C1"), ["21A4F0C1": "Calmly Plus"])
        // When
        let result = findings(config, named(catalog, ["premium": "Calmly Plus", "misfiled": "Calmly Kids"]))
        // Then
        let finding = try #require(result.first)
        #expect(finding.message == "plan.tier3 is in group \"Calmly Plus\" with plan.tier1, plan.tier2, plan.tier4 in the configuration, "
            + "but in group \"Calmly Kids\" in the catalogue; its configuration group-mates are in \"Calmly Plus\" there")
        #expect(!finding.message.contains("21A4F0C1") && !finding.message.contains("misfiled"))
        #expect(finding.left?.value == "Calmly Plus" && finding.right?.value == "Calmly Kids")
    }

    @Test func twoGroupsMergedIntoOneReportsTheSmallerSide() {
        let config = Self.plans(group: "A") + Self.plans(group: "B", levels: [1, 2], prefix: "kids")
        let catalog = (Self.plans(group: "all") + Self.plans(group: "all", levels: [5, 6], prefix: "kids"))
        #expect(pairs(findings(config, catalog)) == ["group kids.tier1", "group kids.tier2"])
    }

    @Test func levelOrderChangeBlamesTheMovedSubscription() {
        // tier3 drops to the bottom in the catalogue: only tier3 ranks differently.
        let result = findings(Self.plans(group: "A"), Self.plans(group: "B", levels: [1, 2, 7, 4]))
        #expect(pairs(result) == ["level plan.tier3"])
        #expect(result[0].message == "plan.tier3 ranks above plan.tier4 in the configuration (level 3 vs 4) but below it in the catalogue (level 7 vs 4)")
        #expect(findings(Self.plans(group: "A"), Self.plans(group: "B", levels: [5, 2, 3, 4])).map(\.productID) == ["plan.tier1"])
    }

    @Test func aSwapIsOneFindingWithOneWording() {
        let result = findings(Self.plans(group: "A", levels: [1, 2]), Self.plans(group: "B", levels: [2, 1]))
        #expect(result.count == 1, "\(result.map(\.message))")
        #expect(result.allSatisfy { $0.ruleID.rawValue == "level" && $0.severity == .error && $0.message.contains(" but ") })
    }

    @Test func aCrossgradeThatBecomesAnUpgradeRanksDifferently() {
        // Written levels on both sides: equal levels (a crossgrade) are part of the ranking.
        let result = findings(Self.plans(group: "A", levels: [1, 1, 2]), Self.plans(group: "B", levels: [1, 2, 3]))
        #expect(pairs(result) == ["level plan.tier2"], "\(result.map(\.message))")
        #expect(result[0].message.contains("ranks level with plan.tier1 in the configuration (level 1 vs 1) but below it in the catalogue (level 2 vs 1)"))
    }

    @Test func sameOrderButOtherLevelNumbersIsAWarningOfItsOwn() {
        let result = findings(Self.plans(group: "A"), Self.plans(group: "B", levels: [2, 3, 4, 5]))
        #expect(pairs(result) == ["level-number plan.tier1", "level-number plan.tier2", "level-number plan.tier3", "level-number plan.tier4"])
        #expect(result.allSatisfy { $0.severity == .warning })
        #expect(result[0].message == "plan.tier1 is numbered level 1 in the configuration but 2 in the catalogue; the group ranks its subscriptions alike on both sides, only the numbers differ")
    }

    @Test func aRenumberingBesideAMoveReportsTheMoveOnly() {
        let result = findings(Self.plans(group: "A"), Self.plans(group: "B", levels: [1, 2, 9, 8]))
        #expect(result.allSatisfy { $0.ruleID.rawValue == "level" }, "\(result.map(\.message))")
        #expect(result.count == 1)
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

@Suite struct LevelAnalysisTests {
    static func members(_ pairs: [(Int, Int)]) -> [LevelAnalysis.Member] {
        pairs.enumerated().map { index, pair in
            LevelAnalysis.Member(id: "p\(index)", config: .subscription("p\(index)"), catalog: .subscription("p\(index)"), left: pair.0, right: pair.1)
        }
    }

    @Test func movesTheFewest() {
        #expect(LevelAnalysis.moved(Self.members([(1, 1), (2, 2), (3, 7), (4, 4)]), strict: true) == [2])
        #expect(LevelAnalysis.moved(Self.members([]), strict: true).isEmpty)
        #expect(LevelAnalysis.moved(Self.members([(1, 3), (1, 3), (1, 3)]), strict: true).isEmpty)
        // Top to bottom: one subscription moved, not the four it passed.
        #expect(LevelAnalysis.moved(Self.members([(1, 5), (2, 1), (3, 2), (4, 3), (5, 4)]), strict: true) == [0])
    }

    @Test func tiesCountOnlyWhenBothSidesWriteLevels() {
        let members = Self.members([(1, 1), (1, 2), (2, 3)])
        #expect(LevelAnalysis.moved(members, strict: true).count == 1)
        #expect(LevelAnalysis.moved(members, strict: false).isEmpty)
    }
}
