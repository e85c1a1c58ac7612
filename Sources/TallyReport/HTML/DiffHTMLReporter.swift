import TallyDiff
import TallyModel

/// One self-contained HTML page of `tally diff` for a release manager: per pair of files the
/// summary counts, the changes that need attention, a table per product with the old and new
/// values (and where each is written) side by side, then every price change grouped by territory.
///
/// The page loads nothing (inline CSS, no scripts) and reads at 1280 px and on a phone: wide
/// tables scroll inside their own box. Every change is listed; a product's price rows past
/// `DiffFormat.sweepThreshold` fold into a `<details>` under the sweep's summary (open with
/// `verbose`). Text from the sources is escaped; names for people stand beside product IDs.
/// Elements carry `data-` attributes (`data-count`, `data-product`, `data-territory`,
/// `data-old`, `data-new`) so that tests and scripts can read the page without its wording.
public struct DiffHTMLReporter: DiffReporter {
    public static let identifier = "html"

    public var verbose: Bool

    /// Territories whose price changes are shown unfolded when a file has at most this many.
    static let openTerritoriesUpTo = 40

    public init(verbose: Bool = false) {
        self.verbose = verbose
    }

    public func report(_ result: DiffResult) -> String {
        var text = ""
        write(result, to: &text)
        return text
    }

    public func write<Output: TextOutputStream>(_ result: DiffResult, to output: inout Output) {
        let summary = result.summary
        output.write(HTMLPage.head(title: "Tally diff: " + DiffWords.summaryLine(summary)))
        output.write("<h1>Tally diff</h1>\n")
        if result.diffs.count > 1 {
            output.write("<p class=\"muted\">\(DiffWords.counted(result.diffs.count, "pair")) of files compared; totals first, then each file.</p>\n")
            output.write(Self.counts(summary, scope: "total"))
            let totals = result.totals
            if totals.count > 1 {
                // Configurations and catalogues apart: one app's products are counted once per role, not added together.
                for total in totals {
                    let role = total.noun
                    output.write("<p class=\"muted\">Total for \(role) (\(DiffWords.counted(total.diffs, "file"))):</p>\n")
                    output.write(Self.counts(total.summary, scope: role))
                }
            }
            output.write("<ul data-section=\"files\">\n")
            for (index, diff) in result.diffs.enumerated() {
                let words = diff.hasChanges ? DiffWords.summaryLine(diff.summary) : "no changes"
                output.write("<li><a href=\"#diff-\(index + 1)\"><code>\(HTMLPage.escape(diff.new.file))</code></a>: \(HTMLPage.escape(words))</li>\n")
            }
            output.write("</ul>\n")
        }
        for (index, diff) in result.diffs.enumerated() {
            section(diff, index: index + 1, single: result.diffs.count == 1, to: &output)
        }
        output.write(HTMLPage.tail)
    }

    private func section<Output: TextOutputStream>(_ diff: CatalogDiff, index: Int, single: Bool, to output: inout Output) {
        output.write("<section class=\"diff\" id=\"diff-\(index)\" data-old-file=\"\(HTMLPage.escape(diff.old.file))\" data-new-file=\"\(HTMLPage.escape(diff.new.file))\">\n")
        output.write("<h2><code>\(HTMLPage.escape(diff.old.file))</code> → <code>\(HTMLPage.escape(diff.new.file))</code></h2>\n")
        output.write("<p class=\"muted\">Old: \(HTMLPage.escape(DiffWords.source(diff.old)))<br>New: \(HTMLPage.escape(DiffWords.source(diff.new)))</p>\n")
        guard diff.hasChanges else {
            output.write("<p class=\"verdict pass\" data-verdict=\"unchanged\">No changes: \(DiffWords.counted(diff.summary.unchanged, "product")) identical.</p>\n</section>\n")
            return
        }
        let summary = diff.summary
        let attentionClass = summary.attention > 0 ? "warn" : "pass"
        output.write("<p class=\"verdict \(attentionClass)\" data-verdict=\"changed\">\(HTMLPage.escape(DiffWords.summaryLine(summary)))</p>\n")
        output.write(Self.counts(summary, scope: single ? "total" : "file"))

        let rows = diff.products.map { (product: $0, rows: DiffRow.rows($0, verbose: true)) }
        let attention = DiffWords.attentionItems(diff, rows: rows)
        if !attention.isEmpty {
            output.write("<div class=\"attention\" data-section=\"attention\">\n<h3>⚠ Needs attention (\(attention.count))</h3>\n<ul>\n")
            for item in attention {
                output.write("<li data-path=\"\(HTMLPage.escape(item.path))\"><code>\(HTMLPage.escape(item.path))</code>: \(HTMLPage.escape(item.words))</li>\n")
            }
            output.write("</ul>\n</div>\n")
        }

        if !diff.sourceChanges.isEmpty {
            output.write("<h3>\(HTMLPage.escape(Change.sourceHeading))</h3>\n")
            output.write(table(diff.sourceChanges, diff))
        }
        output.write("<h2>Products (\(diff.products.count) with changes)</h2>\n")
        for product in diff.products {
            output.write(self.product(product, diff))
        }
        output.write(territories(diff))
        output.write("</section>\n")
    }

