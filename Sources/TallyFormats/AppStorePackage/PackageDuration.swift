import TallyModel

/// Durations as an App Store package writes them: "1 Month", "6 Months", "1 Year", "7 Days",
/// "2 Weeks" (a number, a space, a unit in the singular or plural, any case).
enum PackageDuration {
    /// The period, or nil when the text is not such a duration.
    static func period(_ text: String) -> Period? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.count == 2, let count = Int(words[0]), count > 0, count < 1000 else { return nil }
        let unit: String
        switch words[1].lowercased() {
        case "day", "days": unit = "D"
        case "week", "weeks": unit = "W"
        case "month", "months": unit = "M"
        case "year", "years": unit = "Y"
        default: return nil
        }
        return Period(iso8601: "P\(count)\(unit)")
    }
}
