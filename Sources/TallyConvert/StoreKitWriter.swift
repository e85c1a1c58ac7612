import TallyModel

/// Builds an Xcode StoreKit configuration: the keys, identifiers and settings Xcode writes, keys
/// in alphabetical order as Xcode sorts them, prices in one storefront. Identifiers are derived
/// from product IDs, so converting twice gives the same bytes.
struct StoreKitWriter {
    let catalog: Catalog
    let storefront: Territory
    let version: StoreKitVersion

    private func knows(_ field: Field) -> Bool { catalog.knownFields.contains(field) }

    func document(notes: inout ConvertNotes) -> OutputValue {
        var products: [OutputValue] = []
        var nonRenewing: [OutputValue] = []
        for product in catalog.products where !product.kind.isAutoRenewable {
            let value = productValue(product, notes: &notes)
            if product.kind == .nonRenewingSubscription, knows(.kind) { nonRenewing.append(value) } else { products.append(value) }
        }
        var members: [OutputMember] = []
        if version.major >= 4 {
            members.append(OutputMember("appPolicies", .object([
                OutputMember("eula", .string("")),
                OutputMember("policies", .array([.object([
                    OutputMember("locale", .string("en_US")), OutputMember("policyText", .string("")),
                    OutputMember("policyURL", .string("")),
                ])])),
            ])))
        }
        members.append(OutputMember("identifier", .string(StableID.hex("configuration:" + catalog.products.map(\.id).joined(separator: "\n")))))
        members.append(OutputMember("nonRenewingSubscriptions", .array(nonRenewing)))
        members.append(OutputMember("products", .array(products)))
        members.append(OutputMember("settings", settings()))
        if version.hasSuites { members.append(OutputMember("subscriptionBundleGroups", .array(groups(of: .subscriptionBundle, notes: &notes)))) }
        members.append(OutputMember("subscriptionGroups", .array(groups(notes: &notes))))
        if version.hasSuites { members.append(OutputMember("subscriptionSuiteGroups", .array(groups(of: .subscriptionSuite, notes: &notes)))) }
        if !version.hasSuites {
            for product in catalog.products where product.kind.includesSubscriptions {
                notes.add("a \(product.kind) left out: StoreKit \(version) has none (--storekit-version 6.3 keeps it)", product.id)
            }
        }
        members.append(OutputMember("version", .object([
            OutputMember("major", .number(String(version.major))), OutputMember("minor", .number(String(version.minor))),
        ])))
        return .object(members)
    }

    private func settings() -> OutputValue {
        let errors = ["Load Products", "Purchase", "Verification", "App Store Sync", "Subscription Status", "App Transaction",
                      "Manage Subscriptions Sheet", "Refund Request Sheet", "Offer Code Redeem Sheet"]
        let storeKitErrors = OutputValue.array(errors.map { name in
            var fields: [OutputMember] = []
            if version == .v3 { fields.append(OutputMember("current", .null)) }
            fields += [OutputMember("enabled", .bool(false)), OutputMember("name", .string(name))]
            return .object(fields)
        })
        if version == .v3 {
            return .object([
                OutputMember("_failTransactionsEnabled", .bool(false)), OutputMember("_locale", .string(locale)),
                OutputMember("_storeKitErrors", storeKitErrors), OutputMember("_storefront", .string(storefront.code)),
            ])
        }
        return .object([
            OutputMember("_askToBuyEnabled", .bool(false)), OutputMember("_billingGracePeriodEnabled", .bool(false)),
            OutputMember("_billingIssuesEnabled", .bool(false)), OutputMember("_disableDialogs", .bool(false)),
            OutputMember("_failTransactionsEnabled", .bool(false)), OutputMember("_locale", .string(locale)),
            OutputMember("_renewalBillingIssuesEnabled", .bool(false)), OutputMember("_storeKitErrors", storeKitErrors),
            OutputMember("_storefront", .string(storefront.code)), OutputMember("_timeRate", .number("0")),
        ])
    }

    /// The locale most products are localised in first, else `en_US`.
    private var locale: String {
        var counts: [String: Int] = [:]
        for product in catalog.products { if let first = product.localizations.first?.locale, !first.isEmpty { counts[first, default: 0] += 1 } }
        return counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? "en_US"
    }

