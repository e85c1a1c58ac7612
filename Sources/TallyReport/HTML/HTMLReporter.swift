import TallyCheck

/// One self-contained HTML page for a person (a release manager opening a CI artefact): the
/// verdict, counts, a table of findings per rule, how to fix each of those rules, then the
/// findings grouped by product, each
/// with both sides (value and location) next to each other and the hint.
///
/// The page loads nothing (inline CSS, no scripts) and reads at 1280 px and on a phone. Text
/// from the sources is escaped; names for people stand beside product IDs, never in their place.
/// Elements carry `data-` attributes (`data-count`, `data-product`, `data-rule`, `data-side`) so
/// that tests and scripts can read the page without depending on its wording.
public struct HTMLReporter: Reporter {
    public static let identifier = "html"

    /// What fails the run: decides the verdict.
    public var context: ReportContext

    public init(context: ReportContext = ReportContext()) {
        self.context = context
    }

    public func report(_ result: CheckResult) -> String {
        let errors = result.count(.error), warnings = result.count(.warning), notes = result.count(.note)
        let summary = FindingText.summary(result, context: context, symbol: false)
        var html = HTMLPage.head(title: "Tally \(context.run.rawValue): " + summary)
        html += "<h1>Tally \(context.run.rawValue)</h1>\n"
        let fails = context.fails(result)
        let verdict = fails ? "fail" : errors > 0 || warnings > 0 ? "warn" : "pass"
        let symbol = fails ? "✘" : errors > 0 || warnings > 0 ? "⚠" : "✔"
        html += "<p class=\"verdict \(verdict)\" data-verdict=\"\(verdict)\">\(symbol) \(HTMLPage.escape(summary))</p>\n"
        html += "<dl class=\"counts\">\n"
        let counts: [(key: String, label: String, value: Int, hot: Bool)] = [
            ("errors", "errors", errors, errors > 0), ("warnings", "warnings", warnings, false), ("notes", "notes", notes, false),
            ("products", "products checked", result.productsChecked, false), ("sources", "sources", result.sources.count, false),
        ]
        for count in counts {
            html += "<div\(count.hot ? " class=\"hot\"" : "")><dt>\(count.label)</dt><dd data-count=\"\(count.key)\">\(count.value)</dd></div>\n"
        }
        html += "</dl>\n"
        let notesText = FindingText.suppressionLines(result.suppressed)
        if !notesText.isEmpty {
            html += "<ul class=\"muted\" data-section=\"suppressed\">\n" + notesText.map { "<li>\(HTMLPage.escape($0))</li>\n" }.joined() + "</ul>\n"
        }
        if !result.findings.isEmpty {
            html += "<h2>Findings by rule</h2>\n<div class=\"scroll\"><table data-section=\"rules\">\n"
            html += "<thead><tr><th>Rule</th><th>Severity</th><th class=\"num\">Findings</th><th>What it finds</th></tr></thead>\n<tbody>\n"
            for row in MarkdownReporter.rows(result.findings) {
                let summary = RuleSet.description(named: row.rule)?.summary ?? ""
                html += "<tr data-rule=\"\(HTMLPage.escape(row.rule))\"><td><code>\(HTMLPage.escape(row.rule))</code></td>"
                html += "<td><span class=\"badge \(row.severity)\">\(row.severity)</span></td><td class=\"num\">\(row.count)</td>"
                html += "<td>\(HTMLPage.escape(summary))</td></tr>\n"
            }
            html += "</tbody></table></div>\n"
            html += "<h2>How to fix</h2>\n<ul data-section=\"fixes\">\n"
            for fix in FindingText.fixes(result.findings) {
                html += "<li data-rule=\"\(HTMLPage.escape(fix.rule.rawValue))\"><code>\(HTMLPage.escape(fix.rule.rawValue))</code>: \(HTMLPage.escape(fix.fix))"
                html += " <span class=\"muted\">More: <code>\(HTMLPage.escape(FindingText.explainCommand(fix.rule)))</code></span></li>\n"
            }
            html += "</ul>\n"
            html += "<h2>Findings by product</h2>\n"
            for (product, findings) in TextReporter.grouped(result.findings) {
                let owned = product != FindingText.noProduct
                html += "<section class=\"product\"\(owned ? " data-product=\"\(HTMLPage.escape(product))\"" : "")>\n"
                html += "<h3>\(owned ? HTMLPage.product(product, name: result.names[product]) : HTMLPage.escape(product))"
                html += " <span class=\"badge muted\">\(FindingText.counted(findings.count, "finding"))</span></h3>\n"
                for finding in findings { html += Self.finding(finding) }
                html += "</section>\n"
            }
        }
        if !result.comparisons.isEmpty {
            html += "<h2>What was compared</h2>\n<ul data-section=\"comparisons\">\n"
            html += result.comparisons.map { "<li>\(HTMLPage.escape($0.text))</li>\n" }.joined()
            html += "</ul>\n"
        }
        if !result.sources.isEmpty {
            html += "<h2>Sources</h2>\n<ul data-section=\"sources\">\n"
            html += result.sources.map { "<li><code>\(HTMLPage.escape($0))</code></li>\n" }.joined()
            html += "</ul>\n"
        }
        return html + HTMLPage.tail
    }

    /// One finding: severity, rule and message, both sides next to each other, the hint.
    static func finding(_ finding: Finding) -> String {
        var html = "<div class=\"finding \(finding.severity)\" data-rule=\"\(HTMLPage.escape(finding.ruleID.rawValue))\" data-severity=\"\(finding.severity)\">\n"
        html += "<p><span class=\"badge \(finding.severity)\">\(finding.severity)</span> <code>\(HTMLPage.escape(finding.ruleID.rawValue))</code> "
        html += "\(MessageText.html(finding.typedMessage))</p>\n"
        let sides = [finding.left, finding.right].compactMap { $0 }
        if !sides.isEmpty {
            html += "<div class=\"sides\">\n"
            for side in sides {
                html += "<div class=\"side\" data-side=\"\(HTMLPage.escape(side.label))\"><span class=\"role\">\(HTMLPage.escape(side.label))</span>"
                if let value = side.value { html += "<span class=\"mono value\">\(HTMLPage.escape(MessageText.words(value)))</span>" }
                html += "<span class=\"where mono\">\(HTMLPage.escape(side.location.description))</span></div>\n"
            }
            html += "</div>\n"
        }
        if let hint = finding.hint { html += "<p class=\"hint\">hint: \(HTMLPage.escape(hint))</p>\n" }
        return html + "</div>\n"
    }
}
