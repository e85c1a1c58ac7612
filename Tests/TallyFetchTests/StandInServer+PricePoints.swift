#if Fetch  // TallyFetchTests need the network stack: swift test --traits Fetch
import FlyingFox
import Foundation

/// The stand-in's price point endpoints, written from Apple's documentation ("List all price
/// points for an in-app purchase", `GET /v2/inAppPurchases/{id}/pricePoints`; "List all price
/// points for a subscription", `GET /v1/subscriptions/{id}/pricePoints`): resources of type
/// `inAppPurchasePricePoints` (attributes `customerPrice`, `proceeds`) or `subscriptionPricePoints`
/// (also `proceedsYear2`), each linked to its `territory`, `include=territory` giving the
/// territories with their `currency`; `filter[territory]` (comma-separated) picks the territories,
/// and a request without it is refused here (Apple: "Use the territory filter on all requests");
/// `limit` above the documented maximum (8000 for in-app purchases; 200, what Tally asks, for
/// subscriptions) is a parameter error. Pages hold at most `pricePointPageSize` points.
///
/// The points of a territory: a ladder of customer prices (0.29, 0.49, 0.99, then each x.49 and
/// x.99 to 19.99, and a few above; whole amounts for JPY and KRW) and every price the stand-in's
/// data set in that territory (a price App Store Connect shows is one of its points).
extension StandInServer {
    static let pricePointPageSize = 250

    func pricePoints(_ request: HTTPRequest) -> HTTPResponse? {
        let parts = request.path.split(separator: "/").map(String.init)
        guard parts.count == 4, parts[3] == "pricePoints",
              (parts[0] == "v2" && parts[1] == "inAppPurchases") || (parts[0] == "v1" && parts[1] == "subscriptions") else { return nil }
        let (type, id) = (parts[1], parts[2])
        guard known.contains("\(type)/\(id)") else {
            return Self.error(404, "NOT_FOUND", "The specified resource does not exist", "There is no resource of type '\(type)' with id '\(id)'")
        }
        let maximum = type == "inAppPurchases" ? 8000 : 200
        if let limit = request.query.first(where: { $0.name == "limit" })?.value, (Int(limit) ?? 0) < 1 || (Int(limit) ?? 0) > maximum {
            return Self.error(400, "PARAMETER_ERROR.INVALID", "A parameter has an invalid value", "'\(limit)' is not a valid value for 'limit': the maximum is \(maximum)")
        }
        guard let filter = request.query.first(where: { $0.name == "filter[territory]" })?.value, !filter.isEmpty else {
            return Self.error(400, "PARAMETER_ERROR.REQUIRED", "A required parameter is missing", "filter[territory] is required")
        }
        let codes = filter.split(separator: ",").map(String.init)
        guard codes.allSatisfy({ $0.count == 3 && $0.allSatisfy { $0.isUppercase && $0.isASCII } }) else {
            return Self.error(400, "PARAMETER_ERROR.INVALID", "A parameter has an invalid value", "'\(filter)' is not a valid value for 'filter[territory]'")
        }
        let pointType = type == "inAppPurchases" ? "inAppPurchasePricePoints" : "subscriptionPricePoints"
        let set = setPrices()
        var data: [[String: Any]] = []
        var pool: [[String: Any]] = []
        for code in codes {
            let currency = Self.currencies[code] ?? "USD"
            pool.append(["type": "territories", "id": code, "attributes": ["currency": currency]])
            for (index, price) in Self.ladder(currency: currency, plus: set[code] ?? []).enumerated() {
                var attributes: [String: Any] = ["customerPrice": Self.text(price), "proceeds": Self.text(price * Decimal(string: "0.7")!)]
                if pointType == "subscriptionPricePoints" { attributes["proceedsYear2"] = Self.text(price * Decimal(string: "0.85")!) }
                let pointID = Data("{\"s\":\"\(id)\",\"t\":\"\(code)\",\"p\":\"\(10000 + index)\"}".utf8).base64EncodedString()
                    .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                data.append(["type": pointType, "id": pointID, "attributes": attributes,
                             "relationships": ["territory": ["data": ["type": "territories", "id": code]]]])
            }
        }
        return page((data, pool), request: request, pageSize: Self.pricePointPageSize, maximum: maximum)
    }

    /// Every customer price the data set, by territory (the prices' linked price points).
    private func setPrices() -> [String: Set<Decimal>] {
        var result: [String: Set<Decimal>] = [:]
        for route in routes.values {
            for resource in route.data + route.pool {
                guard let type = resource["type"] as? String, type.hasSuffix("PricePoints"),
                      let price = (resource["attributes"] as? [String: Any])?["customerPrice"] as? String, let amount = Decimal(string: price),
                      let territory = (((resource["relationships"] as? [String: Any])?["territory"] as? [String: Any])?["data"] as? [String: Any])?["id"] as? String
                else { continue }
                result[territory, default: []].insert(amount)
            }
        }
        return result
    }

    static let currencies = ["USA": "USD", "GBR": "GBP", "JPN": "JPY", "DEU": "EUR", "FRA": "EUR", "CAN": "CAD", "BRA": "BRL",
                             "MEX": "MXN", "KOR": "KRW", "AUS": "AUD", "CHE": "CHF", "ITA": "EUR"]

    /// The territory's ladder of points and the prices set there, ascending.
    static func ladder(currency: String, plus set: Set<Decimal>) -> [Decimal] {
        var prices = Set(set)
        if currency == "JPY" || currency == "KRW" {
            let scale: Decimal = currency == "KRW" ? 10 : 1
            for step in stride(from: 100, through: 1_000, by: 50) { prices.insert(Decimal(step) * scale) }
            for step in stride(from: 1_500, through: 25_000, by: 500) { prices.insert(Decimal(step) * scale) }
        } else {
            for text in ["0.29", "0.49", "0.99", "24.99", "29.99", "34.99", "39.99", "49.99", "69.99", "99.99", "149.99", "999.99"] {
                prices.insert(Decimal(string: text)!)
            }
            for whole in 1...19 {
                prices.insert(Decimal(whole) + Decimal(string: "0.49")!)
                prices.insert(Decimal(whole) + Decimal(string: "0.99")!)
            }
        }
        return prices.sorted()
    }

    static func text(_ amount: Decimal) -> String {
        var rounded = Decimal()
        var value = amount
        NSDecimalRound(&rounded, &value, 2, .plain)
        return NSDecimalNumber(decimal: rounded).stringValue
    }
}
#endif
