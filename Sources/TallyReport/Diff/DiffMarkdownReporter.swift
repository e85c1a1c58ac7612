import TallyDiff
import TallyModel

/// GitHub-flavoured Markdown for a pull-request comment: per pair of files a
/// heading, the summary, the changes that need attention, and one table row per change (a
/// large price sweep in one row unless `verbose`).
///
/// ```markdown
/// ### `v1/App.storekit` → `v2/App.storekit`
///
/// **0 added, 1 removed, 1 changed, 10 unchanged products** · 1 price change (1 up, 0 down) in 1 territory · **⚠️ 2 need attention**
///
/// | | Change | What | Old | New |
/// |---|---|---|---|---|
/// | ✏️ ⚠️ | `com.example.pro.monthly › prices › USA` | 4.99 USD → 5.99 USD (+1 USD, +20.04%)<br>⚠️ price increase ... | 42:24 | 42:24 |
/// ```
///
/// Text from the sources is escaped, so a product name cannot break the table or inject HTML.
public struct DiffMarkdownReporter: DiffReporter {
    public static let identifier = "markdown"

    public var verbose: Bool

    public init(verbose: Bool = false) {
        self.verbose = verbose
    }

    public func report(_ result: DiffResult) -> String {
        DiffWords.report(result, section: section, totalSeparator: "\n\n") { "**Total \($0):** \(Self.text($1))" }
    }

    private func section(_ diff: CatalogDiff) -> String {
        let summary = diff.summary
        var blocks = [
            "### \(Self.code(diff.old.file)) → \(Self.code(diff.new.file))",
            "Old: \(Self.text(DiffWords.source(diff.old)))<br>New: \(Self.text(DiffWords.source(diff.new)))",
        ]
        guard diff.hasChanges else {
            blocks.append("No changes: \(DiffWords.counted(summary.unchanged, "product")) identical.")
            return blocks.joined(separator: "\n\n")
        }
        blocks.append(summaryLine(summary))
        let (rows, shown, more) = DiffWords.rowsAndAttention(diff, verbose: verbose)
        if !shown.isEmpty {
            var list = ["**⚠️ Needs attention**", ""] + shown.map { "- \(Self.code($0.path)): \(Self.text($0.words))" }
            if more > 0 { list.append("- … and \(more) more, marked ⚠️ below") }
            blocks.append(list.joined(separator: "\n"))
        }
        var table = ["| | Change | What | Old | New |", "|---|---|---|---|---|"]
        for change in diff.sourceChanges { table.append(row(change, diff)) }
        for (product, productRows) in rows {
            for (index, item) in productRows.enumerated() {
                // The product's name for people, once, beside the first row's path.
                let name = index == 0 ? product.name.map { " (\(Self.text($0)))" } ?? "" : ""
                switch item {
                case .change(let change): table.append(row(change, diff, name: name))
                case .sweep(let sweep): table.append(row(sweep, product.productID, diff, name: name))
                }
            }
        }
        blocks.append(table.joined(separator: "\n"))
        return blocks.joined(separator: "\n\n")
    }

    private func summaryLine(_ summary: DiffSummary) -> String {
        let parts = DiffWords.summaryLine(summary).components(separatedBy: " · ")
        return parts.enumerated().map { index, part in
            if index == 0 { return "**\(Self.text(part))**" }
            if index == parts.count - 1, summary.attention > 0 { return "**⚠️ \(Self.text(part))**" }
            return Self.text(part)
        }.joined(separator: " · ")
    }

    private func row(_ change: Change, _ diff: CatalogDiff, name: String = "") -> String {
        let mark = Self.mark(change.action) + (change.needsAttention ? " ⚠️" : "")
        var what = Self.text(change.summary)
        for reason in change.attention { what += "<br>⚠️ " + Self.text(reason.explanation) }
        return "| \(mark) | \(Self.code(change.path))\(name) | \(what) | \(Self.place(diff.oldLocation(change), diff.old)) | \(Self.place(diff.newLocation(change), diff.new)) |"
    }

    private func row(_ sweep: PriceSweep, _ productID: String, _ diff: CatalogDiff, name: String = "") -> String {
        let attention = sweep.attention
        let mark = Self.mark(.changed) + (attention.isEmpty ? "" : " ⚠️")
        var what = sweep.lines(example: diff.new.storefront).map(Self.text).joined(separator: "<br>")
        for (reason, count) in attention { what += "<br>⚠️ \(count) × " + Self.text(reason.explanation) }
        what += "<br>(\(DiffWords.counted(sweep.count, "price row")); `--verbose` lists every one)"
        let old = sweep.first.flatMap { diff.oldLocation($0) }, new = sweep.first.flatMap { diff.newLocation($0) }
        return "| \(mark) | \(Self.code(productID + " › prices"))\(name) | \(what) | \(Self.place(old, diff.old)) | \(Self.place(new, diff.new)) |"
    }

    private static func mark(_ action: ChangeAction) -> String {
        switch action {
        case .added: "➕"
        case .removed: "➖"
        case .changed: "✏️"
        }
    }

    /// `42:24` (the file is in the heading), or the key path for sources without lines; with the
    /// file (`catalog/extra.yaml:4:5`) when the side is several files.
    private static func place(_ location: TallyModel.SourceLocation?, _ source: DiffSource) -> String {
        guard let location else { return "" }
        if source.parts.count > 1 { return text(location.description) }
        if let line = location.line { return location.column.map { "\(line):\($0)" } ?? "\(line)" }
        return location.path.map(text) ?? ""
    }

    /// Inline code, safe inside a table cell.
    static func code(_ value: String) -> String {
        "`" + FindingText.visible(value).replacingOccurrences(of: "`", with: "'").replacingOccurrences(of: "|", with: "\\|") + "`"
    }

    /// Plain text with Markdown and HTML characters escaped, on one line.
    static func text(_ value: String) -> String { MarkdownText.escape(value) }
}
