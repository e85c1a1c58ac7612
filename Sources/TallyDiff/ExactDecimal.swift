import Foundation

/// A decimal as a 64-bit integer significand and a power-of-ten exponent: still exact, and cheap
/// to compare and combine. Foundation's `Decimal` arithmetic allocates on every operation, which
/// dominates a diff with millions of price changes; prices read from files (`DecimalText`) almost
/// always fit here. Every use falls back to `Decimal` when a value does not fit or a step would
/// overflow, so results never depend on which path was taken.
struct ExactDecimal: Hashable {
    var significand: Int64
    var exponent: Int

    /// Significands at or above this are left to `Decimal` (room to scale and multiply).
    private static let limit: Double = 1e15

    init?(_ value: Decimal) {
        guard value.isFinite else { return nil }
        let magnitude = NSDecimalNumber(decimal: value.significand)
        // The Double only bounds the size (a cheaper test than comparing Decimals): far below
        // 2^53 and Int64.max, `int64Value` is exact whichever side of the bound a value falls.
        guard magnitude.doubleValue < Self.limit else { return nil }
        let integer = magnitude.int64Value
        significand = value.sign == .minus ? -integer : integer
        exponent = value.exponent
    }

    /// Both significands scaled to the smaller exponent, or nil on overflow.
    static func aligned(_ a: ExactDecimal, _ b: ExactDecimal) -> (a: Int64, b: Int64, exponent: Int)? {
        if a.exponent == b.exponent { return (a.significand, b.significand, a.exponent) }
        if a.exponent > b.exponent {
            guard let scaled = scale(a.significand, by: a.exponent - b.exponent) else { return nil }
            return (scaled, b.significand, b.exponent)
        }
        guard let scaled = scale(b.significand, by: b.exponent - a.exponent) else { return nil }
        return (a.significand, scaled, a.exponent)
    }

    private static func scale(_ value: Int64, by digits: Int) -> Int64? {
        guard value != 0 else { return 0 }
        guard digits < powersOfTen.count else { return nil }
        let (result, overflow) = value.multipliedReportingOverflow(by: powersOfTen[digits])
        return overflow ? nil : result
    }

    private static let powersOfTen: [Int64] = (0...18).map { power in (0..<power).reduce(Int64(1)) { value, _ in value * 10 } }

    /// `significand × 10^exponent` as a `Decimal`.
    static func decimal(_ significand: Int64, exponent: Int) -> Decimal {
        Decimal(sign: significand < 0 ? .minus : .plus, exponent: exponent, significand: Decimal(significand.magnitude))
    }

    /// `numerator / denominator`, rounded half away from zero (as `NSDecimalRound`'s `.plain`).
    static func roundedQuotient(_ numerator: Int64, _ denominator: Int64) -> Int64 {
        let quotient = numerator / denominator, remainder = numerator % denominator
        guard remainder != 0, remainder.magnitude >= denominator.magnitude - remainder.magnitude else { return quotient }
        return (numerator < 0) != (denominator < 0) ? quotient - 1 : quotient + 1
    }
}
