import Foundation
import TallyFormats
import TallyModel

/// Which territories' price points a fetch asks for, product by product: those the snapshot prices
/// the product in (an in-app purchase's prices set by hand first, then USA, then the prices Apple
/// derived; a subscription's prices), at most `territoriesPerProduct` of them. The territories past
/// the bound are written in `price-points.json` as not fetched, and a check says how many prices it
/// could not check for want of them.
public struct PricePointPlan {
    /// The bound on territories per product: the price points of one territory are some 800
    /// values, and a product priced everywhere is priced in 175 territories.
    static let territoriesPerProduct = 10
    /// The most territories `--price-point-territories` may name.
    public static let namedTerritoriesLimit = 50
    /// Territories asked for in one request (`filter[territory]=USA,DEU,...`).
    static let territoriesPerRequest = 10

    struct Entry {
        /// `inAppPurchases` or `subscriptions`.
        var type: String
        var id: String
        var setByHand: [Territory] = []
        var derived: [Territory] = []

        /// The territories to fetch (within the bound) and the priced ones left out. With `named`
        /// (`--price-point-territories`), exactly those, priced there or not; the priced ones not named are left out.
        func territories(named: [Territory]? = nil) -> (fetch: [Territory], skipped: [Territory]) {
            var ordered: [Territory] = []
            for territory in setByHand where !ordered.contains(territory) { ordered.append(territory) }
            if derived.contains(.usa), !ordered.contains(.usa) { ordered.append(.usa) }
            for territory in derived where !ordered.contains(territory) { ordered.append(territory) }
            if let named { return (named, ordered.filter { !named.contains($0) }) }
            return (Array(ordered.prefix(PricePointPlan.territoriesPerProduct)), Array(ordered.dropFirst(PricePointPlan.territoriesPerProduct)))
        }
    }

    private(set) var entries: [Entry] = []

    init() {}

    /// The territories `--price-point-territories` names (`USA,DEU,JPN`), checked: three capital
    /// letters each, at most `namedTerritoriesLimit`.
    public static func territories(named text: String) throws -> [Territory] {
        var named: [Territory] = []
        for code in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !code.isEmpty {
            guard let territory = Territory(code) else {
                throw FetchError.usage("--price-point-territories takes territory codes such as USA,DEU,JPN (three capital letters), not \"\(ServerText.clean(code, limit: 20))\"")
            }
            if !named.contains(territory) { named.append(territory) }
        }
        guard !named.isEmpty, named.count <= namedTerritoriesLimit else {
            throw FetchError.usage("--price-point-territories names 1 to \(namedTerritoriesLimit) territories, not \(named.count)")
        }
        return named
    }

    /// Notes the territories of a product's price pages (the `territory` each price links to).
    mutating func note(_ pages: [ConnectPage], type: String, id: String, setByHand: Bool) {
        var territories: [Territory] = []
        for page in pages {
            for resource in page.data where resource.type == "inAppPurchasePrices" || resource.type == "subscriptionPrices" {
                if let code = resource.links["territory"]?.first, let territory = Territory(code) { territories.append(territory) }
            }
        }
        let index: Int
        if let found = entries.firstIndex(where: { $0.type == type && $0.id == id }) {
            index = found
        } else {
            entries.append(Entry(type: type, id: id))
            index = entries.count - 1
        }
        if setByHand { entries[index].setByHand += territories } else { entries[index].derived += territories }
    }
}

extension AppStoreConnectFetch.Run {
    /// The documented `limit` maximum of `GET /v2/inAppPurchases/{id}/pricePoints` is 8000; for
    /// `GET /v1/subscriptions/{id}/pricePoints` Tally asks for 200 a page (see docs/fetch.md).
    static let purchasePointLimit = "8000"
    static let subscriptionPointLimit = "200"

