import Foundation

extension AppStoreConnectFetch {
    /// One fetch in progress: the pages written so far, the requests made, what was found.
    struct Run: SnapshotRun {
        let fetch: AppStoreConnectFetch
        let client: FetchClient
        var writer: SnapshotWriter
        var requests = 0
        var counts: [String: Int] = [:]
        /// Which endpoint gave each kind of resource where the API has two (`SnapshotManifest.endpoints`).
        var endpoints: [String: [String: Int]] = [:]
        private(set) var subscriptionIDs: [String] = []
        /// Which territories' price points to fetch per product, noted as prices arrive (`PricePointFetch.swift`).
        var pricePointPlan = PricePointPlan()
        /// The clock that dates the price points (the manifest's, in a run).
        var now: @Sendable () -> Date = { Date() }
        private var seenSubscriptions = Set<String>()
        /// Subscriptions whose `multiSeatStatus` (API 4.5) is `ENABLED`, for the summary.
        private var multiSeatSubscriptions = Set<String>()

        init(fetch: AppStoreConnectFetch, client: FetchClient, writer: SnapshotWriter) {
            self.fetch = fetch
            self.client = client
            self.writer = writer
        }

        static let pricePointInclude = ("include", "subscriptionPricePoint,territory")
        static let limit = ("limit", "200")
        /// `id`, as the page of `path` named it, made one path segment (`..` and the like refused).
        func segment(_ id: String, from path: String) throws -> String {
            try APIURL.segment(id, from: (try? fetch.url(path, [])) ?? fetch.apiURL)
        }

