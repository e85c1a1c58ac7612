import Foundation

/// Calendar days as the stores write them (`2024-03-01`). Days are compared as text: for
/// `YYYY-MM-DD`, the text order is the calendar order, with no time zone to get wrong.
public enum DayText {
    /// Today in UTC, as `YYYY-MM-DD`.
    public static func today(_ now: Date = Date()) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: now)
        return format(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
    }

    /// Whether the text is a day `YYYY-MM-DD` with a month 01–12 and a day 01–31.
    public static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return false }
        for index in [0, 1, 2, 3, 5, 6, 8, 9] where !(48...57).contains(bytes[index]) { return false }
        let month = Int(bytes[5] - 48) * 10 + Int(bytes[6] - 48)
        let day = Int(bytes[8] - 48) * 10 + Int(bytes[9] - 48)
        return (1...12).contains(month) && (1...31).contains(day)
    }

    /// Whether `today` lies in the span from `start` to `end`, both included; a missing end
    /// (or start) leaves that side open.
    public static func span(start: String?, end: String?, contains today: String) -> Bool {
        if let start, start > today { return false }
        if let end, end < today { return false }
        return true
    }

    private static func format(year: Int, month: Int, day: Int) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))"
    }
}

extension DayText {
    /// Whole days from one `YYYY-MM-DD` to another (negative when `end` is earlier); nil when
    /// either is not a valid day.
    public static func days(from start: String, to end: String) -> Int? {
        guard isValid(start), isValid(end) else { return nil }
        func date(_ text: String) -> Date? {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
            let parts = text.split(separator: "-").compactMap { Int($0) }
            guard parts.count == 3 else { return nil }
            return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
        }
        guard let from = date(start), let to = date(end) else { return nil }
        return Int((to.timeIntervalSince(from) / 86_400).rounded())
    }
}
