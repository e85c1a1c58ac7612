import TallyModel

/// What `price-point` covered in one run, for the reports' `compared:` lines, as values that
/// TallyReport words: which snapshot's points, read when, how many prices were checked and how
/// many could not be (no points fetched for that product or territory). A run with an App Store Connect source but no
/// fetched points says that prices were not checked against points; a run with no App Store
/// Connect source says nothing (no points could be expected).
public enum PricePointCoverage {
    /// Whether a coverage line is this one (a policy that turns `price-point` off drops it).
    static func isLine(_ line: ComparedLine) -> Bool {
        if case .pricePoints = line { return true }
        return false
    }

    /// The run's price-point line: none, or one.
    public static func lines(_ sources: [Catalog]) -> [ComparedLine] {
        let snapshots = sources.filter { $0.format.isConnectAPIRecord }
        guard !snapshots.isEmpty else { return [] }
        let points = sources.compactMap(\.pricePoints)
        guard !points.isEmpty else {
            return [.pricePoints(.noPoints(snapshots: snapshots.map(\.file)))]
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
        return [.pricePoints(.checked(read: points.map(PricePointSummary.PointsRead.init), prices: checked, sources: checkedSources,
                                      withoutPoints: withoutPoints, otherCurrency: otherCurrency))]
    }
}
