import Foundation
import TallyModel

/// An old and a new price, with the arithmetic a report needs. Exact: `Decimal`, or 64-bit
/// integers where they hold the same value (`ExactDecimal`); never floating point.
public struct PriceChange: Sendable, Hashable {
    public var old: Money
    public var new: Money

    public init(old: Money, new: Money) {
        self.old = old
        self.new = new
    }

    /// Which way the price moved.
    public enum Direction: String, Sendable, Hashable, Codable, CaseIterable {
        case up, down
        /// The two prices are in different currencies (USD → COP): neither up nor down.
        case otherCurrency = "other-currency"
        /// Same amount and currency (only the way it is written changed, `1.5` vs `1.50`).
        case same
    }

    /// Both prices are in the same currency, or neither names one.
    public var sameCurrency: Bool { old.currency == new.currency }

    /// Up, down, or between two currencies.
    public var direction: Direction { classified(factor: nil).direction }

    /// New minus old, in the shared currency; nil across currencies.
    public var difference: Money? {
        guard sameCurrency else { return nil }
        if let parts = aligned {
            let (delta, overflow) = parts.b.subtractingReportingOverflow(parts.a)
            if !overflow { return Money(amount: ExactDecimal.decimal(delta, exponent: parts.exponent), currency: new.currency) }
        }
        return Money(amount: new.amount - old.amount, currency: new.currency)
    }

    /// The change in percent of the old price, rounded half away from zero to one decimal
    /// place; nil across currencies or from a price of zero.
    public var percent: Decimal? {
        guard sameCurrency, old.amount != 0 else { return nil }
        if let tenths = percentTenths { return ExactDecimal.decimal(tenths, exponent: -1) }
        var ratio = (new.amount - old.amount) * 100 / old.amount
        var rounded = Decimal()
        NSDecimalRound(&rounded, &ratio, 1, .plain)
        return rounded
    }

    /// The percentage in tenths (`202` for +20.2%) when integers hold it; a cheap sort key.
    var percentTenths: Int64? {
        guard sameCurrency, let parts = aligned, parts.a != 0 else { return nil }
        let (delta, overflowA) = parts.b.subtractingReportingOverflow(parts.a)
        let (scaled, overflowB) = delta.multipliedReportingOverflow(by: 1000)
        guard !overflowA, !overflowB else { return nil }
        return ExactDecimal.roundedQuotient(scaled, parts.a)
    }

    /// More than `factor` times higher or lower in the same currency: the usual sign of a
    /// currency mix-up (a USA storefront holding peso prices). A price of zero is never a factor.
    public func exceedsFactor(_ factor: Int) -> Bool { classified(factor: factor).exceeds }

    /// Direction and factor test in one pass over the amounts.
    func classified(factor: Int?) -> (direction: Direction, exceeds: Bool) {
        guard sameCurrency else { return (.otherCurrency, false) }
        if let parts = aligned {
            let direction: Direction = parts.b > parts.a ? .up : (parts.b < parts.a ? .down : .same)
            guard let factor, parts.a > 0, parts.b > 0 else { return (direction, false) }
            let (upper, overflowA) = parts.a.multipliedReportingOverflow(by: Int64(factor))
            let (lower, overflowB) = parts.b.multipliedReportingOverflow(by: Int64(factor))
            if !overflowA, !overflowB { return (direction, parts.b > upper || parts.a > lower) }
        }
        let direction: Direction = new.amount > old.amount ? .up : (new.amount < old.amount ? .down : .same)
        guard let factor, old.amount > 0, new.amount > 0 else { return (direction, false) }
        let multiple = Decimal(factor)
        return (direction, new.amount > old.amount * multiple || old.amount > new.amount * multiple)
    }

    private var aligned: (a: Int64, b: Int64, exponent: Int)? {
        guard let a = ExactDecimal(old.amount), let b = ExactDecimal(new.amount) else { return nil }
        return ExactDecimal.aligned(a, b)
    }

    /// New minus old and the change in percent (rounded as `percent`), in one pass over the
    /// amounts: what a report's words need (`PriceChange.words`, in TallyReport). Nil across
    /// currencies; the percent is nil from a price of zero.
    public var delta: (difference: Decimal, percent: Decimal?)? {
        guard sameCurrency else { return nil }
        if let parts = aligned, parts.a != 0 {
            let (moved, overflowA) = parts.b.subtractingReportingOverflow(parts.a)
            let (scaled, overflowB) = moved.multipliedReportingOverflow(by: 1000)
            if !overflowA, !overflowB {
                return (ExactDecimal.decimal(moved, exponent: parts.exponent),
                        ExactDecimal.decimal(ExactDecimal.roundedQuotient(scaled, parts.a), exponent: -1))
            }
        }
        return (difference?.amount ?? 0, percent)
    }
}