    /// Fetches the price points of every product's priced territories and saves them as one
    /// `price-points.json`, dated now. A product the API no longer knows (404) is written as not fetched.
    mutating func fetchPricePoints() async throws {
        var file = PricePointsFile(readAt: SnapshotManifest.timestamp(now()))
        var received = 0
        for entry in pricePointPlan.entries {
            let (territories, skipped) = entry.territories(named: fetch.pricePointTerritories)
            file.skip(skipped, type: entry.type, id: entry.id)
            let id = try APIURL.segment(entry.id, from: fetch.apiURL)
            let (path, limit, pointType) = entry.type == "subscriptions"
                ? ("/v1/subscriptions/\(id)/pricePoints", Self.subscriptionPointLimit, "subscriptionPricePoints")
                : ("/v2/inAppPurchases/\(id)/pricePoints", Self.purchasePointLimit, "inAppPurchasePricePoints")
            var start = 0
            while start < territories.count {
                let chunk = Array(territories[start..<min(start + PricePointPlan.territoriesPerRequest, territories.count)])
                start += chunk.count
                let query = [("filter[territory]", chunk.map(\.code).joined(separator: ",")), ("include", "territory"), ("limit", limit)]
                let lists: [Territory: PricePointsFile.List]
                do {
                    lists = try await pointLists(path, query, type: pointType)
                } catch FetchError.httpStatus(let status, _, _, _) where status == 404 {
                    file.skip(chunk, type: entry.type, id: entry.id)
                    continue
                }
                for territory in chunk {
                    guard let list = lists[territory] else {
                        file.skip([territory], type: entry.type, id: entry.id)
                        continue
                    }
                    received += list.points.count
                    file.add(list, type: entry.type, id: entry.id)
                }
            }
        }
        try writer.write(file: file.encoded(), name: PricePointsFile.name)
        client.progress?(.pageSaved(name: PricePointsFile.name))
        counts["pricePoints"] = received
    }

    /// Every page of one price point list, followed through `links.next`, by territory.
    private mutating func pointLists(_ path: String, _ query: [(String, String)], type: String) async throws -> [Territory: PricePointsFile.List] {
        var url = try fetch.url(path, query)
        var visited = Set<String>()
        var points: [Territory: [PricePointsFile.Point]] = [:]
        var currencies: [Territory: String] = [:]
        var pages = 0
        while true {
            visited.insert(url.absoluteString)
            let response = try await client.get(url)
            requests += 1
            pages += 1
            let page = try PricePointPage(response.body, url: url, type: type)
            for (territory, point) in page.points { points[territory, default: []].append(point) }
            currencies.merge(page.currencies) { first, _ in first }
            guard let next = page.next else { break }
            let nextURL = try fetch.follow(next, from: url)
            guard !visited.contains(nextURL.absoluteString) else {
                throw FetchError.invalidResponse(url: APIURL.shown(url), reason: "links.next leads back to a page already fetched")
            }
            try client.budget.checkPage(pages + 1, of: path, url: nextURL)
            url = nextURL
        }
        var lists: [Territory: PricePointsFile.List] = [:]
        for (territory, found) in points {
            lists[territory] = PricePointsFile.List(territory: territory, currency: currencies[territory] ?? territory.currency, type: type, points: found)
        }
        return lists
    }
}

/// One page of `inAppPurchasePricePoints` or `subscriptionPricePoints`: each point's attributes
/// as Apple wrote them and its territory, the territories' currencies from `included`, `links.next`.
struct PricePointPage {
    var points: [(Territory, PricePointsFile.Point)] = []
    var currencies: [Territory: String] = [:]
    var next: String?

    init(_ body: Data, url: URL, type: String) throws {
        func invalid(_ reason: String) -> FetchError { FetchError.invalidResponse(url: APIURL.shown(url), reason: reason) }
        guard let document = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { throw invalid("the body is not a JSON object") }
        guard let data = document["data"] as? [[String: Any]] else { throw invalid("the document has no \"data\" list (not a JSON:API list of price points)") }
        for resource in data where resource["type"] as? String == type {
            let id = ServerText.clean(resource["id"] as? String ?? "?", limit: 80)
            let attributes = resource["attributes"] as? [String: Any] ?? [:]
            guard let price = attributes["customerPrice"] as? String, let amount = DecimalText.parse(price), amount >= 0 else {
                throw invalid("price point \(id) has no customerPrice that is an amount (\"4.99\")")
            }
            let relationships = resource["relationships"] as? [String: Any]
            let linkage = (relationships?["territory"] as? [String: Any])?["data"] as? [String: Any]
            guard let code = linkage?["id"] as? String, let territory = Territory(code) else {
                throw invalid("price point \(id) names no territory (relationships.territory.data)")
            }
            points.append((territory, PricePointsFile.Point(customerPrice: price, proceeds: attributes["proceeds"] as? String,
                                                             proceedsYear2: attributes["proceedsYear2"] as? String)))
        }
        for resource in document["included"] as? [[String: Any]] ?? [] where resource["type"] as? String == "territories" {
            guard let code = resource["id"] as? String, let territory = Territory(code),
                  let currency = (resource["attributes"] as? [String: Any])?["currency"] as? String, currency.count == 3 else { continue }
            currencies[territory] = currency
        }
        let next = (document["links"] as? [String: Any])?["next"] as? String
        self.next = next.flatMap { $0.isEmpty ? nil : $0 }
    }
}
