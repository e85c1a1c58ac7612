#if Fetch  // TallyFetchTests need the network stack: swift test --traits Fetch
import FlyingFox
import Foundation

/// The stand-in's billing plans (App Store Connect API 4.4) and localizations on versions (4.4.1),
/// written from Apple's reference: `GET /v1/subscriptions/{id}/planAvailabilities`,
/// `GET /v1/subscriptionPlanAvailabilities/{id}/availableTerritories`, `filter[planType]` on
/// `GET /v1/subscriptions/{id}/prices`; `GET /v2/inAppPurchases/{id}/versions`,
/// `/v1/subscriptions/{id}/versions`, `/v1/subscriptionGroups/{id}/versions` and each version's
/// `localizations`; the older `inAppPurchaseLocalizations`, `subscriptionLocalizations` and
/// `subscriptionGroupLocalizations` lists. An API version before an endpoint answers 404 for it.
extension StandInServer {
    /// The App Store Connect API version a stand-in serves.
    enum APIVersion: Int, Comparable, Sendable {
        /// Before plan availabilities and versions.
        case v4_3 = 430
        /// Plan availabilities (`subscriptionPlanAvailabilities`), prices with `planType`.
        case v4_4 = 440
        /// In-app purchase, subscription and group versions, each with its localizations.
        case v4_4_1 = 441

        static func < (lhs: APIVersion, rhs: APIVersion) -> Bool { lhs.rawValue < rhs.rawValue }

        /// Whether this version has the endpoint `path` names.
        func serves(_ path: String) -> Bool {
            let parts = path.split(separator: "/").map(String.init)
            guard parts.count >= 3 else { return true }
            if parts[1] == "subscriptionPlanAvailabilities" || (parts.count == 4 && parts[1] == "subscriptions" && parts[3] == "planAvailabilities") {
                return self >= .v4_4
            }
            let versionTypes = ["inAppPurchaseVersions", "subscriptionVersions", "subscriptionGroupVersions"]
            let owners = ["inAppPurchases", "subscriptions", "subscriptionGroups"]
            if versionTypes.contains(parts[1]) || (parts.count == 4 && owners.contains(parts[1]) && parts[3] == "versions") {
                return self >= .v4_4_1
            }
            return true
        }
    }

    /// Related lists of a known resource that answer what its relationship links to (often nothing).
    static let reviewLists: Set<String> = [
        "planAvailabilities", "availableTerritories", "versions", "localizations",
        "inAppPurchaseLocalizations", "subscriptionLocalizations", "subscriptionGroupLocalizations",
    ]

    /// "type/id" of what one relationship of `resource` links to.
    static func linked(_ resource: [String: Any], _ relationship: String) -> [String] {
        guard let value = (resource["relationships"] as? [String: Any])?[relationship] as? [String: Any] else { return [] }
        if let many = value["data"] as? [[String: Any]] { return many.map { "\($0["type"] as? String ?? "")/\($0["id"] as? String ?? "")" } }
        return []
    }

    /// `filter[planType]=MONTHLY` (or any `filter[attribute]` with comma-separated values): the
    /// resources whose attribute is one of them; a resource without the attribute is the up-front
    /// plan's for `planType`. Other filters (`filter[territory]`) are not applied by the stand-in.
    static func filtered(_ data: [[String: Any]], _ query: [HTTPRequest.QueryItem]) -> [[String: Any]] {
        guard let planType = query.first(where: { $0.name == "filter[planType]" })?.value else { return data }
        let wanted = Set(planType.split(separator: ",").map(String.init))
        return data.filter { resource in
            let attributes = resource["attributes"] as? [String: Any]
            return wanted.contains(attributes?["planType"] as? String ?? "UPFRONT")
        }
    }
}
#endif