    /// Subscriptions by group, in the source's order; a subscription of no group gets its own group
    /// "ungrouped". `kind`: the auto-renewable subscriptions (`subscriptionGroups`), or the suites
    /// or bundles (their own groups, StoreKit 6.3).
    private func groups(of kind: ProductKind = .autoRenewableSubscription, notes: inout ConvertNotes) -> [OutputValue] {
        var order: [(id: String, name: String?)] = []
        var members: [String: [Product]] = [:]
        let products = catalog.products.filter { product in
            kind == .autoRenewableSubscription ? (product.kind.isAutoRenewable || product.group != nil) && !product.kind.includesSubscriptions
                : product.kind == kind
        }
        let used = Set(products.compactMap { $0.group?.groupID })
        for group in catalog.groups where members[group.id] == nil && used.contains(group.id) {
            order.append((group.id, group.name))
            members[group.id] = []
        }
        for product in products {
            var id = product.group?.groupID ?? ""
            if id.isEmpty {
                id = "ungrouped"
                notes.add("an auto-renewable subscription in no group: put in a group named \"ungrouped\"", product.id)
            }
            if members[id] == nil {
                order.append((id, product.group?.groupName))
                members[id] = []
            }
            members[id, default: []].append(product)
        }
        // Each group's display names by locale, as StoreKit keeps them.
        var localizations: [String: [Localization]] = [:]
        for group in catalog.groups where localizations[group.id] == nil { localizations[group.id] = group.localizations }
        return order.compactMap { group in
            guard let products = members[group.id], !products.isEmpty else { return nil }
            let groupID = StableID.isHex8(group.id) ? group.id : StableID.hex("group:" + group.id)
            return .object([
                OutputMember("id", .string(groupID)),
                OutputMember("localizations", .array(localizations[group.id, default: []].map { localization in
                    .object([
                        OutputMember("description", .string(localization.description ?? "")),
                        OutputMember("displayName", .string(localization.displayName ?? "")),
                        OutputMember("locale", .string(localization.locale)),
                    ])
                })),
                OutputMember("name", .string(group.name ?? group.id)),
                OutputMember("subscriptions", .array(products.enumerated().map { index, product in
                    kind == .autoRenewableSubscription ? subscriptionValue(product, groupID: groupID, position: index + 1, notes: &notes)
                        : suiteValue(product, groupID: groupID, position: index + 1, notes: &notes)
                })),
            ])
        }
    }

    /// `displayPrice`, `familyShareable`, `internalID`, `localizations`, `productID`, `referenceName`, in that order.
    private func commonMembers(_ product: Product, notes: inout ConvertNotes) -> (before: [OutputMember], after: [OutputMember]) {
        var before: [OutputMember] = []
        if let price = displayPrice(product, notes: &notes) { before.append(OutputMember("displayPrice", .string(price))) }
        if let shareable = product.familyShareable {
            before.append(OutputMember("familyShareable", .bool(shareable)))
        } else {
            before.append(OutputMember("familyShareable", .bool(false)))
            notes.add("family sharing not given by the source: written as false, Xcode's default", product.id)
        }
        before.append(OutputMember("internalID", .string(StableID.hex("product:" + product.id))))
        var after: [OutputMember] = [OutputMember("localizations", .array(product.localizations.map { localization in
            .object([
                OutputMember("description", .string(localization.description ?? "")),
                OutputMember("displayName", .string(localization.displayName ?? "")),
                OutputMember("locale", .string(localization.locale)),
            ])
        }))]
        after.append(OutputMember("productID", .string(product.id)))
        after.append(OutputMember("referenceName", .string(product.referenceName ?? product.id)))
        return (before, after)
    }

    private func displayPrice(_ product: Product, notes: inout ConvertNotes) -> String? {
        let others = product.prices.filter { $0.territory != storefront }
        if !others.isEmpty {
            notes.add("prices in other storefronts than \(storefront) left out: a StoreKit configuration holds one storefront (--storefront chooses it)", product.id)
        }
        guard let price = product.price(in: storefront) else {
            if knows(.prices), !product.prices.isEmpty || product.priceTier == nil {
                notes.add("no price in \(storefront): displayPrice left out; set one in Xcode", product.id)
            }
            if product.priceTier != nil {
                notes.add("an App Store price tier left out: give --price-tiers FILE to turn tiers into prices", product.id)
            }
            return nil
        }
        return DecimalLiteral.text(price.money.amount)
    }

    private func productValue(_ product: Product, notes: inout ConvertNotes) -> OutputValue {
        let (before, after) = commonMembers(product, notes: &notes)
        let type: String
        switch product.kind {
        case .consumable: type = "Consumable"
        case .nonRenewingSubscription: type = "NonRenewingSubscription"
        case .nonConsumable, .autoRenewableSubscription, .subscriptionSuite, .subscriptionBundle: type = "NonConsumable"
        }
        if !knows(.kind) { notes.add("the source does not say the kind: written as NonConsumable; set the type in Xcode", product.id) }
        return .object(before + after + [OutputMember("type", .string(type))])
    }

