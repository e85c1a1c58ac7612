import TallyReport
import Testing
import TallyCheck
import TallyModel

@Suite("Group correspondences")
struct GroupCorrespondenceTests {
    // Given: the configuration's group "Plus" holds a, b and c; the catalogue put a in "plus" and
    // b and c in "bundle". By members, Plus pairs with bundle and a is the odd one out.
    static let config = Catalog(file: "App.storekit", format: .storeKit,
                                products: ["a", "b", "c"].map { .subscription("com.x.\($0)", group: "9F00AA") },
                                groups: [SubscriptionGroup(id: "9F00AA", name: "Plus", productIDs: ["com.x.a", "com.x.b", "com.x.c"])])
    static let catalog = Catalog.server([.subscription("com.x.a", group: "plus"), .subscription("com.x.b", group: "bundle"),
                                         .subscription("com.x.c", group: "bundle")])

    private func groupFindings(_ pairs: [GroupCorrespondence]) -> [Finding] {
        Checker(groupCorrespondences: pairs).check(configurations: [Self.config], catalogs: [Self.catalog]).findings
            .filter { $0.ruleID == .group }
    }

    @Test func withoutAPairGroupsAreMatchedByMembers() {
        #expect(groupFindings([]).map(\.productID) == ["com.x.a"])
    }

    @Test func anExplicitPairWinsOverTheMembers() {
        // When: the team says the configuration's "Plus" is the catalogue's "plus".
        let found = groupFindings([GroupCorrespondence(configuration: "Plus", catalog: "plus")])
        // Then: b and c are the ones in the wrong group.
        #expect(found.map(\.productID) == ["com.x.b", "com.x.c"])
        #expect(found.first?.message.contains("the policy pairs its group with \"plus\"") == true)
    }

    @Test func aPairNamingNoGroupIsReportedAsUnmatched() {
        let policy = Policy(groups: [GroupCorrespondence(configuration: "Plus", catalog: "plus"),
                                     GroupCorrespondence(configuration: "Pluss", catalog: "plus")])
        #expect(policy.unmatchedGroups(configurations: [Self.config], catalogs: [Self.catalog]).map(\.configuration) == ["Pluss"])
    }

    @Test func groupsAreNamedByIDOrName() {
        #expect(GroupCorrespondence(configuration: "9F00AA", catalog: "bundle").configurationGroup(in: Self.config) == "9F00AA")
        #expect(GroupCorrespondence(configuration: "Plus", catalog: "bundle").configurationGroup(in: Self.config) == "9F00AA")
        #expect(GroupCorrespondence(configuration: "plus", catalog: "bundle").configurationGroup(in: Self.config) == nil)
    }
}
