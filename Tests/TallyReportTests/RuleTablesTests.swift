import Testing
import TallyCheck
import TallyModel
import TallyReport

/// `tally rules` and `tally explain` are made from the rule list: every rule is listed under a
/// heading of its category, and every explanation names its category's kind.
@Suite struct RuleTablesTests {
    @Test func everyRuleIsListedUnderItsCategory() {
        let listing = RuleTable.text()
        let listed = listing.split(separator: "\n").filter { $0.hasPrefix("  ") }.compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(listed == RuleSet.descriptions.map(\.id.rawValue))
        for rule in RuleSet.descriptions {
            #expect(RuleTable.categories.contains { $0.name == rule.category }, "\(rule.id): category \(rule.category) has no heading")
        }
    }

    @Test func theCodeRulesAreListedAndExplainedAsCodeRules() throws {
        let code = try #require(RuleSet.descriptions.first { $0.category == "code" })
        #expect(RuleTable.text().contains("Code rules"))
        #expect(RuleExplanation.text(code).hasPrefix("\(code.id)  (code, against the other sources, default severity"))
    }
}
