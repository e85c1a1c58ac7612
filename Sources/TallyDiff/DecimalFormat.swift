import Synchronization
import Foundation
import TallyModel

/// Decimal text for reports, as `Money.plain` writes it (`0.99`, `4900`, `-0.5`, trailing zeros
/// dropped), without Foundation's slow general formatter for the usual small prices.
public enum DecimalFormat {
    /// Texts already made: a catalogue repeats a few hundred price points millions of times.
    private static let made = Mutex<[Decimal: String]>([:])

    /// `0.99`, `4900`, `-0.5`: the amount as plain decimal text, independent of the locale.
    public static func plain(_ value: Decimal) -> String {
        if let text = made.withLock({ $0[value] }) { return text }
        let text = format(value)
        made.withLock { table in
            if table.count > 100_000 { table.removeAll(keepingCapacity: true) }
            table[value] = text
        }
        return text
    }

    private static func format(_ value: Decimal) -> String {
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
}
