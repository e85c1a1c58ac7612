import Foundation

/// The App Store's price points as a `tally fetch app-store-connect` snapshot saved them
/// (`price-points.json`): for each product, in each territory fetched, every customer price
/// App Store Connect accepts there. A price that is not one of them cannot be set in the store.
public struct PricePoints: Sendable, Hashable, Codable {
    /// When the points were read from App Store Connect (ISO 8601, UTC).
    public var readAt: String
    /// Whole days from `readAt` to the day the snapshot was read (`ReadOptions.today`); nil when
    /// `readAt` is not a date Tally can read.
    public var ageInDays: Int?
    /// The file they were read from.
    public var file: String
    /// Product ID → territory → its points.
    public var products: [String: [Territory: PricePointList]]
    /// Product ID → territories the product is priced in whose points were not fetched (past
    /// the fetch's bound, or refused by the server).
    public var notFetched: [String: [Territory]]

    /// Past this age (in days) a check says the points may be out of date: Apple revises price
    /// points when taxes or exchange rates change in a territory. It never fails on it.
    public static let staleAfterDays = 90

    public init(readAt: String, ageInDays: Int? = nil, file: String, products: [String: [Territory: PricePointList]] = [:],
                notFetched: [String: [Territory]] = [:]) {
        self.readAt = readAt
        self.ageInDays = ageInDays
        self.file = file
        self.products = products
        self.notFetched = notFetched
    }

    /// The points of `productID` in `territory`, when fetched.
    public func list(_ productID: String, in territory: Territory) -> PricePointList? {
        products[productID]?[territory]
    }

    /// Whether the points are older than `staleAfterDays`.
    public var isStale: Bool { (ageInDays ?? 0) > Self.staleAfterDays }
}

/// One territory's price points for one product: the customer prices, ascending, each once.
public struct PricePointList: Sendable, Hashable, Codable {
    /// The territory's currency (ISO 4217), as App Store Connect names it.
    public var currency: String?
    /// The customer prices, ascending, without repeats.
    public var prices: [Decimal]
    /// Where the list is written in the price points file.
    public var position: Position

    public init(currency: String?, prices: [Decimal], position: Position = .unknown) {
        self.currency = currency
        self.prices = Array(Set(prices)).sorted()
        self.position = position
    }

    /// Whether `amount` is one of the points.
    public func contains(_ amount: Decimal) -> Bool {
        nearest(to: amount).exact
    }

    /// The highest point below `amount` and the lowest above it (nil past either end), and
    /// whether `amount` is a point itself.
    public func nearest(to amount: Decimal) -> (below: Decimal?, above: Decimal?, exact: Bool) {
        var low = 0
        var high = prices.count
        while low < high {
            let middle = (low + high) / 2
            if prices[middle] < amount { low = middle + 1 } else { high = middle }
        }
        if low < prices.count, prices[low] == amount { return (low > 0 ? prices[low - 1] : nil, low + 1 < prices.count ? prices[low + 1] : nil, true) }
        return (low > 0 ? prices[low - 1] : nil, low < prices.count ? prices[low] : nil, false)
    }

    /// A point as money in this list's currency (or `fallback`'s when the list names none).
    public func money(_ amount: Decimal, fallback: String?) -> Money {
        Money(amount: amount, currency: currency ?? fallback)
    }
}
