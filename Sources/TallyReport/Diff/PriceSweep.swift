import Foundation
import TallyDiff
import TallyModel

/// A product's price changes in many territories at once, summarised in a few words: a large
/// sweep (one product repriced in 175 territories) should not bury the rest of a report.
struct PriceSweep {
    /// More price changes than this in one product are summarised unless the report is verbose.
    static let threshold = DiffFormat.sweepThreshold

    var changed: [Change] = []
    var added: [Change] = []
    var removed: [Change] = []

    init(_ changes: [Change]) {
        for change in changes where change.aspect == .price {
            switch change.action {
            case .changed: changed.append(change)
            case .added: added.append(change)
            case .removed: removed.append(change)
            }
        }
    }

    var count: Int { changed.count + added.count + removed.count }

    /// Where the sweep starts in each file: its first row's position.
    var first: Change? { changed.first ?? added.first ?? removed.first }

    /// Every attention reason in the sweep, with how many rows carry it.
    var attention: [(reason: Attention, count: Int)] {
        var counts: [Attention: Int] = [:]
        for change in changed + added + removed {
            for reason in change.attention { counts[reason, default: 0] += 1 }
        }
        return Attention.allCases.compactMap { reason in counts[reason].map { (reason, $0) } }
    }

    /// `changed in 175 territories: 170 up (+10% to +25%), 5 down (-3%); USA 4.99 USD → 5.99 USD (+1 USD, +20.04%)`,
    /// then `newly priced in 3 territories: ...` and `no longer priced in 2 territories: ...`.
    func lines(example territory: Territory) -> [String] {
        var lines: [String] = []
        if !changed.isEmpty {
            var up: [Decimal] = [], down: [Decimal] = []
            var upCount = 0, downCount = 0, otherCurrency = 0
            for change in changed {
                guard let delta = change.priceChange else { continue }
                switch delta.direction {
                case .up:
                    upCount += 1
                    if let percent = delta.percent { up.append(percent) }
                case .down:
                    downCount += 1
                    if let percent = delta.percent { down.append(percent) }
                case .otherCurrency: otherCurrency += 1
                case .same: break
                }
            }
            var parts: [String] = []
            if upCount > 0 { parts.append("\(upCount) up\(Self.range(up))") }
            if downCount > 0 { parts.append("\(downCount) down\(Self.range(down))") }
            if otherCurrency > 0 { parts.append("\(otherCurrency) between currencies") }
            var line = "changed in \(DiffWords.counted(changed.count, "territory", plural: "territories")): \(parts.joined(separator: ", "))"
            if let example = changed.first(where: { $0.territory == territory }) ?? changed.first {
                line += "; e.g. \(example.territory?.code ?? example.key ?? "") \(example.summary)"
            }
            lines.append(line)
        }
        if !added.isEmpty {
            lines.append("newly priced in \(DiffWords.counted(added.count, "territory", plural: "territories")): \(Self.codes(added))")
        }
        if !removed.isEmpty {
            lines.append("no longer priced in \(DiffWords.counted(removed.count, "territory", plural: "territories")): \(Self.codes(removed))")
        }
        return lines
    }

    /// ` (+10% to +25%)`, ` (+20%)`, or nothing without percentages.
    private static func range(_ percents: [Decimal]) -> String {
        guard let low = percents.min(), let high = percents.max() else { return "" }
        let a = PriceChange.signed(low) + "%", b = PriceChange.signed(high) + "%"
        return low == high ? " (\(a))" : " (\(a) to \(b))"
    }

    /// `AAA, BBB, CCC and 12 more`.
    private static func codes(_ changes: [Change]) -> String {
        let codes = changes.map { $0.territory?.code ?? $0.key ?? "?" }
        return codes.count <= 8 ? codes.joined(separator: ", ") : codes.prefix(8).joined(separator: ", ") + " and \(codes.count - 8) more"
    }
}

/// What a report shows for one product: single changes, or a sweep in place of many price rows.
enum DiffRow {
    case change(Change)
    case sweep(PriceSweep)

    /// The product's rows: a sweep (where the first price change was) when there are more than
    /// `PriceSweep.threshold` price changes and the report is not verbose.
    static func rows(_ product: ProductChanges, verbose: Bool) -> [DiffRow] {
        let prices = product.changes.lazy.filter { $0.aspect == .price }.count
        guard !verbose, prices > PriceSweep.threshold else { return product.changes.map(DiffRow.change) }
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
}
