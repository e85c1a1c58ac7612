import Foundation
import TallyModel

/// Decimal text for reports, as `Money.plain` writes it (`0.99`, `4900`, `-0.5`, trailing zeros
/// dropped), without Foundation's slow general formatter for the usual small prices.
public enum DecimalFormat {
    /// `0.99`, `4900`, `-0.5`: the amount as plain decimal text, independent of the locale.
    public static func plain(_ value: Decimal) -> String {
        guard let exact = ExactDecimal(value) else { return Money.plain(value) }
        var significand = exact.significand.magnitude, exponent = exact.exponent
        guard significand != 0 else { return "0" }
        while exponent < 0, significand % 10 == 0 {
            significand /= 10
            exponent += 1
        }
        var digits = String(significand)
        if exponent >= 0 {
            digits += String(repeating: "0", count: exponent)
        } else if digits.count + exponent <= 0 {
            digits = "0." + String(repeating: "0", count: -exponent - digits.count) + digits
        } else {
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: exponent))
        }
        return exact.significand < 0 ? "-" + digits : digits
    }

    /// `4.99 USD`, or `4.99` without a currency: `Money.description`, faster.
    public static func money(_ money: Money) -> String {
        money.currency.map { "\(plain(money.amount)) \($0)" } ?? plain(money.amount)
    }
}
