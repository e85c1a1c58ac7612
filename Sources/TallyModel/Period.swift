/// An ISO 8601 duration as the stores use it (`P1W`, `P3M`, `P1Y`, `P7D`).
///
/// Two periods are equal when they describe the same length: `P7D == P1W`, `P12M == P1Y`;
/// weeks and months never mix (`P4W != P1M`), because a month is not 28 days.
public struct Period: Sendable, Hashable, Codable, CustomStringConvertible, Comparable {
    /// The length in calendar months (years count 12).
    public let months: Int
    /// The length in days (weeks count 7).
    public let days: Int
    /// The text the source wrote, kept for messages (`P7D`).
    public let literal: String

    public init(months: Int, days: Int) {
        self.months = months
        self.days = days
        self.literal = Period.canonicalLiteral(months: months, days: days)
    }

    /// Parses `PnYnMnWnD`. Returns nil for anything else, including time parts (`PT1H`),
    /// negative or empty durations.
    public init?(iso8601 text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count >= 3, bytes[0] == UInt8(ascii: "P") else { return nil }
        var months = 0, days = 0, number = 0, digits = 0
        var lastUnitRank = -1
        for byte in bytes.dropFirst() {
            if byte >= 48 && byte <= 57 {
                guard digits < 6 else { return nil }
                number = number * 10 + Int(byte - 48)
                digits += 1
                continue
            }
            guard digits > 0 else { return nil }
            let rank: Int
            switch byte {
            case UInt8(ascii: "Y"): months += number * 12; rank = 0
            case UInt8(ascii: "M"): months += number; rank = 1
            case UInt8(ascii: "W"): days += number * 7; rank = 2
            case UInt8(ascii: "D"): days += number; rank = 3
            default: return nil
            }
            guard rank > lastUnitRank else { return nil }
            lastUnitRank = rank
            number = 0
            digits = 0
        }
        guard digits == 0, months + days > 0 else { return nil }
        self.months = months
        self.days = days
        self.literal = text
    }

    public static func == (lhs: Period, rhs: Period) -> Bool {
        lhs.months == rhs.months && lhs.days == rhs.days
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(months)
        hasher.combine(days)
    }

    /// Orders by an approximate length (a month as 30 days) for sorting only.
    public static func < (lhs: Period, rhs: Period) -> Bool {
        (lhs.months * 30 + lhs.days, lhs.months) < (rhs.months * 30 + rhs.days, rhs.months)
    }

    /// The shortest ISO form: `P1Y`, `P6M`, `P1W`, `P3D`, `P1Y2M`.
    public var canonical: String { Period.canonicalLiteral(months: months, days: days) }

    /// Words for people: "1 week", "28 days", "1 month", "1 year", "1 year 6 months".
    public var words: String {
        var parts: [String] = []
        if months > 0 {
            if months % 12 == 0 {
                parts.append(plural(months / 12, "year"))
            } else if months > 12 {
                parts.append(plural(months / 12, "year"))
                parts.append(plural(months % 12, "month"))
            } else {
                parts.append(plural(months, "month"))
            }
        }
        if days > 0 {
            parts.append(days % 7 == 0 ? plural(days / 7, "week") : plural(days, "day"))
        }
        return parts.joined(separator: " ")
    }

    /// "28 days" for P4W: the unit that shows why it differs from a month.
    public var wordsInDays: String { months == 0 ? plural(days, "day") : words }

    public var description: String { literal }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let period = Period(iso8601: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 period: \(text)")
        }
        self = period
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(canonical)
    }

    private static func canonicalLiteral(months: Int, days: Int) -> String {
        var text = "P"
        if months >= 12 { text += "\(months / 12)Y" }
        if months % 12 > 0 { text += "\(months % 12)M" }
        if days > 0 { text += days % 7 == 0 ? "\(days / 7)W" : "\(days)D" }
        return text == "P" ? "P0D" : text
    }

    private func plural(_ count: Int, _ unit: String) -> String {
        "\(count) \(unit)\(count == 1 ? "" : "s")"
    }
}

extension Period {
    /// Periods an App Store auto-renewable subscription may have.
    public static let subscriptionPeriods: Set<Period> = Set(
        ["P1W", "P1M", "P2M", "P3M", "P6M", "P1Y"].compactMap { Period(iso8601: $0) })
    /// Periods an App Store introductory or promotional offer may have.
    public static let offerPeriods: Set<Period> = Set(
        ["P3D", "P1W", "P2W", "P1M", "P2M", "P3M", "P6M", "P1Y"].compactMap { Period(iso8601: $0) })
}