    private func subscriptionValue(_ product: Product, groupID: String, position: Int, notes: inout ConvertNotes) -> OutputValue {
        var members: [OutputMember] = [OutputMember("adHocOffers", .array(product.promotionalOffers.enumerated().map { index, offer in
            offerValue(offer, product: product, role: .promotional(index), notes: &notes)
        }))]
        if version.hasBillingPlans {
            var plans = product.billingPlans
            if plans.isEmpty, let price = product.price(in: storefront)?.money {
                plans = [BillingPlan(type: "BILLED_UPFRONT", price: price, commitmentPrice: price, isEnabled: true)]
            }
            members.append(OutputMember("billingPlans", .array(plans.enumerated().map { index, plan in
                var fields: [OutputMember] = [OutputMember("billingPlanType", .string(plan.kind?.storeKitText ?? plan.type))]
                if let price = plan.commitmentPrice { fields.append(OutputMember("commitmentDisplayPrice", .string(DecimalLiteral.text(price.amount)))) }
                if let price = plan.price { fields.append(OutputMember("displayPrice", .string(DecimalLiteral.text(price.amount)))) }
                fields.append(OutputMember("internalID", .string(StableID.hex("plan:\(product.id):\(index)"))))
                fields.append(OutputMember("isEnabled", .bool(plan.isEnabled ?? true)))
                return .object(fields)
            })))
        } else if !product.billingPlans.isEmpty, product.billingPlans.contains(where: { $0.type != "BILLED_UPFRONT" }) {
            notes.add("billing plans left out: StoreKit \(version) has none (--storekit-version 5.0 keeps them)", product.id)
        }
        if !product.seatTiers.isEmpty || product.multiSeatStatus != nil || product.marketSettings != nil {
            notes.add("multi-seat status and seat tiers left out: a StoreKit configuration has none", product.id)
        }
        members.append(OutputMember("codeOffers", .array(product.codeOffers.enumerated().map { index, offer in
            offerValue(offer, product: product, role: .code(index), notes: &notes)
        })))
        let (before, after) = commonMembers(product, notes: &notes)
        members += before.filter { $0.key != "internalID" }
        let level = product.group?.level ?? position
        if product.group?.level == nil, knows(.level) { notes.add("no level in the group: its position written as groupNumber", product.id) }
        members.append(OutputMember("groupNumber", .number(String(level))))
        members += before.filter { $0.key == "internalID" }
        members.append(OutputMember("introductoryOffer", product.introductoryOffer.map {
            offerValue($0, product: product, role: .introductory(0), notes: &notes)
        } ?? .null))
        if version.hasBillingPlans {
            let intros = (product.introductoryOffer.map { [$0] } ?? []) + product.otherIntroductoryOffers
            members.append(OutputMember("introductoryOffers", .array(intros.enumerated().map { index, offer in
                offerValue(offer, product: product, role: .introductory(index), notes: &notes)
            })))
        } else if !product.otherIntroductoryOffers.isEmpty {
            notes.add("introductory offers beyond the first left out: StoreKit \(version) holds one (--storekit-version 5.0 keeps them)", product.id)
        }
        members += after.filter { $0.key == "localizations" || $0.key == "productID" }
        if let period = product.period {
            members.append(OutputMember("recurringSubscriptionPeriod", .string(period.literal)))
        } else {
            notes.add("no billing period: recurringSubscriptionPeriod left out; set one in Xcode", product.id)
        }
        members += after.filter { $0.key == "referenceName" }
        members.append(OutputMember("subscriptionGroupID", .string(groupID)))
        members.append(OutputMember("type", .string("RecurringSubscription")))
        if version.major >= 4 {
            members.append(OutputMember("winbackOffers", .array(product.winbackOffers.enumerated().map { index, offer in
                offerValue(offer, product: product, role: .winback(index), notes: &notes)
            })))
        } else if !product.winbackOffers.isEmpty {
            notes.add("win-back offers left out: StoreKit \(version) has none (use --storekit-version 4.0 or later)", product.id)
        }
        return .object(members)
    }

