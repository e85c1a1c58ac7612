import TallyModel

/// What an export says beyond products and prices: localizations (on versions since API 4.4.1),
/// billing plans (API 4.4) and where each product is sold.
extension ConnectCatalogBuilder {
    /// The localizations of a product or group: since API 4.4.1 those of its latest version
    /// (`GET /v1/inAppPurchaseVersions/{id}/localizations`, highest `version`), else the ones
    /// linked to it directly (the endpoints before 4.4.1).
    func localizations(of resource: Resource, older: (type: String, inverse: String), versions: (type: String, inverse: String)) -> [Localization] {
        let saved = store.related(resource, "versions", inverse: versions.inverse, type: versions.type).filter { $0.position.isKnown }
        var found: [Resource] = []
        if let latest = saved.max(by: { ($0[attribute: "version"]?.int ?? 0) < ($1[attribute: "version"]?.int ?? 0) }) {
            found = store.related(latest, "localizations")
        }
        if found.isEmpty { found = store.related(resource, older.type, inverse: older.inverse, type: older.type) }
        return found.compactMap { localization in
            guard let locale = localization[attribute: "locale"]?.string else { return nil }
            return Localization(locale: locale, displayName: localization[attribute: "name"]?.string,
                                description: localization[attribute: "description"]?.string)
        }
    }

    /// The plans of a subscription whose export tells them (plan prices or plan availabilities,
    /// API 4.4): the up-front plan at the subscription's prices and the monthly plan at its own,
    /// each enabled where its availability lists territories. Empty when the export says nothing of plans.
    mutating func plans(_ subscription: Resource, upfront: [Price], monthly: [Price]) -> [BillingPlan] {
        let productID = subscription[attribute: "productId"]?.string ?? subscription.key.id
        let availabilities = store.related(subscription, "planAvailabilities", inverse: "subscription", type: "subscriptionPlanAvailabilities")
            .filter { $0.position.isKnown && knownPlan($0, productID: productID, what: "its territories") }
        guard !monthly.isEmpty || !availabilities.isEmpty else { return [] }
        func availability(_ kind: BillingPlanKind) -> Resource? {
            availabilities.first { $0[attribute: "planType"]?.string == kind.rawValue }
        }
        var plans: [BillingPlan] = []
        for (kind, prices) in [(BillingPlanKind.upfront, upfront), (.monthly, monthly)] {
            let found = availability(kind)
            guard !prices.isEmpty || found != nil else { continue }
            let enabled = found.map { !($0.relationships["availableTerritories"] ?? []).isEmpty }
            plans.append(BillingPlan(type: kind.rawValue, price: prices.first { $0.territory == .usa }?.money, isEnabled: enabled, prices: prices,
                                     commitment: kind == .monthly ? Period(iso8601: "P12M") : nil,
                                     position: found?.position ?? prices.first?.position ?? subscription.position))
        }
        return plans
    }

    /// Whether a resource's `planType` (API 4.4) is absent or one Tally knows (`UPFRONT`, `MONTHLY`);
    /// otherwise an issue names the type and the resource, and what is left out (`what`).
    mutating func knownPlan(_ resource: Resource, productID: String, what: String) -> Bool {
        guard let attribute = resource[attribute: "planType"], let text = attribute.string, BillingPlanKind(rawValue: text) == nil else { return true }
        issues.append(SourceIssue(rule: .invalidPrice, productID: productID, field: .billingPlans,
                                  message: "\(resource.key) has planType \"\(text)\", a billing plan Tally does not know "
                                      + "(expected \(BillingPlanKind.allCases.map(\.rawValue).joined(separator: " or "))): \(what) are left out",
                                  position: attribute.position))
        return false
    }

    /// Where a product is sold: the territories its availability resources link to (their
    /// `availableTerritories`), in order; nil when the export has no availability page for it.
    func availability(_ resources: [Resource]) -> Availability? {
        let saved = resources.filter { $0.position.isKnown && $0.relationships["availableTerritories"] != nil }
        guard let first = saved.first else { return nil }
        var territories: [Territory] = []
        for resource in saved {
            for key in resource.relationships["availableTerritories"] ?? [] {
                if let territory = Territory(key.id), !territories.contains(territory) { territories.append(territory) }
            }
        }
        let flags = saved.compactMap { $0[attribute: "availableInNewTerritories"]?.bool }
        return Availability(territories: territories, inNewTerritories: flags.isEmpty ? nil : flags.contains(true), position: first.position)
    }
}
