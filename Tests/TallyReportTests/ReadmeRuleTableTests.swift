import Foundation
import Testing
import TallyReport

/// The rule table of docs/rules.md is generated from the rules: this fails when the page is stale.
@Suite struct ReadmeRuleTableTests {
    @Test func rulesPageListsEveryRuleAsTheRulesDescribeThemselves() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/rules.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let start = try #require(text.range(of: RuleTable.begin), "docs/rules.md has no \(RuleTable.begin) marker")
        let end = try #require(text.range(of: RuleTable.end), "docs/rules.md has no \(RuleTable.end) marker")
        let table = text[start.upperBound..<end.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(table == RuleTable.markdown(), "docs/rules.md's rule table is stale: paste the output of 'tally rules --format markdown' between the markers")
    }
}
