import Foundation

/// What App Store review reads beside prices: each subscription's billing plans (App Store Connect
/// API 4.4) and the localizations of every product and subscription group (on versions since API
/// 4.4.1, on the product itself before). Kept apart from the price requests of `fetchAll`.
///
/// The requests, all following `links.next`:
/// 7. per subscription, `GET /v1/subscriptions/{id}/planAvailabilities?limit=200` (404, an API
///    before 4.4 or no plan set: skipped), per plan availability
///    `GET /v1/subscriptionPlanAvailabilities/{id}/availableTerritories?limit=200`, and, when a
///    `MONTHLY` plan is among them, its prices: `GET /v1/subscriptions/{id}/prices?filter[planType]=MONTHLY`
///    with `include=subscriptionPricePoint,territory&limit=200`;
/// 8. per in-app purchase, subscription and group, the versions (`GET /v2/inAppPurchases/{id}/versions`,
///    `/v1/subscriptions/{id}/versions`, `/v1/subscriptionGroups/{id}/versions`, all `?limit=200`)
///    and each version's `localizations?limit=200`; when the versions endpoint answers 404 or its
///    versions give no localization, the older endpoint (`GET /v2/inAppPurchases/{id}/inAppPurchaseLocalizations`,
///    `/v1/subscriptions/{id}/subscriptionLocalizations`, `/v1/subscriptionGroups/{id}/subscriptionGroupLocalizations`).
///    The manifest's `endpoints.localizations` says how many were read each way.
extension AppStoreConnectFetch.Run {
    /// The three owners of localizations, with their version and older endpoints.
    struct LocalizationOwner {
        /// `/v2/inAppPurchases`, `/v1/subscriptions`, `/v1/subscriptionGroups`.
        var collection: String
        /// `inAppPurchaseVersions`, `subscriptionVersions`, `subscriptionGroupVersions`.
        var versionType: String
        /// The older related list: `inAppPurchaseLocalizations`, ...
        var older: String

        static let purchase = LocalizationOwner(collection: "/v2/inAppPurchases", versionType: "inAppPurchaseVersions", older: "inAppPurchaseLocalizations")
        static let subscription = LocalizationOwner(collection: "/v1/subscriptions", versionType: "subscriptionVersions", older: "subscriptionLocalizations")
        static let group = LocalizationOwner(collection: "/v1/subscriptionGroups", versionType: "subscriptionGroupVersions", older: "subscriptionGroupLocalizations")
    }

    /// How the localizations of one product or group were found (`SnapshotManifest.endpoints["localizations"]`).
    enum LocalizationSource: String {
        /// API 4.4.1: the versions' localizations.
        case versions
        /// Before 4.4.1: the list on the product or group itself.
        case older
        /// Neither endpoint gave any.
        case none
    }

    mutating func fetchReviewMetadata(purchases: [String], groups: [String]) async throws {
        let app = try APIURL.segment(fetch.appID, from: fetch.apiURL)
        for purchase in purchases {
            try await localizations(of: try segment(purchase, from: "/v1/apps/\(app)/inAppPurchasesV2"), owner: .purchase)
        }
        for subscription in subscriptionIDs {
            let id = try segment(subscription, from: "/v1/apps/\(app)/subscriptionGroups")
            try await plans(of: id)
            try await localizations(of: id, owner: .subscription)
        }
        for group in groups {
            try await localizations(of: try segment(group, from: "/v1/apps/\(app)/subscriptionGroups"), owner: .group)
        }
    }

    // MARK: - Billing plans (API 4.4)

    /// A subscription's plan availabilities, the territories of each, and the monthly plan's prices.
    /// Every plan availability is saved whatever its `planType`: the reader names a type it does not know.
    private mutating func plans(of id: String) async throws {
        guard let pages = try await listIfFound("/v1/subscriptions/\(id)/planAvailabilities", [Self.limit], name: "planAvailabilities-\(id)") else {
            endpoints["planAvailabilities", default: [:]]["notFound", default: 0] += 1
            return
        }
        endpoints["planAvailabilities", default: [:]]["planAvailabilities", default: 0] += 1
        let availabilities = pages.flatMap(\.data).filter { $0.type == "subscriptionPlanAvailabilities" }
        counts["planAvailabilities", default: 0] += availabilities.count
        for availability in availabilities {
            let segment = try segment(availability.id, from: "/v1/subscriptions/\(id)/planAvailabilities")
            let territories = try await list("/v1/subscriptionPlanAvailabilities/\(segment)/availableTerritories", [Self.limit],
                                             name: "planTerritories-\(availability.id)")
            counts["planTerritories", default: 0] += territories.reduce(0) { $0 + $1.data.count }
        }
        guard availabilities.contains(where: { $0.attributes["planType"] == "MONTHLY" }) else { return }
        let monthly = try await list("/v1/subscriptions/\(id)/prices", [("filter[planType]", "MONTHLY"), Self.pricePointInclude, Self.limit],
                                     name: "monthlyPrices-\(id)")
        counts["monthlyPrices", default: 0] += monthly.reduce(0) { $0 + $1.data.count }
    }

    // MARK: - Localizations (API 4.4.1 versions, else the older endpoints)

    /// The localizations of one product or group: its versions' (API 4.4.1), else the older list's.
    private mutating func localizations(of id: String, owner: LocalizationOwner) async throws {
        var source = LocalizationSource.none
        var found = 0
        if let versions = try await listIfFound("\(owner.collection)/\(id)/versions", [Self.limit], name: "\(owner.versionType)-\(id)") {
            for version in versions.flatMap(\.data) where version.type == owner.versionType {
                counts["versions", default: 0] += 1
                let segment = try segment(version.id, from: "\(owner.collection)/\(id)/versions")
                let pages = try await listIfFound("/v1/\(owner.versionType)/\(segment)/localizations", [Self.limit], name: "versionLocalizations-\(version.id)")
                found += (pages ?? []).reduce(0) { $0 + $1.data.count }
            }
            if found > 0 { source = .versions }
        }
        if source == .none, let pages = try await listIfFound("\(owner.collection)/\(id)/\(owner.older)", [Self.limit], name: "\(owner.older)-\(id)") {
            found = pages.reduce(0) { $0 + $1.data.count }
            if found > 0 { source = .older }
        }
        counts["localizations", default: 0] += found
        endpoints["localizations", default: [:]][source.rawValue, default: 0] += 1
    }

    /// Every page of a list, or nil when the server answers 404 (an endpoint this API version does
    /// not have, or a resource never set): nothing is saved then.
    private mutating func listIfFound(_ path: String, _ query: [(String, String)], name: String) async throws -> [ConnectPage]? {
        do {
            return try await list(path, query, name: name)
        } catch FetchError.httpStatus(let status, _, _, _) where status == 404 {
            return nil
        }
    }
}
