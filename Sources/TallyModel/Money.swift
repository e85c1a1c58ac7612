import Foundation

/// An exact amount of money. Always `Decimal`, parsed from the literal text, never through `Double`.
public struct Money: Sendable, Hashable, Codable, CustomStringConvertible {
    public var amount: Decimal
    /// The ISO 4217 code packed in four bytes (0 when unknown): catalogues hold millions of prices.
    private var currencyCode: UInt32

    /// ISO 4217 code, when the source or the storefront tells it.
    public var currency: String? {
        get { currencyCode == 0 ? nil : Money.unpack(currencyCode) }
        set { currencyCode = newValue.map(Money.pack) ?? 0 }
    }

    public init(amount: Decimal, currency: String?) {
        self.amount = amount
        self.currencyCode = currency.map(Money.pack) ?? 0
    }

    /// An amount in the currency of a territory's storefront (no currency when Tally does not know it).
    public init(amount: Decimal, in territory: Territory) {
        self.amount = amount
        self.currencyCode = territory.currencyCode
    }

    enum CodingKeys: String, CodingKey { case amount, currency }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(amount: try container.decode(Decimal.self, forKey: .amount),
                  currency: try container.decodeIfPresent(String.self, forKey: .currency))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(amount, forKey: .amount)
        try container.encodeIfPresent(currency, forKey: .currency)
    }

    /// Three ASCII letters packed into the low bytes; anything else is kept as "unknown" (0).
    static func pack(_ code: String) -> UInt32 {
        var value: UInt32 = 0
        var count = 0
        for byte in code.utf8 {
            guard count < 3, byte >= 0x21, byte <= 0x7E else { return 0 }
            value = value << 8 | UInt32(byte)
            count += 1
        }
        return count == 3 ? value : 0
    }

    private static func unpack(_ value: UInt32) -> String {
        String(decoding: [UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)], as: UTF8.self)
    }

    /// "4.99 USD", "10.90 BRL", "160 JPY": `PeopleText.money`.
    public var description: String { PeopleText.money(self) }

    /// Money as text, under `PeopleText` and `MachineText` (which everything else calls).
    ///
    /// - Parameters:
    ///   - plain: the amount as plain decimal text (`Money.plain`, or a faster cache of it).
    ///   - currency: the ISO 4217 code; without it the amount is written plain.
    ///   - code: whether the code follows the amount (`10.90 BRL`) or not (`10.90`).
    ///   - minorUnits: whether the amount is padded to the currency's minor units (`10.90`), or
    ///     written exactly as plain (`10.9 BRL`: what a baseline records and compares).
    public static func text(_ plain: String, currency: String?, code: Bool = true, minorUnits: Bool = true) -> String {
        guard let currency else { return plain }
        let amount = minorUnits ? padded(plain, currency: currency) : plain
        return code ? "\(amount) \(currency)" : amount
    }

    /// How many decimals a currency's amounts are written with (ISO 4217 minor units): 0 for
    /// JPY, KRW and the other whole-unit currencies, 3 for BHD, JOD, KWD, OMR and TND, else 2.
    public static func minorUnits(_ currency: String) -> Int {
        switch currency {
        case "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV", "XAF", "XOF", "XPF":
            return 0
        case "BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND":
            return 3
        default:
            return 2
        }
    }

    /// Plain decimal text (`10.9`, `-2`) padded to the currency's minor units (`10.90`, `-2.00`);
    /// digits beyond them are kept (an exact `0.995` stays `0.995`).
    static func padded(_ plain: String, currency: String) -> String {
        let minor = minorUnits(currency)
        guard minor > 0 else { return plain }
        guard let dot = plain.firstIndex(of: ".") else { return plain + "." + String(repeating: "0", count: minor) }
        let decimals = plain.distance(from: dot, to: plain.endIndex) - 1
        return decimals >= minor ? plain : plain + String(repeating: "0", count: minor - decimals)
    }

    /// The amount as plain decimal text ("0.99", "129"), independent of the locale.
    public static func plain(_ amount: Decimal) -> String {
        var value = amount
        return NSDecimalString(&value, nil)
    }
}

/// Exact decimal parsing from the text a file holds: "0.99", "129", "-1.5"; "1e3" is refused.
public enum DecimalText {
    /// Parses `[-]digits[.digits]` with at most 38 significant digits. Returns nil for
    /// anything else (exponents, signs in the middle, empty text, too many digits).
    public static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Decimal? {
        var mantissa: UInt64 = 0
        var negative = false
        var scale = 0
        var seenDot = false
        var digits = 0
        var index = 0
        let count = text.count
        if index < count, text[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        while index < count {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                guard !seenDot, digits > 0 else { return nil }
                seenDot = true
            } else if byte >= 48, byte <= 57 {
                digits += 1
                if seenDot { scale += 1 }
                if digits <= 19 { mantissa = mantissa &* 10 &+ UInt64(byte - 48) }
            } else {
                return nil
            }
            index += 1
        }
        guard digits > 0, digits <= 38, text[count - 1] != UInt8(ascii: ".") else { return nil }
        if digits > 19 {
            // Rare: more than 19 digits. Foundation parses the already-validated text, POSIX locale.
            return Decimal(string: String(decoding: text, as: UTF8.self), locale: Locale(identifier: "en_US_POSIX"))
        }
        var value = Decimal(mantissa)
        if scale > 0 {
            value = Decimal(sign: .plus, exponent: -scale, significand: value)
        }
        return negative ? -value : value
    }

    public static func parse(_ text: String) -> Decimal? {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    /// The most significant digits a decimal Tally reads can have.
    public static let maxDigits = 38

    /// Why `parse` refuses `text`, as words to follow the quoted text: `is out of range: 60
    /// digits, more than the 38 a decimal holds exactly` for a well-formed number that is too
    /// long, else `is not a decimal number`.
    public static func rejection(_ text: String) -> String {
        let body = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        let wellFormed = !body.isEmpty && parts.count <= 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
        let digits = parts.reduce(0) { $0 + $1.count }
        if wellFormed, digits > maxDigits {
            return "is out of range: \(digits) digits, more than the \(maxDigits) a decimal holds exactly"
        }
        return "is not a decimal number"
    }
}

/// A decimal read from a document: the exact value, or the text that is not one.
public enum DecimalValue: Sendable, Hashable {
    case value(Decimal)
    case invalid(String)
}