    /// The summary counts as a definition list, each count under `data-count`.
    static func counts(_ summary: DiffSummary, scope: String) -> String {
        let counts: [(key: String, label: String, value: Int, hot: Bool)] = [
            ("added", "products added", summary.added, false),
            ("removed", "products removed", summary.removed, summary.removed > 0),
            ("changed", "products changed", summary.changed, false),
            ("unchanged", "products unchanged", summary.unchanged, false),
            ("price-changes", "price changes", summary.priceChanges, false),
            ("price-increases", "prices up", summary.priceIncreases, false),
            ("price-decreases", "prices down", summary.priceDecreases, false),
            ("territories", "territories repriced", summary.territoriesWithPriceChanges, false),
            ("attention", "need attention", summary.attention, summary.attention > 0),
        ]
        var html = "<dl class=\"counts\" data-scope=\"\(scope)\">\n"
        for count in counts {
            html += "<div\(count.hot ? " class=\"hot\"" : "")><dt>\(count.label)</dt><dd data-count=\"\(count.key)\">\(count.value)</dd></div>\n"
        }
        return html + "</dl>\n"
    }

    /// A product's heading and its table; many price rows fold under the sweep's summary.
    private func product(_ product: ProductChanges, _ diff: CatalogDiff) -> String {
        var html = "<section class=\"product\" data-product=\"\(HTMLPage.escape(product.productID))\" data-status=\"\(product.status.rawValue)\">\n"
        html += "<h3>\(HTMLPage.product(product.productID, name: product.name)) "
        html += "<span class=\"badge \(product.status.rawValue)\">\(product.status.rawValue)</span></h3>\n"
        let prices = product.changes.filter { $0.aspect == .price }
        if prices.count > DiffFormat.sweepThreshold {
            let others = product.changes.filter { $0.aspect != .price }
            if !others.isEmpty { html += table(others, diff) }
            let sweep = PriceSweep(product.changes)
            html += "<details\(verbose ? " open" : "") data-section=\"prices\"><summary>\(DiffWords.counted(prices.count, "price change")): "
            html += HTMLPage.escape(sweep.lines(example: diff.new.storefront).joined(separator: "; "))
            for (reason, count) in sweep.attention { html += "<span class=\"why\">⚠ \(count) × \(HTMLPage.escape(reason.explanation))</span>" }
            html += "</summary>\n" + table(prices, diff) + "</details>\n"
        } else {
            html += table(product.changes, diff)
        }
        return html + "</section>\n"
    }

    /// Changes as table rows: what, old and new side by side (value and where), the difference.
    private func table(_ changes: [Change], _ diff: CatalogDiff) -> String {
        var html = "<div class=\"scroll\"><table>\n<thead><tr><th>What</th><th>Old</th><th>New</th><th>Change</th></tr></thead>\n<tbody>\n"
        for change in changes {
            html += "<tr class=\"\(change.action.rawValue)\" data-path=\"\(HTMLPage.escape(change.path))\""
            if let territory = change.territory { html += " data-territory=\"\(HTMLPage.escape(territory.code))\"" }
            html += "><td><span class=\"badge \(change.action.rawValue)\">\(change.action.rawValue)</span> \(HTMLPage.escape(DiffWords.relativePath(change)))</td>"
            html += Self.cell(change.old, diff.oldLocation(change), side: "old")
            html += Self.cell(change.new, diff.newLocation(change), side: "new")
            html += "<td>\(Self.difference(change))</td></tr>\n"
        }
        return html + "</tbody></table></div>\n"
    }

    /// One side's value, and where it is written.
    private static func cell(_ value: ChangeValue?, _ location: SourceLocation?, side: String) -> String {
        guard let value else { return "<td class=\"muted\" data-\(side)=\"\">—</td>" }
        let text = HTMLPage.escape(value.text)
        var html = "<td class=\"\(side)\(value.money == nil ? "" : " value")\" data-\(side)=\"\(text)\">\(text)"
        if let location { html += "<span class=\"where\">\(HTMLPage.escape(Self.place(location)))</span>" }
        return html + "</td>"
    }

    /// `42:24`, or the key path for sources without lines (the file is in the heading).
    private static func place(_ location: SourceLocation) -> String {
        if let line = location.line { return location.column.map { "line \(line):\($0)" } ?? "line \(line)" }
        return location.path ?? location.description
    }

    /// The price difference with its direction, the note, and the reasons for attention.
    private static func difference(_ change: Change) -> String {
        var html = ""
        if let price = change.priceChange {
            let direction = change.priceDirection ?? price.direction
            html += "<span class=\"\(direction.rawValue)\">\(HTMLPage.escape(price.words))</span>"
        } else if change.aspect != .price, change.aspect != .product {
            html += HTMLPage.escape(change.summary)
        } else if let note = change.noteText {
            html += HTMLPage.escape(note)
        }
        for reason in change.attention { html += "<span class=\"why\">⚠ \(HTMLPage.escape(reason.explanation))</span>" }
        return html
    }

    /// Every price change again, grouped by territory (or storefront pair), territories sorted.
    private func territories(_ diff: CatalogDiff) -> String {
        var groups: [String: [Change]] = [:]
        for product in diff.products {
            for change in product.changes where change.aspect == .price {
                groups[change.territory?.code ?? change.key ?? "?", default: []].append(change)
            }
        }
        guard !groups.isEmpty else { return "" }
        let open = verbose || groups.count <= Self.openTerritoriesUpTo
        var html = "<h2>Price changes by territory (\(DiffWords.counted(groups.count, "territory", plural: "territories")))</h2>\n"
        html += "<div data-section=\"territories\">\n"
        for code in groups.keys.sorted() {
            let changes = groups[code] ?? []
            let statistics = PriceStatistics(changes)
            var words = [DiffWords.counted(changes.count, "change")]
            if statistics.up > 0 { words.append("\(statistics.up) up") }
            if statistics.down > 0 { words.append("\(statistics.down) down") }
            if statistics.added > 0 { words.append("\(statistics.added) newly priced") }
            if statistics.removed > 0 { words.append("\(statistics.removed) no longer priced") }
            html += "<details\(open ? " open" : "") data-territory=\"\(HTMLPage.escape(code))\"><summary><code>\(HTMLPage.escape(code))</code> "
            html += "<span class=\"muted\">\(words.joined(separator: ", "))</span></summary>\n"
            html += "<div class=\"scroll\"><table>\n<thead><tr><th>Product</th><th>Old</th><th>New</th><th>Change</th></tr></thead>\n<tbody>\n"
            for change in changes {
                html += "<tr class=\"\(change.action.rawValue)\" data-product=\"\(HTMLPage.escape(change.productID ?? ""))\">"
                html += "<td><code class=\"pid\">\(HTMLPage.escape(change.productID ?? Change.sourceHeading))</code></td>"
                html += Self.cell(change.old, nil, side: "old") + Self.cell(change.new, nil, side: "new")
                html += "<td>\(Self.difference(change))</td></tr>\n"
            }
            html += "</tbody></table></div>\n</details>\n"
        }
        return html + "</div>\n"
    }
}
