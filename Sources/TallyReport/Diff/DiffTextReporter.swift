import TallyDiff
import TallyModel

/// Human-readable diff: per pair of files, the sources and a summary first, then the changes that
/// need attention, then every change grouped by product.
///
/// ```
/// old: v1/App.storekit (storekit, storefront USA, 12 products)
/// new: v2/App.storekit (storekit, storefront USA, 12 products)
/// 0 added, 1 removed, 1 changed, 10 unchanged products · 1 price change (1 up, 0 down) in 1 territory · 2 need attention
///
/// ! needs attention
///   com.example.pro.monthly › prices › USA: 4.99 USD → 5.99 USD (+1 USD, +20.04%): price increase on an existing subscription: ...
///   com.example.tip: removed product: its ID can never be used again in the App Store
///
/// com.example.pro.monthly  changed
///   ~ prices › USA: 4.99 USD → 5.99 USD (+1 USD, +20.04%)
///       old: v1/App.storekit:42:24
///       new: v2/App.storekit:42:24
///       ! price increase on an existing subscription: subscribers may have to agree to it
/// ```
///
/// More than `PriceSweep.threshold` price changes in one product are summarised in one row unless
/// `verbose`. Control characters from the sources are escaped, so the output holds ANSI escape
/// codes only when `color` is true.
public struct DiffTextReporter: DiffReporter {
    public static let identifier = "text"

    public var color: Bool
    public var verbose: Bool
    /// Attention items listed up front, per file, unless verbose.
    public static let attentionLimit = 20

    public init(color: Bool, verbose: Bool = false) {
        self.color = color
        self.verbose = verbose
    }

    public func report(_ result: DiffResult) -> String {
        DiffWords.report(result, section: section) { "total \($0): \($1)" }
    }

    /// The console line when every report goes to a file: the one diff's summary, or the totals
    /// (configurations and catalogues apart).
    public static func totals(_ result: DiffResult) -> String {
        guard result.diffs.count > 1 else { return result.diffs.first.map { DiffWords.summaryLine($0.summary) } ?? "no sources compared" }
        return DiffWords.totals(result).map { "total \($0.scope): \($0.line)" }.joined(separator: "\n")
    }

    private func section(_ diff: CatalogDiff) -> String {
        let summary = diff.summary
        var header = [
            "old: \(visible(DiffWords.source(diff.old)))",
            "new: \(visible(DiffWords.source(diff.new)))",
        ]
        guard diff.hasChanges else {
            header.append(paint("no changes", .green) + ": \(DiffWords.counted(summary.unchanged, "product")) identical")
            return header.joined(separator: "\n")
        }
        header.append(summaryLine(summary))
        var blocks = [header]
        let (rows, shown, more) = DiffWords.rowsAndAttention(diff, verbose: verbose)
        if !shown.isEmpty {
            var block = [paint("! needs attention", .red)] + shown.map { "  " + visible("\($0.path): \($0.words)") }
            if more > 0 {
                block.append("  … and \(more) more, marked ! below (--verbose lists them all here)")
            }
            blocks.append(block)
        }
        if !diff.sourceChanges.isEmpty {
            blocks.append([paint(Change.sourceHeading, .bold)] + diff.sourceChanges.flatMap { lines($0, diff) })
        }
        for (product, productRows) in rows {
            let name = product.name.map { " (\(visible($0)))" } ?? ""
            let heading = "\(paint(visible(product.productID), .bold))\(name)  \(product.status.rawValue)"
            blocks.append([heading] + productRows.flatMap { row -> [String] in
                switch row {
                case .change(let change): lines(change, diff)
                case .sweep(let sweep): lines(sweep, diff)
                }
            })
        }
        return blocks.map { $0.joined(separator: "\n") }.joined(separator: "\n\n")
    }

    private func lines(_ change: Change, _ diff: CatalogDiff) -> [String] {
        let place = change.aspect == .product ? "" : "\(visible(DiffWords.relativePath(change))): "
        var lines = ["  \(paint(DiffWords.sigil(change.action), style(change.action))) \(place)\(visible(change.summary))"]
        if let location = diff.oldLocation(change) { lines.append("      old: \(visible(location.description))") }
        if let location = diff.newLocation(change) { lines.append("      new: \(visible(location.description))") }
        for reason in change.attention { lines.append("      \(paint("! \(reason.explanation)", .red))") }
        return lines
    }

    private func lines(_ sweep: PriceSweep, _ diff: CatalogDiff) -> [String] {
        let words = sweep.lines(example: diff.new.storefront)
        var lines = ["  \(paint("~", .yellow)) prices: \(visible(words.first ?? ""))"]
        lines += words.dropFirst().map { "    \(visible($0))" }
        if let first = sweep.first {
            if let location = diff.oldLocation(first) { lines.append("      old: \(visible(location.description)) (first)") }
            if let location = diff.newLocation(first) { lines.append("      new: \(visible(location.description)) (first)") }
        }
        for (reason, count) in sweep.attention {
            lines.append("      \(paint("! \(count) × \(reason.explanation)", .red))")
        }
        lines.append("      (\(DiffWords.counted(sweep.count, "price row")); --verbose lists every one)")
        return lines
    }

    /// The summary, its attention count in red when there is any.
    private func summaryLine(_ summary: DiffSummary) -> String {
        var parts = DiffWords.summaryLine(summary).components(separatedBy: " · ")
        if summary.attention > 0, let last = parts.popLast() { parts.append(paint(last, .red)) }
        return parts.joined(separator: " · ")
    }

    private func style(_ action: ChangeAction) -> Style {
        switch action {
        case .added: .green
        case .removed: .red
        case .changed: .yellow
        }
    }

    private enum Style: String {
        case bold = "1", red = "31", green = "32", yellow = "33"
    }

    private func paint(_ text: String, _ style: Style) -> String {
        guard color else { return text }
        return "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m"
    }

    private func visible(_ text: String) -> String { FindingText.visible(text) }
}