        mutating func fetchAll() async throws {
            let app = try APIURL.segment(fetch.appID, from: fetch.apiURL)
            // 1–2. In-app purchases and their prices: set by hand (manual) and derived by Apple for
            // the other territories (automatic, equalised from the base territory's price).
            let purchases = try await list("/v1/apps/\(app)/inAppPurchasesV2", [("include", "iapPriceSchedule"), Self.limit],
                                           name: "inAppPurchasesV2")
            let purchaseResources = purchases.flatMap(\.data).filter { $0.type == "inAppPurchases" }
            counts["inAppPurchases"] = purchaseResources.count
            reportProducts()
            for purchase in purchaseResources {
                var scheduleID = purchase.links["iapPriceSchedule"]?.first
                if scheduleID == nil {
                    let schedule = try await list("/v2/inAppPurchases/\(try segment(purchase.id, from: "/v1/apps/\(app)/inAppPurchasesV2"))/iapPriceSchedule", [], name: "iapPriceSchedule-\(purchase.id)")
                    scheduleID = schedule.first?.data.first(where: { $0.type == "inAppPurchasePriceSchedules" })?.id
                }
                try await availability("/v2/inAppPurchases/\(try segment(purchase.id, from: "/v1/apps/\(app)/inAppPurchasesV2"))/inAppPurchaseAvailability",
                                       type: "inAppPurchaseAvailabilities",
                                       name: "inAppPurchaseAvailability-\(purchase.id)")
                guard let scheduleID else { continue }
                for kind in ["manualPrices", "automaticPrices"] {
                    let pages = try await list("/v1/inAppPurchasePriceSchedules/\(try segment(scheduleID, from: "/v2/inAppPurchases/\(purchase.id)"))/\(kind)",
                                               [("include", "inAppPurchasePricePoint,territory"), Self.limit], name: "\(kind)-\(scheduleID)")
                    counts[kind, default: 0] += pages.reduce(0) { $0 + $1.data.count }
                    pricePointPlan.note(pages, type: "inAppPurchases", id: purchase.id, setByHand: kind == "manualPrices")
                }
            }

            // 3. Subscription groups and their subscriptions.
            let groupPages = try await list("/v1/apps/\(app)/subscriptionGroups",
                                            [("include", "subscriptions"), Self.limit, ("limit[subscriptions]", "50")], name: "subscriptionGroups")
            let groups = groupPages.flatMap(\.data).filter { $0.type == "subscriptionGroups" }
            counts["subscriptionGroups"] = groups.count
            let includedSubscriptions = Set(groupPages.flatMap(\.included).filter { $0.type == "subscriptions" }.map(\.id))
            noteMultiSeat(groupPages.flatMap(\.included))
            for group in groups {
                // Complete when every linked subscription is included and none is left over.
                if let linked = group.links["subscriptions"], linked.allSatisfy(includedSubscriptions.contains),
                   (group.totals["subscriptions"] ?? linked.count) <= linked.count, linked.count < 50 {
                    linked.forEach { addSubscription($0) }
                    continue
                }
                let pages = try await list("/v1/subscriptionGroups/\(try segment(group.id, from: "/v1/apps/\(app)/subscriptionGroups"))/subscriptions", [Self.limit], name: "subscriptions-\(group.id)")
                pages.flatMap(\.data).filter { $0.type == "subscriptions" }.forEach { addSubscription($0.id) }
                noteMultiSeat(pages.flatMap(\.data))
            }
            counts["subscriptions"] = subscriptionIDs.count
            reportProducts()

            // 4–5. Each subscription's prices and offers.
            var prices = 0, introductory = 0, promotional = 0, seatTierPrices = 0, winBack = 0, offerCodes = 0
            for subscription in subscriptionIDs {
                let id = try segment(subscription, from: "/v1/apps/\(app)/subscriptionGroups")
                let pricePages = try await list("/v1/subscriptions/\(id)/prices", [Self.pricePointInclude, Self.limit], name: "prices-\(id)")
                prices += pricePages.reduce(0) { $0 + $1.data.count }
                // API 4.6.1 volume tiers: prices that state their seats (see ConnectCatalogBuilder.readMultiSeat).
                seatTierPrices += pricePages.flatMap(\.data).filter { $0.attributes["minimumSeats"] != nil }.count
                pricePointPlan.note(pricePages, type: "subscriptions", id: subscription, setByHand: true)
                introductory += try await list("/v1/subscriptions/\(id)/introductoryOffers", [Self.pricePointInclude, Self.limit],
                                               name: "introductoryOffers-\(id)").reduce(0) { $0 + $1.data.count }
                let offers = try await list("/v1/subscriptions/\(id)/promotionalOffers", [Self.limit], name: "promotionalOffers-\(id)")
                    .flatMap(\.data).filter { $0.type == "subscriptionPromotionalOffers" }
                promotional += offers.count
                for offer in offers {
                    _ = try await list("/v1/subscriptionPromotionalOffers/\(try segment(offer.id, from: "/v1/subscriptions/\(id)/promotionalOffers"))/prices", [Self.pricePointInclude, Self.limit],
                                       name: "promotionalOfferPrices-\(offer.id)")
                }
                // API 3.6's win-back offers and API 2.0's offer codes, each with its prices (issue 50);
                // a server without them answers 404: nothing saved, nothing said of them.
                winBack += try await offersWithPrices(of: id, list: "winBackOffers", type: "winBackOffers", prices: "winBackOfferPrices")
                offerCodes += try await offersWithPrices(of: id, list: "offerCodes", type: "subscriptionOfferCodes", prices: "offerCodePrices")
                try await availability("/v1/subscriptions/\(id)/subscriptionAvailability", type: "subscriptionAvailabilities",
                                       name: "subscriptionAvailability-\(id)")
            }
            if winBack > 0 { counts["winBackOffers"] = winBack }
            if offerCodes > 0 { counts["offerCodes"] = offerCodes }
            counts["subscriptionPrices"] = prices
            counts["introductoryOffers"] = introductory
            counts["promotionalOffers"] = promotional
            if seatTierPrices > 0 { counts["seatTierPrices"] = seatTierPrices }
            if !multiSeatSubscriptions.isEmpty { counts["multiSeatSubscriptions"] = multiSeatSubscriptions.count }

            // 7–8. Billing plans (API 4.4) and localizations (API 4.4.1 versions, else the older endpoints).
            try await fetchReviewMetadata(purchases: purchaseResources.map(\.id), groups: groups.map(\.id))

            // 9. Last, the price points of the territories each product is priced in (`PricePointFetch.swift`).
            try await fetchPricePoints()
        }

