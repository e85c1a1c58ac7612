import Foundation
import TallyModel

/// The price changes of one product counted in one pass: how many went up or down and by how
/// much, how many territories were added or removed, and why any need attention. Reports use it
/// to summarise a sweep (one product repriced in 175 territories) in a line.
public struct PriceStatistics: Sendable, Hashable {
    public var changed = 0
    public var up = 0
    public var down = 0
    /// Changes between two currencies (USD → COP).
    public var otherCurrency = 0
    public var added = 0
    public var removed = 0
    /// The smallest and largest percentage of the increases (nil when none has one).
    public var upPercent: ClosedRange<Decimal>?
    /// The smallest and largest percentage of the decreases (most negative first).
    public var downPercent: ClosedRange<Decimal>?
    /// Attention reasons among the price changes, with how many changes carry each.
    public var attention: [Attention: Int] = [:]
    /// Every price change (changed, added, removed), in the product's order.
    public var total: Int { changed + added + removed }

    /// Counts the `.price` changes among `changes`.
    public init(_ changes: [Change]) {
        var upRange = PercentRange(), downRange = PercentRange()
        var reasons: [Int] = Array(repeating: 0, count: Attention.allCases.count)
        for change in changes where change.aspect == .price {
            if change.needsAttention {
                for (index, reason) in Attention.allCases.enumerated() where change.needsAttention(reason) { reasons[index] += 1 }
            }
            switch change.action {
            case .added: added += 1
            case .removed: removed += 1
            case .changed:
                changed += 1
                switch change.priceDirection {
                case .up:
                    up += 1
                    upRange.add(change)
                case .down:
                    down += 1
                    downRange.add(change)
                case .otherCurrency: otherCurrency += 1
                case .same, nil: break
                }
            }
        }
        upPercent = upRange.range
        downPercent = downRange.range
        for (index, reason) in Attention.allCases.enumerated() where reasons[index] > 0 { attention[reason] = reasons[index] }
    }

    /// Minimum and maximum percentages, in tenths while integers hold them.
    private struct PercentRange {
        var low: Int64?, high: Int64?
        var exactLow: Decimal?, exactHigh: Decimal?

        mutating func add(_ change: Change) {
            guard let delta = change.priceChange else { return }
            if let tenths = delta.percentTenths {
                low = Swift.min(low ?? tenths, tenths)
                high = Swift.max(high ?? tenths, tenths)
            } else if let percent = delta.percent {
                exactLow = Swift.min(exactLow ?? percent, percent)
                exactHigh = Swift.max(exactHigh ?? percent, percent)
            }
        }

        var range: ClosedRange<Decimal>? {
            let lows = [low.map { ExactDecimal.decimal($0, exponent: -1) }, exactLow].compactMap { $0 }
            let highs = [high.map { ExactDecimal.decimal($0, exponent: -1) }, exactHigh].compactMap { $0 }
            guard let a = lows.min(), let b = highs.max() else { return nil }
            return a...b
        }
    }
}
