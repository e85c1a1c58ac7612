import Foundation
import TallyDiff
import TallyModel

/// A product's price changes in many territories at once, summarised in a few words: a large
/// sweep (one product repriced in 175 territories) should not bury the rest of a report.
struct PriceSweep {
    /// More price changes than this in one product are summarised unless the report is verbose.
    static let threshold = DiffFormat.sweepThreshold

    /// The product's changes (all of them; the sweep looks at the `.price` ones).
    let changes: [Change]
    let statistics: PriceStatistics

    init(_ changes: [Change]) {
        self.changes = changes
        statistics = PriceStatistics(changes)
    }

    var count: Int { statistics.total }

    /// The first price change: where the sweep starts in each file.
    var first: Change? { changes.first { $0.aspect == .price } }

    /// Attention reasons with their counts, in `Attention.allCases` order.
    var attention: [(reason: Attention, count: Int)] {
        Attention.allCases.compactMap { reason in statistics.attention[reason].map { (reason, $0) } }
    }

    /// `changed in 175 territories: 170 up (+10% to +25%), 5 down (-3%); e.g. USA 4.99 USD → 5.99 USD (+1 USD, +20.04%)`,
    /// then `newly priced in 3 territories: ...` and `no longer priced in 2 territories: ...`.
    func lines(example territory: Territory) -> [String] {
        let stats = statistics
        var lines: [String] = []
        if stats.changed > 0 {
            var parts: [String] = []
            if stats.up > 0 { parts.append("\(stats.up) up\(Self.range(stats.upPercent))") }
            if stats.down > 0 { parts.append("\(stats.down) down\(Self.range(stats.downPercent))") }
            if stats.otherCurrency > 0 { parts.append("\(stats.otherCurrency) between currencies") }
            var line = "changed in \(DiffWords.counted(stats.changed, "territory", plural: "territories")): \(parts.joined(separator: ", "))"
            let changed = changes.lazy.filter { $0.aspect == .price && $0.action == .changed }
            if let example = changed.first(where: { $0.territory == territory }) ?? changed.first {
                line += "; e.g. \(example.territory?.code ?? example.key ?? "") \(example.summary)"
            }
            lines.append(line)
        }
        if stats.added > 0 {
            lines.append("newly priced in \(DiffWords.counted(stats.added, "territory", plural: "territories")): \(codes(.added))")
        }
        if stats.removed > 0 {
            lines.append("no longer priced in \(DiffWords.counted(stats.removed, "territory", plural: "territories")): \(codes(.removed))")
        }
        return lines
    }

    /// ` (+10% to +25%)`, ` (+20%)`, or nothing without percentages.
    private static func range(_ percents: ClosedRange<Decimal>?) -> String {
        guard let percents else { return "" }
        let a = PriceChange.signed(percents.lowerBound) + "%", b = PriceChange.signed(percents.upperBound) + "%"
        return percents.lowerBound == percents.upperBound ? " (\(a))" : " (\(a) to \(b))"
    }

    /// `AAA, BBB, CCC and 12 more`.
    private func codes(_ action: ChangeAction) -> String {
        let codes = changes.lazy.filter { $0.aspect == .price && $0.action == action }.map { $0.territory?.code ?? $0.key ?? "?" }
        let shown = Array(codes.prefix(8))
        let total = action == .added ? statistics.added : statistics.removed
        return shown.joined(separator: ", ") + (total > shown.count ? " and \(total - shown.count) more" : "")
    }
}

/// What a report shows for one product: single changes, or a sweep in place of many price rows.
enum DiffRow {
    case change(Change)
    case sweep(PriceSweep)

    /// The product's rows: a sweep (where the first price change was) when there are more than
    /// `PriceSweep.threshold` price changes and the report is not verbose.
    static func rows(_ product: ProductChanges, verbose: Bool) -> [DiffRow] {
        guard !verbose, product.changes.count > PriceSweep.threshold,
              product.changes.lazy.filter({ $0.aspect == .price }).count > PriceSweep.threshold else {
            return product.changes.map(DiffRow.change)
        }
        var rows: [DiffRow] = []
        var placed = false
        for change in product.changes {
            if change.aspect != .price {
                rows.append(.change(change))
            } else if !placed {
                rows.append(.sweep(PriceSweep(product.changes)))
                placed = true
            }
        }
        return rows
    }

    /// The row's attention as a path and words, for the list at the top of a report.
    var attentionItem: (path: String, words: String)? {
        switch self {
        case .change(let change):
            return change.needsAttention ? DiffWords.attentionItem(change) : nil
        case .sweep(let sweep):
            let reasons = sweep.attention
            guard !reasons.isEmpty, let first = sweep.first else { return nil }
            let words = reasons.map { "\($0.count) × \($0.reason.explanation)" }.joined(separator: "; ")
            return ("\(first.productID ?? Change.sourceHeading) › prices", words)
        }
    }
}