    /// A subscription suite or bundle as Xcode 27 writes it (StoreKit 6.3): `duration` for the
    /// period, `isFamilyShareable`, its `members`, its introductory offers.
    private func suiteValue(_ product: Product, groupID: String, position: Int, notes: inout ConvertNotes) -> OutputValue {
        var members: [OutputMember] = []
        if let price = displayPrice(product, notes: &notes) { members.append(OutputMember("displayPrice", .string(price))) }
        if let period = product.period {
            members.append(OutputMember("duration", .string(period.literal)))
        } else {
            notes.add("no billing period: duration left out; set one in Xcode", product.id)
        }
        members.append(OutputMember("groupNumber", .number(String(product.group?.level ?? position))))
        members.append(OutputMember("internalID", .string(StableID.hex("product:" + product.id))))
        let intros = (product.introductoryOffer.map { [$0] } ?? []) + product.otherIntroductoryOffers
        members.append(OutputMember("introductoryOffers", .array(intros.enumerated().map { index, offer in
            offerValue(offer, product: product, role: .introductory(index), notes: &notes)
        })))
        members.append(OutputMember("isFamilyShareable", .bool(product.familyShareable ?? false)))
        members.append(OutputMember("localizations", .array(product.localizations.map { localization in
            .object([
                OutputMember("description", .string(localization.description ?? "")),
                OutputMember("displayName", .string(localization.displayName ?? "")),
                OutputMember("locale", .string(localization.locale)),
            ])
        })))
        members.append(OutputMember("members", .array(product.members.map(OutputValue.string))))
        members.append(OutputMember("productID", .string(product.id)))
        members.append(OutputMember("referenceName", .string(product.referenceName ?? product.id)))
        members.append(OutputMember("subscriptionGroupID", .string(groupID)))
        members.append(OutputMember("type", .string(product.kind == .subscriptionBundle ? "SubscriptionBundle" : "SubscriptionSuite")))
        if !product.promotionalOffers.isEmpty || !product.codeOffers.isEmpty || !product.winbackOffers.isEmpty {
            notes.add("promotional, code and win-back offers left out: a \(product.kind) in StoreKit 6.3 has introductory offers only", product.id)
        }
        return .object(members)
    }

    private enum OfferRole {
        case introductory(Int), promotional(Int), code(Int), winback(Int)

        var tag: String {
            switch self {
            case .introductory(let index): return "intro:\(index)"
            case .promotional(let index): return "promo:\(index)"
            case .code(let index): return "code:\(index)"
            case .winback(let index): return "winback:\(index)"
            }
        }
    }

    private func offerValue(_ offer: Offer, product: Product, role: OfferRole, notes: inout ConvertNotes) -> OutputValue {
        var members: [OutputMember] = []
        if version.hasBillingPlans { members.append(OutputMember("billingPlanType", .string(offer.billingPlan?.storeKitText ?? "BILLED_UPFRONT"))) }
        if let price = offer.price {
            if let territory = offer.territory, territory != storefront {
                notes.add("an offer priced in \(territory), not in the storefront \(storefront): its displayPrice left out", product.id)
            } else {
                members.append(OutputMember("displayPrice", .string(DecimalLiteral.text(price.amount))))
            }
        }
        if case .code = role {
            let eligibility = offer.eligibility.isEmpty ? ["new", "existing", "expired"] : offer.eligibility
            members.append(OutputMember("eligibility", .array(eligibility.map(OutputValue.string))))
        }
        members.append(OutputMember("internalID", .string(StableID.hex("offer:\(product.id):\(role.tag)"))))
        if case .code = role { members.append(OutputMember("isStackable", .bool(true))) }
        // Xcode 16 writes a win-back offer's eligibility flag and its offer ID, which StoreKit's
        // `Product.SubscriptionOffer.id` and App Store Connect's `offerId` are.
        if case .winback = role { members.append(OutputMember("isEligible", .bool(true))) }
        members.append(OutputMember("numberOfPeriods", .number(String(offer.periods))))
        switch role {
        case .promotional(let index): members.append(OutputMember("offerID", .string(offer.id ?? "offer-\(index + 1)")))
        case .winback(let index): members.append(OutputMember("offerID", .string(offer.id ?? "\(product.id).winback.\(index + 1)")))
        case .code, .introductory: break
        }
        let mode: String
        switch offer.mode {
        case .freeTrial: mode = "free"
        case .payAsYouGo: mode = "payAsYouGo"
        case .payUpFront: mode = "payUpFront"
        }
        members.append(OutputMember("paymentMode", .string(mode)))
        switch role {
        case .promotional(let index): members.append(OutputMember("referenceName", .string(offer.id ?? "offer-\(index + 1)")))
        case .code(let index), .winback(let index): members.append(OutputMember("referenceName", .string(offer.id ?? "\(product.id) offer \(index + 1)")))
        case .introductory: break
        }
        members.append(OutputMember("subscriptionPeriod", .string(offer.period.literal)))
        return .object(members)
    }
}
