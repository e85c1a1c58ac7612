import TallyCheck
import TallyReport
import Testing

@Suite("Markdown reporter")
struct MarkdownReporterTests {
    @Test func aSummaryTableCountsFindingsPerRuleAndSeverity() {
        let markdown = MarkdownReporter().report(Sample.mixed)
        #expect(markdown.hasPrefix("### Tally: ❌ 4 errors, 2 warnings, 1 note in 3 sources (4 products checked)"))
        #expect(markdown.contains("| rule | severity | findings | what it finds |"))
        #expect(markdown.contains("| `price` | error | 1 | The price in the configuration's storefront differs, or the catalogue has no price there. |"))
        #expect(markdown.contains("| `family-sharing` | warning | 1 |"))
        #expect(markdown.contains("#### Details"))
        #expect(markdown.contains("**`com.example.pro.monthly`**"))
        #expect(markdown.contains("  - catalog: `catalog/products.yaml:18:14` `5.99 USD`"))
    }

    @Test func textFromSourcesCannotAddLinksHTMLOrTableCells() {
        let finding = Finding.test(product: "com.`a`", message: "see [here](https://evil.example) <img src=x> a|b #1 *bold*")
        let markdown = MarkdownReporter().report(.test(findings: [finding]))
        #expect(markdown.contains(##"see \[here\](https://evil.example) &lt;img src=x&gt; a\|b \#1 \*bold\*"##))
        #expect(markdown.contains("**``com.`a` ``**") || markdown.contains("**`` com.`a` ``**"))
        #expect(!markdown.contains("<img"))
    }

    @Test func detailsStopAtTheLimitAndSaySo() {
        let findings = (1...5).map { Finding.test(product: "com.p\($0)") }
        let markdown = MarkdownReporter(detailLimit: 2).report(.test(findings: findings))
        #expect(markdown.contains("| `price` | error | 5 |"))
        #expect(markdown.components(separatedBy: "- **error**").count - 1 == 2)
        #expect(markdown.contains("…and 3 more findings"))
    }

    @Test func baselineAndIgnoresAreMentioned() {
        var result = CheckResult.test()
        result.suppressed = Suppressed(ignored: 2, baselined: 3, baselineFile: "base.json")
        let markdown = MarkdownReporter().report(result)
        #expect(markdown.hasPrefix("### Tally: ✅ consistent"))
        #expect(markdown.contains("> ignored: 2 findings accepted by the policy's ignores"))
        #expect(markdown.contains("> baseline: 3 known findings suppressed by base.json"))
    }
}
