import Foundation
import TallyCheck
import TallyDiff
import TallyModel
import TallyReport
import Testing

@Suite("HTML reports")
struct HTMLReporterTests {
    static let hostile = "Pro <script>alert('x')</script> & <img src=x onerror=alert(1)>"

    @Test("Text from the sources stays text in a check page; names stand beside IDs")
    func checkPageEscapesEverythingFromTheSources() {
        var result = CheckResult.test(findings: [
            .test(rule: "price", product: "com.example.<b>pro</b>", message: "costs \"4.99 USD\" <here>",
                  left: .test(value: "4.99 USD"), right: .test(role: "catalog", value: "5.99 USD <i>", file: "catalog/a&b.yaml"),
                  hint: "use <5"),
        ])
        result.names = ["com.example.<b>pro</b>": Self.hostile]
        let html = HTMLReporter().report(result)
        #expect(!html.contains("<script") && !html.contains("<img") && !html.contains("<b>") && !html.contains("<i>"))
        #expect(html.contains("<code class=\"id\">com.example.&lt;b&gt;pro&lt;/b&gt;</code> <span class=\"name\">Pro &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &lt;img"))
        #expect(html.contains("data-product=\"com.example.&lt;b&gt;pro&lt;/b&gt;\""))
        #expect(html.contains("costs &quot;4.99 USD&quot; &lt;here&gt;"))
        #expect(html.contains("data-side=\"configuration\""))
        #expect(html.contains("<span class=\"mono value\">5.99 USD &lt;i&gt;</span>"))
        #expect(html.contains("catalog/a&amp;b.yaml"))
        #expect(html.contains("hint: use &lt;5"))
        #expect(html.contains("data-count=\"errors\">1<"))
    }

    @Test("A page loads nothing: no scripts, no links out, a policy that forbids both")
    func pagesAreSelfContained() {
        for html in [HTMLReporter().report(Sample.mixed), DiffHTMLReporter().report(DiffSample.mixed)] {
            #expect(html.hasPrefix("<!DOCTYPE html>"))
            #expect(html.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"))
            #expect(html.contains("content=\"default-src 'none'; style-src 'unsafe-inline'\""))
            #expect(!html.contains("<script") && !html.contains("<link") && !html.contains("src=") && !html.contains("url("))
            #expect(!html.contains("http://") && !html.contains("https://"))
            #expect(html.hasSuffix("</html>"))
        }
    }

    @Test("A diff page puts old and new side by side, names beside IDs, prices by territory")
    func diffPageShowsBothSides() {
        let old = DiffSource(file: "v1.yaml", format: .tallyCatalogYAML, storefront: .usa, productCount: 1)
        let new = DiffSource(file: "v2.yaml", format: .tallyCatalogYAML, storefront: .usa, productCount: 1)
        let change = Change(.price, .changed, productID: "com.example.pro", territory: .usa,
                            old: .money(Money(amount: Decimal(string: "10.9") ?? 0, currency: "BRL")),
                            new: .money(Money(amount: Decimal(string: "12.9") ?? 0, currency: "BRL")),
                            oldPosition: Position(line: 4, column: 9), newPosition: Position(line: 5, column: 9))
        let diff = CatalogDiff(old: old, new: new, products: [ProductChanges(productID: "com.example.pro", status: .changed, changes: [change], name: Self.hostile)])
        let html = DiffHTMLReporter().report(DiffResult(diffs: [diff]))
        #expect(!html.contains("<script") && !html.contains("<img"))
        #expect(html.contains("<code class=\"id\">com.example.pro</code> <span class=\"name\">Pro &lt;script&gt;"))
        #expect(html.contains("data-old=\"10.90 BRL\">10.90 BRL<span class=\"where\">line 4:9</span>"), "money in minor units, with where it is")
        #expect(html.contains("data-new=\"12.90 BRL\">12.90 BRL<span class=\"where\">line 5:9</span>"))
        #expect(html.contains("<span class=\"up\">+2.00 BRL, +18.3%</span>"))
        #expect(html.contains("<details open data-territory=\"USA\">"))
        #expect(html.contains("data-count=\"changed\">1<"))
        #expect(html.contains("data-count=\"price-increases\">1<"))
    }

    @Test("Many price rows of one product fold under the sweep's summary unless verbose")
    func sweepsFold() {
        let product = DiffSample.mixed.diffs.flatMap(\.products).first { product in
            product.changes.filter { $0.aspect == .price }.count > DiffFormat.sweepThreshold
        }
        #expect(product != nil, "the mixed sample has a sweep")
        #expect(DiffHTMLReporter().report(DiffSample.mixed).contains("<details data-section=\"prices\"><summary>"))
        #expect(DiffHTMLReporter(verbose: true).report(DiffSample.mixed).contains("<details open data-section=\"prices\"><summary>"))
    }
}
