import TallyDiff
import TallyModel

/// Words shared by the diff reporters: the summary line, the sources, the attention list.
enum DiffWords {
    /// `1 territory`, `3 territories`.
    static func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }

    /// `0 added, 4 removed, 8 changed, 0 unchanged products · 8 price changes (0 up, 0 down, 8
    /// between currencies) in 1 territory · 1 catalogue change · 4 need attention`.
    static func summaryLine(_ summary: DiffSummary) -> String {
        let products = productCounts(summary)
        var prices: String
        if summary.priceChanges == 0 {
            prices = "no price changes"
        } else {
            var directions = ["\(summary.priceIncreases) up", "\(summary.priceDecreases) down"]
            if summary.priceCurrencyChanges > 0 { directions.append("\(summary.priceCurrencyChanges) between currencies") }
            prices = "\(counted(summary.priceChanges, "price change")) (\(directions.joined(separator: ", "))) in "
                + counted(summary.territoriesWithPriceChanges, "territory", plural: "territories")
        }
        if summary.pricesAdded > 0 || summary.pricesRemoved > 0 {
            prices += "; \(counted(summary.pricesAdded, "territory price")) added, \(summary.pricesRemoved) removed"
        }
        var parts = [products, prices]
        if summary.sourceChanges > 0 { parts.append(counted(summary.sourceChanges, "catalogue change")) }
        parts.append(summary.attention == 1 ? "1 needs attention" : "\(summary.attention) need attention")
        return parts.joined(separator: " · ")
    }

    /// `1 added, 0 removed, 2 changed (1 moved between files), 12 unchanged products`.
    static func productCounts(_ summary: DiffSummary) -> String {
        let moved = summary.moved > 0 ? " (\(summary.moved) moved between files)" : ""
        return "\(summary.added) added, \(summary.removed) removed, \(summary.changed) changed\(moved), \(summary.unchanged) unchanged products"
    }

    /// `configs/App.storekit (storekit, storefront USA, 12 products)`, or `(absent)`.
    static func source(_ source: DiffSource) -> String {
        if source.absent { return "\(source.file) (absent)" }
        return "\(source.file) (\(source.format), \(source.storefrontName) \(source.storefront), \(counted(source.productCount, "product")))"
    }

    /// The path below the product heading: `prices › JPN`, or `product` for the product itself.
    static func relativePath(_ change: Change) -> String {
        var parts: [String] = []
        if let name = change.aspect.pathName { parts.append(name) }
        if let key = change.key { parts.append(key) } else if let territory = change.territory { parts.append(territory.code) }
        return parts.isEmpty ? "product" : parts.joined(separator: " › ")
    }

    /// `+`, `-` or `~`.
    static func sigil(_ action: ChangeAction) -> String {
        switch action {
        case .added: "+"
        case .removed: "-"
        case .changed: "~"
        }
    }

    /// Each file's section, then, over more than one file, a total line (`total` given the
    /// summary line in words): the text and Markdown reports.
    static func report(_ result: DiffResult, section: (CatalogDiff) -> String, totalSeparator: String = "\n",
                       total: (_ scope: String, _ line: String) -> String) -> String {
        var sections = result.diffs.map(section)
        if result.diffs.count > 1 { sections.append(totals(result).map { total($0.scope, $0.line) }.joined(separator: totalSeparator)) }
        return sections.joined(separator: "\n\n")
    }

    /// The total lines: `over 3 files` and its summary line when every diff is of one role, else
    /// one per role (`for configurations (1 file)`, `for catalogues (2 files)`), never added together.
    static func totals(_ result: DiffResult) -> [(scope: String, line: String)] {
        let totals = result.totals
        guard totals.count > 1 else { return [("over \(counted(result.diffs.count, "file"))", summaryLine(result.summary))] }
        return totals.map { total in
            ("for \(total.noun) (\(counted(total.diffs, "file")))", summaryLine(total.summary))
        }
    }

    /// A file's product rows, and the attention items the text and Markdown reports list up
    /// front: all when verbose, else the first `DiffTextReporter.attentionLimit`, with how many
    /// more there are.
    static func rowsAndAttention(_ diff: CatalogDiff, verbose: Bool)
        -> (rows: [(product: ProductChanges, rows: [DiffRow])], shown: ArraySlice<(path: String, words: String)>, more: Int) {
        let rows = diff.products.map { (product: $0, rows: DiffRow.rows($0, verbose: verbose)) }
        let attention = attentionItems(diff, rows: rows)
        let shown = verbose ? attention[...] : attention.prefix(DiffTextReporter.attentionLimit)
        return (rows, shown, attention.count - shown.count)
    }

    /// The attention items of a diff whose product rows are already built, as a path and words:
    /// source changes first, then product by product (a sweep is one item).
    static func attentionItems(_ diff: CatalogDiff, rows: [(product: ProductChanges, rows: [DiffRow])]) -> [(path: String, words: String)] {
        diff.sourceChanges.filter(\.needsAttention).map(attentionItem) + rows.flatMap { $0.rows.compactMap(\.attentionItem) }
    }

    /// `tip_5`, `removed product: its ID can never be used again in the App Store`.
    static func attentionItem(_ change: Change) -> (path: String, words: String) {
        let reasons = change.attention.map(\.explanation).joined(separator: "; ")
        guard change.aspect == .product else { return (change.path, "\(change.summary): \(reasons)") }
        return (change.path, reasons + (change.noteText.map { " (\($0))" } ?? ""))
    }
}