        /// Where a product is sold: its availability (`availableInNewTerritories`), then every
        /// territory it lists (`GET /v1/{type}/{id}/availableTerritories?limit=200`). A product
        /// whose availability was never set answers 404: nothing is saved, and the snapshot says
        /// nothing about where it is sold.
        private mutating func availability(_ path: String, type: String, name: String) async throws {
            let pages: [ConnectPage]
            do {
                pages = try await list(path, [], name: name)
            } catch FetchError.httpStatus(let status, _, _, _) where status == 404 {
                return
            }
            for resource in pages.flatMap(\.data) where resource.type == type {
                counts["availabilities", default: 0] += 1
                let resourceID = try APIURL.segment(resource.id, from: (try? fetch.url(path, [])) ?? fetch.apiURL)
                let territories = try await list("/v1/\(type)/\(resourceID)/availableTerritories", [Self.limit],
                                                 name: "availableTerritories-\(resource.id)")
                counts["availableTerritories", default: 0] += territories.reduce(0) { $0 + $1.data.count }
            }
        }

        /// Notes the subscriptions among `resources` that organisations can buy with seats.
        private mutating func noteMultiSeat(_ resources: [ConnectPage.Resource]) {
            for resource in resources where resource.type == "subscriptions" && resource.attributes["multiSeatStatus"] == "ENABLED" {
                multiSeatSubscriptions.insert(resource.id)
            }
        }

        private mutating func addSubscription(_ id: String) {
            if seenSubscriptions.insert(id).inserted { subscriptionIDs.append(id) }
        }

        private func reportProducts() {
            client.progress?(.products((counts["inAppPurchases"] ?? 0) + subscriptionIDs.count))
        }

        /// A subscription's offers of one later kind (`/v1/subscriptions/{id}/{list}`, a server
        /// without them: none), and the prices of each that is not a free trial
        /// (`/v1/{type}/{offer}/prices`, saved as `{prices}-{offer}`); how many offers.
        private mutating func offersWithPrices(of id: String, list: String, type: String, prices: String) async throws -> Int {
            let path = "/v1/subscriptions/\(id)/\(list)"
            let offers = try await optionalList(path, [Self.limit], name: "\(list)-\(id)").flatMap(\.data).filter { $0.type == type }
            for offer in offers where offer.attributes["offerMode"] != "FREE_TRIAL" {
                _ = try await self.list("/v1/\(type)/\(try segment(offer.id, from: path))/prices", [Self.pricePointInclude, Self.limit],
                                        name: "\(prices)-\(offer.id)")
            }
            return offers.count
        }

        /// A list the server may not have (an endpoint of a later API version): its pages, or none
        /// (nothing saved) when it answers 404.
        mutating func optionalList(_ path: String, _ query: [(String, String)], name: String) async throws -> [ConnectPage] {
            do {
                return try await list(path, query, name: name)
            } catch FetchError.httpStatus(let status, _, _, _) where status == 404 {
                return []
            }
        }

        /// Every page of a list (or the one page of a single resource), each saved as it is received.
        mutating func list(_ path: String, _ query: [(String, String)], name: String) async throws -> [ConnectPage] {
            var url = try fetch.url(path, query)
            var pages: [ConnectPage] = []
            var visited = Set<String>()
            while true {
                visited.insert(url.absoluteString)
                let response = try await client.get(url)
                requests += 1
                let page = try ConnectPage(response.body, url: url)
                let file = try writer.write(page: page.saved, name: pages.isEmpty ? name : "\(name)-page\(pages.count + 1)")
                client.progress?(.pageSaved(name: file))
                pages.append(page)
                guard let next = page.next else { return pages }
                let nextURL = try fetch.follow(next, from: url)
                guard !visited.contains(nextURL.absoluteString) else {
                    throw FetchError.invalidResponse(url: APIURL.shown(url), reason: "links.next leads back to a page already fetched")
                }
                try client.budget.checkPage(pages.count + 1, of: name, url: nextURL)
                url = nextURL
            }
        }
    }
}
