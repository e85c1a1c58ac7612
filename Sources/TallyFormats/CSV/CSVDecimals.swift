import Foundation
import TallyModel

/// Prices from the bytes of a CSV cell. The common case (`4.99`: digits and at most one point)
/// is parsed in place and its `Decimal` comes from a direct-mapped cache, since a catalogue
/// repeats a few hundred price points millions of times; anything else goes through
/// `DecimalText`, which decides what is a decimal number.
final class CSVDecimals {
    private let cache = DecimalCache()

    /// An exact decimal, or nil. With `decimalComma` (`;`-separated files) a single comma in a
    /// number without a point is the decimal point: `1,99` is 1.99.
    func parse(_ bytes: UnsafeBufferPointer<UInt8>, decimalComma: Bool) -> Decimal? {
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = -1
        var fast = true
        for byte in bytes {
            if byte >= 48 && byte <= 57 {
                mantissa = mantissa &* 10 &+ UInt64(byte - 48)
                digits += 1
                if scale >= 0 { scale += 1 }
            } else if byte == UInt8(ascii: ".") || (decimalComma && byte == UInt8(ascii: ",")), scale < 0, digits > 0 {
                scale = 0
            } else {
                fast = false
                break
            }
        }
        if fast, digits > 0, digits <= 17, scale != 0 { return cached(mantissa: mantissa, scale: Swift.max(scale, 0)) }
        return Self.slowParse(bytes, decimalComma: decimalComma)
    }

    private static func slowParse(_ bytes: UnsafeBufferPointer<UInt8>, decimalComma: Bool) -> Decimal? {
        let commas = bytes.reduce(0) { $0 + ($1 == UInt8(ascii: ",") ? 1 : 0) }
        if decimalComma, commas == 1, !bytes.contains(UInt8(ascii: ".")) {
            let pointed = bytes.map { $0 == UInt8(ascii: ",") ? UInt8(ascii: ".") : $0 }
            if let value = pointed.withUnsafeBufferPointer({ DecimalText.parse($0) }) { return value }
        }
        return DecimalText.parse(bytes)
    }

    private func cached(mantissa: UInt64, scale: Int) -> Decimal {
        cache.value(mantissa: mantissa, scale: scale)
    }
}
