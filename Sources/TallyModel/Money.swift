import Foundation

/// An exact amount of money. Always `Decimal`, parsed from the literal text, never through `Double`.
public struct Money: Sendable, Hashable, Codable, CustomStringConvertible {
    public var amount: Decimal
    /// ISO 4217 code, when the source or the storefront tells it.
    public var currency: String?

    public init(amount: Decimal, currency: String?) {
        self.amount = amount
        self.currency = currency
    }

    /// "4.99 USD", or "4.99" when the currency is unknown.
    public var description: String {
        currency.map { "\(Money.plain(amount)) \($0)" } ?? Money.plain(amount)
    }

    /// The amount as plain decimal text ("0.99", "129"), independent of the locale.
    public static func plain(_ amount: Decimal) -> String {
        var value = amount
        return NSDecimalString(&value, nil)
    }
}

/// Exact decimal parsing from the text a file holds: "0.99", "129", "-1.5", "1e3" is refused.
public enum DecimalText {
    /// Parses `[-]digits[.digits]` with at most 38 significant digits. Returns nil for
    /// anything else (exponents, signs in the middle, empty text, too many digits).
    public static func parse(_ text: Substring.UTF8View) -> Decimal? {
        var mantissa: UInt64 = 0
        var negative = false
        var scale: Int16 = 0
        var seenDot = false
        var digits = 0
        var index = text.startIndex
        if index < text.endIndex, text[index] == UInt8(ascii: "-") {
            negative = true
            text.formIndex(after: &index)
        }
        var overflowTail: [UInt8] = []
        while index < text.endIndex {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                guard !seenDot, digits > 0 else { return nil }
                seenDot = true
            } else if byte >= 48, byte <= 57 {
                digits += 1
                if seenDot { scale += 1 }
                if digits <= 19 {
                    mantissa = mantissa * 10 + UInt64(byte - 48)
                } else {
                    overflowTail.append(byte)
                }
            } else {
                return nil
            }
            text.formIndex(after: &index)
        }
        guard digits > 0, digits <= 38, text.last != UInt8(ascii: ".") else { return nil }
        if !overflowTail.isEmpty {
            // Rare: more than 19 digits. Let Foundation do it from the cleaned text, POSIX locale.
            return Decimal(string: String(decoding: text, as: UTF8.self), locale: Locale(identifier: "en_US_POSIX"))
        }
        var value = Decimal(mantissa)
        if scale > 0 {
            value = Decimal(sign: .plus, exponent: -Int(scale), significand: value)
        }
        return negative ? -value : value
    }

    public static func parse(_ text: String) -> Decimal? {
        parse(Substring(text).utf8)
    }
}
