import TallyModel

/// What `price-point` covered in one run, in words for the reports' `compared:` lines: which
/// snapshot's points, read when, how many prices were checked and how many could not be (no
/// points fetched for that product or territory). A run with an App Store Connect source but no
/// fetched points says that prices were not checked against points; a run with no App Store
/// Connect source says nothing (no points could be expected).
public enum PricePointCoverage {
    static let opening = "prices against App Store price points"

    /// Whether a coverage line is this one (a policy that turns `price-point` off drops it).
    static func isSentence(_ line: String) -> Bool { line.hasPrefix(opening) }

    public static func sentences(_ sources: [Catalog]) -> [String] {
        let snapshots = sources.filter { $0.format.isConnectAPIRecord }
        guard !snapshots.isEmpty else { return [] }
        let points = sources.compactMap(\.pricePoints)
        guard !points.isEmpty else {
            let names = snapshots.map(\.file).joined(separator: ", ")
            return ["\(opening): not checked, \(names) holds no price points "
                    + "(a snapshot fetched before Tally saved them, or pages saved by hand); fetch it again to check them"]
        }
        let rule = PricePointRule(points: points)
        var checked = 0, withoutPoints = 0, otherCurrency = 0
        var checkedSources = 0
        for source in sources where PricePointRule.examines(source) {
            var any = false
            for product in source.products where product.isSold(in: source.format.store) {
                for price in product.prices {
                    guard let (list, _) = rule.list(product.id, in: price.territory) else {
                        withoutPoints += 1
                        continue
                    }
                    guard PricePointRule.sameCurrency(price.money, list) else {
                        otherCurrency += 1
                        continue
                    }
                    checked += 1
                    any = true
                }
            }
            if any { checkedSources += 1 }
        }
        var parts = ["\(checked) price\(checked == 1 ? "" : "s") in \(checkedSources) source\(checkedSources == 1 ? "" : "s")"]
        if withoutPoints > 0 {
            parts.append("not checked: \(withoutPoints) price\(withoutPoints == 1 ? "" : "s") in a product or territory whose points were not fetched")
        }
        if otherCurrency > 0 {
            parts.append("not checked: \(otherCurrency) price\(otherCurrency == 1 ? "" : "s") in another currency than the territory's points")
        }
        let read = points.map { source in
            var text = "\(source.file), read \(source.readAt)"
            if let age = source.ageInDays, age >= 0 {
                text += " (\(age) day\(age == 1 ? "" : "s") old"
                text += source.isStale ? ", over \(PricePoints.staleAfterDays): Apple revises points with taxes and exchange rates, fetch again)" : ")"
            }
            return text
        }.joined(separator: "; ")
        return ["\(opening) (\(read)): " + parts.joined(separator: "; ")]
    }
}
