import Foundation
import TallyModel

/// An old and a new price, with the arithmetic a report needs. Everything is `Decimal`.
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

    public var direction: Direction {
        guard sameCurrency else { return .otherCurrency }
        if new.amount > old.amount { return .up }
        if new.amount < old.amount { return .down }
        return .same
    }

    /// New minus old, in the shared currency; nil across currencies.
    public var difference: Money? {
        guard sameCurrency else { return nil }
        return Money(amount: new.amount - old.amount, currency: new.currency)
    }

    /// The change in percent of the old price, rounded to one decimal place; nil across
    /// currencies or from a price of zero.
    public var percent: Decimal? {
        guard sameCurrency, old.amount != 0 else { return nil }
        var ratio = (new.amount - old.amount) * 100 / old.amount
        var rounded = Decimal()
        NSDecimalRound(&rounded, &ratio, 1, .plain)
        return rounded
    }

    /// More than `factor` times higher or lower in the same currency: the usual sign of a
    /// currency mix-up (a USA storefront holding peso prices). A price of zero is never a factor.
    public func exceedsFactor(_ factor: Decimal) -> Bool {
        guard sameCurrency, old.amount > 0, new.amount > 0 else { return false }
        return new.amount > old.amount * factor || old.amount > new.amount * factor
    }

    /// `+1 USD, +20.2%`, `-0.5 USD, -10%`, or `currency USD → COP` across currencies.
    public var words: String {
        guard let difference else {
            return "currency \(old.currency ?? "unknown") → \(new.currency ?? "unknown")"
        }
        var parts = [PriceChange.signed(difference.amount) + (difference.currency.map { " \($0)" } ?? "")]
        if let percent { parts.append(PriceChange.signed(percent) + "%") }
        return parts.joined(separator: ", ")
    }

    /// `+1.5`, `-0.25`, `0`: plain decimal text with an explicit sign.
    public static func signed(_ value: Decimal) -> String {
        let text = Money.plain(value)
        return value > 0 ? "+" + text : text
    }
}
