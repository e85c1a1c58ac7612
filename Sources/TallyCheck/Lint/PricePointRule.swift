import Foundation
import TallyModel

/// A price that is not one of the App Store's price points in its territory: App Store Connect
/// offers a fixed list of customer prices per territory (`GET /v2/inAppPurchases/{id}/pricePoints`,
/// `GET /v1/subscriptions/{id}/pricePoints`), so such a price cannot be what the store charges.
/// One finding per product and territory, naming the nearest points below and above.
///
/// The points come from the run's App Store Connect snapshots (`price-points.json`, saved by
/// `tally fetch app-store-connect`); every App Store source of the run is checked against them:
/// the snapshot's own prices, catalogues and StoreKit files. Without fetched points the rule finds
/// nothing, and the check's coverage lines say that prices were not checked against points.
public struct PricePointRule: LintRule {
    public static let description = describe(
        id: .pricePoint, defaultSeverity: .error,
        summary: "A price is not one of the App Store's price points in its territory (the points a snapshot's 'tally fetch app-store-connect' saved); one finding per product and territory names the nearest points below and above.",
        rationale: "App Store Connect sells a product only at one of the price points of each territory: a catalogue or StoreKit price between two points is a price no customer is ever charged, so the server grants, reports or compares against a price the store does not have.",
        fix: "Use one of the points the finding names (or another point of that territory), in the catalogue or StoreKit file; when the store itself shows the price, fetch the snapshot again: the points may have changed since they were read.")

    /// The price points of the run's App Store Connect snapshots, first snapshot first.
    public var points: [PricePoints]

    public init(points: [PricePoints] = []) {
        self.points = points
    }

    /// The rules, with this rule given the price points of `sources` (the run's snapshots).
    static func supplied(_ rules: [any LintRule], from sources: [Catalog]) -> [any LintRule] {
        let points = sources.compactMap(\.pricePoints)
        guard !points.isEmpty else { return rules }
        return rules.map { $0 is PricePointRule ? PricePointRule(points: points) : $0 }
    }

    /// The first snapshot's points of a product in a territory.
    func list(_ productID: String, in territory: Territory) -> (PricePointList, PricePoints)? {
        for source in points {
            if let list = source.list(productID, in: territory) { return (list, source) }
        }
        return nil
    }

    public func lint(_ catalog: Catalog, findings: inout [Finding], checked: inout CheckedLog) {
        guard !points.isEmpty, Self.examines(catalog) else { return }
        for product in catalog.products where product.isSold(in: catalog.format.store) {
            var marked = false
            for price in product.prices {
                guard let (list, source) = list(product.id, in: price.territory), Self.sameCurrency(price.money, list) else { continue }
                if !marked {
                    markChecked(catalog, product, &checked)
                    marked = true
                }
                let near = list.nearest(to: price.money.amount)
                guard !near.exact else { continue }
                findings.append(finding(catalog, product, price, list: list, source: source, below: near.below, above: near.above))
            }
        }
    }

    /// Whether the rule looks at a source: App Store sources (not Google Play's, not a paywall's).
    static func examines(_ catalog: Catalog) -> Bool {
        catalog.format.store.pricesFromPricePoints && catalog.format.role != .paywall
    }

    /// Whether a price and a list are in one currency (or either does not say).
    static func sameCurrency(_ money: Money, _ list: PricePointList) -> Bool {
        guard let currency = money.currency, let other = list.currency else { return true }
        return currency == other
    }

    private func finding(_ catalog: Catalog, _ product: Product, _ price: Price, list: PricePointList, source: PricePoints,
                         below: Decimal?, above: Decimal?) -> Finding {
        let currency = price.money.currency
        let money = { (amount: Decimal) in list.money(amount, fallback: currency) }
        let nearest: FindingMessage
        switch (below, above) {
        case let (below?, above?): nearest = "the nearest are \(money(below)) and \(money(above))"
        case let (below?, nil): nearest = "the highest is \(money(below))"
        case let (nil, above?): nearest = "the lowest is \(money(above))"
        case (nil, nil): nearest = "the store lists none there"
        }
        let message: FindingMessage = "\(product: product.id) costs \(price.money) in \(price.territory), which is not an App Store price point there; \(nearest)"
        // The side of the points: the closest point (below on a tie), at the list in the points file.
        let closest: Decimal? = switch (below, above) {
        case let (below?, above?): (price.money.amount - below) <= (above - price.money.amount) ? below : above
        case let (below, above): below ?? above
        }
        let pointsLocation = list.position.isKnown
            ? SourceLocation(file: source.file, line: Int(list.position.line), column: Int(list.position.column))
            : SourceLocation(file: source.file)
        return Finding(
            ruleID: Self.description.id, severity: Self.description.defaultSeverity, productID: product.id, territory: price.territory,
            field: .prices, message: message,
            left: FindingSide(role: nil, value: .money(price.money), location: catalog.location(price.position, path: product.path(of: .prices))),
            right: FindingSide(role: .catalog, value: closest.map { .money(money($0)) }, location: pointsLocation))
    }
}
