import TallyModel

/// Builds a `tally-catalog/1` document with every field the source knows and nothing else.
struct CatalogWriter {
    let catalog: Catalog
    /// Price texts and territory codes, each made once.
    private var prices = DecimalTexts { DecimalLiteral.text($0) }
    private var territories = TerritoryCodes()
    private var seen = TerritorySet()

    init(catalog: Catalog) {
        self.catalog = catalog
    }

    /// The fields a catalogue can hold, in the order `known_fields` lists them, with their keys.
    static let expressible: [(field: Field, key: String)] = [
        (.id, "id"), (.kind, "kind"), (.referenceName, "name"), (.familyShareable, "family_shareable"),
        (.localizations, "localizations"), (.prices, "prices"), (.period, "period"),
        (.introductoryOffer, "introductory_offer"), (.promotionalOffers, "promotional_offers"),
        (.group, "subscription_groups"), (.level, "level"),
    ]

    static func header(for catalog: Catalog) -> [String] {
        [
            "A tally-catalog/1 catalogue converted by `tally convert` from \(SafeText.line(catalog.file)) (\(catalog.format)).",
            // The converted file lives in the user's repository: no path into Tally's own tree.
            "tally-catalog/1 is strict (an unknown or repeated key is an error at its line); prices are decimal texts per",
            "territory, periods ISO 8601 (P1M). The format's reference is catalog-format.md in Tally's documentation.",
            "Check it with: tally check \(SafeText.line(catalog.file)) THIS_FILE",
        ]
    }

    private func knows(_ field: Field) -> Bool { catalog.knownFields.contains(field) }

    /// The two spellings of the catalogue.
    enum Syntax { case json, yaml }

    /// Writes the catalogue into `sink`: the top-level keys, then each product and each group
    /// as it is built (one product's or one group's values at a time, never the whole document).
    mutating func write(_ syntax: Syntax, to sink: inout ByteSink, notes: inout ConvertNotes) {
        var top: [OutputMember] = [OutputMember("format", .string("tally-catalog/1"))]
        top.append(OutputMember("default_territory", .string(catalog.defaultTerritory.code),
                                comment: "The storefront whose currency offer prices are in."))
        let known = Self.expressible.filter { knows($0.field) }
        if known.count < Self.expressible.count {
            let unknown = Self.expressible.filter { !knows($0.field) }.map(\.key)
            // Win-back offers are listed where the source states them (StoreKit 4.0, App Store Connect), never called unknown.
            let keys = known.map(\.key) + (knows(.winbackOffers) ? ["winback_offers"] : [])
            top.append(OutputMember("known_fields", .array(keys.map { .string($0) }),
                                    comment: "The source (\(catalog.format)) does not know: \(unknown.joined(separator: ", ")).\nTally compares only the fields listed here."))
        }
        let grouped = groupedSubscriptions(notes: &notes)
        let memberIDs = Set(grouped.flatMap { $0.members.map(\.id) })
        let products = catalog.products.filter { !memberIDs.contains($0.id) }
        var lists: [(key: String, count: Int)] = []
        if !products.isEmpty || grouped.isEmpty { lists.append(("products", products.count)) }
        if !grouped.isEmpty { lists.append(("subscription_groups", grouped.count)) }

        // The elements of each list, made one at a time.
        let element: (_ list: String, _ index: Int, _ writer: inout CatalogWriter, _ notes: inout ConvertNotes) -> OutputValue = { list, index, writer, notes in
            if list == "products" { return writer.productValue(products[index], notes: &notes) }
            let group = grouped[index]
            var members: [OutputMember] = [OutputMember("id", .string(group.id))]
            if let name = group.name { members.append(OutputMember("name", .string(name))) }
            if let localizations = writer.localizations(group.localizations, of: "subscription group \(group.id)", notes: &notes) {
                members.append(localizations)
            }
            var subscriptions: [OutputValue] = []
            for product in group.members { subscriptions.append(writer.subscriptionValue(product, notes: &notes)) }
            members.append(OutputMember("subscriptions", .array(subscriptions)))
            return .object(members)
        }
        switch syntax {
        case .yaml:
            YAMLText.writeHeader(Self.header(for: catalog), to: &sink)
            for (index, member) in top.enumerated() {
                YAMLText.writeMember(member, indent: 0, to: &sink, blankLineBefore: index > 0)
            }
            for list in lists {
                // A top-level list after the first member: a blank line, `key:`, then its elements.
                sink.append("\n")
                sink.append(utf8: list.key)
                sink.append(":")
                if list.count == 0 {
                    sink.append(" []\n")
                    continue
                }
                sink.append("\n")
                for index in 0..<list.count {
                    guard sink.isOpen else { return }
                    YAMLText.writeElement(element(list.key, index, &self, &notes), indent: 0, to: &sink)
                    sink.flushIfFull()
                }
            }
        case .json:
            sink.append("{\n")
            for (index, member) in top.enumerated() {
                sink.pad(2)
                JSONText.appendQuoted(member.key, to: &sink)
                sink.append(": ")
                JSONText.write(member.value, indent: 2, style: .catalog, to: &sink)
                sink.append(index == top.count - 1 && lists.isEmpty ? "\n" : ",\n")
            }
            for (number, list) in lists.enumerated() {
                sink.pad(2)
                JSONText.appendQuoted(list.key, to: &sink)
                sink.append(": ")
                if list.count == 0 {
                    sink.append("[]")
                } else {
                    sink.append("[\n")
                    for index in 0..<list.count {
                        guard sink.isOpen else { return }
                        if index > 0 { sink.append(",\n") }
                        sink.pad(4)
                        JSONText.write(element(list.key, index, &self, &notes), indent: 4, style: .catalog, to: &sink)
                        sink.flushIfFull()
                    }
                    sink.append("\n  ]")
                }
                sink.append(number == lists.count - 1 ? "\n" : ",\n")
            }
            sink.append("}\n")
        }
    }

    /// Auto-renewable subscriptions by group, in the source's group order. Subscriptions of no
    /// group go to a group named `ungrouped` (the format keeps subscriptions in groups); a Google
    /// Play base plan goes to a group named by its subscription's product ID (`premium`).
    private func groupedSubscriptions(notes: inout ConvertNotes) -> [(id: String, name: String?, localizations: [Localization], members: [Product])] {
        var result: [(id: String, name: String?, localizations: [Localization], members: [Product])] = []
        var index: [String: Int] = [:]
        for group in catalog.groups where index[group.id] == nil {
            index[group.id] = result.count
            result.append((group.id, group.name, group.localizations, []))
        }
        for product in catalog.products where product.kind.isAutoRenewable || product.group != nil {
            let groupID: String
            if let membership = product.group, !membership.groupID.isEmpty {
                groupID = membership.groupID
            } else if catalog.id(of: product, in: Store.keyOfCatalogues) == nil {
                // A Google Play subscription's base plans: grouped under their Play product ID.
                let store = product.soleStore ?? catalog.format.store
                let id = store.askedID(product.storeIDs[store].flatMap { $0.isEmpty ? nil : $0 } ?? product.id)
                groupID = id.isEmpty ? "ungrouped" : id
            } else {
                groupID = "ungrouped"
                if knows(.group) { notes.add("an auto-renewable subscription in no group: put in a group named \"ungrouped\"", product.id) }
            }
            if index[groupID] == nil {
                index[groupID] = result.count
                result.append((groupID, product.group?.groupName, [], []))
            }
            if let at = index[groupID] { result[at].members.append(product) }
        }
        return result.filter { !$0.members.isEmpty }
    }

    private func common(_ product: Product, into members: inout [OutputMember]) {
        if knows(.referenceName), let name = product.referenceName { members.append(OutputMember("name", .string(name))) }
        if knows(.familyShareable), let shareable = product.familyShareable {
            members.append(OutputMember("family_shareable", .bool(shareable)))
        }
    }

    private mutating func prices(_ product: Product) -> OutputMember? {
        guard knows(.prices), !product.prices.isEmpty else { return nil }
        seen.removeAll()
        var entries: [OutputMember] = []
        entries.reserveCapacity(product.prices.count)
        for price in product.prices where seen.insert(price.territory) {
            entries.append(OutputMember(territories.code(price.territory), .string(prices.text(price.money.amount))))
        }
        return OutputMember("prices", .object(entries))
    }

    private func localizations(_ product: Product, notes: inout ConvertNotes) -> OutputMember? {
        localizations(product.localizations, of: product.id, notes: &notes)
    }

    /// A product's or a group's `localizations`: locale → `name`, `description`.
    private func localizations(_ list: [Localization], of owner: String, notes: inout ConvertNotes) -> OutputMember? {
        guard knows(.localizations), !list.isEmpty else { return nil }
        var seen = Set<String>()
        var entries: [OutputMember] = []
        for localization in list {
            guard seen.insert(localization.locale).inserted else {
                notes.add("a locale localised twice: the first kept", owner)
                continue
            }
            var fields: [OutputMember] = []
            if let name = localization.displayName { fields.append(OutputMember("name", .string(name))) }
            if let description = localization.description { fields.append(OutputMember("description", .string(description))) }
            entries.append(OutputMember(localization.locale, .object(fields)))
        }
        return OutputMember("localizations", .object(entries))
    }

    /// The product's identity: its App Store `id`, with `google_play` where that differs; or,
    /// for a product with no App Store ID (every product of a Google Play source), `google_play`
    /// alone, so that a Play identity such as `premium:monthly` is never written as an App Store ID.
    private func identity(_ product: Product) -> [OutputMember] {
        if catalog.id(of: product, in: Store.keyOfCatalogues) == nil {
            let store = product.soleStore ?? catalog.format.store
            return [OutputMember(store.catalogueKey ?? "id", .string(product.storeIDs[store].flatMap { $0.isEmpty ? nil : $0 } ?? product.id))]
        }
        var members = [OutputMember("id", .string(product.id))]
        for store in Store.allCases {
            guard let key = store.catalogueKey, let other = product.storeIDs[store], other != product.id else { continue }
            members.append(OutputMember(key, other.isEmpty ? .null : .string(other)))
        }
        return members
    }

    private mutating func productValue(_ product: Product, notes: inout ConvertNotes) -> OutputValue {
        var members = identity(product)
        if knows(.kind) { members.append(OutputMember("kind", .string(product.kind.rawValue))) }
        common(product, into: &members)
        if let prices = prices(product) { members.append(prices) }
        if let localizations = localizations(product, notes: &notes) { members.append(localizations) }
        noteLosses(product, notes: &notes)
        return .object(members)
    }

    private mutating func subscriptionValue(_ product: Product, notes: inout ConvertNotes) -> OutputValue {
        var members = identity(product)
        // A suite or bundle says so, with its members; a plain subscription is the default kind.
        if knows(.kind), product.kind.includesSubscriptions { members.append(OutputMember("kind", .string(product.kind.rawValue))) }
        if let name = product.referenceName, knows(.referenceName) { members.append(OutputMember("name", .string(name))) }
        if knows(.level), let level = product.group?.level { members.append(OutputMember("level", .number(String(level)))) }
        if knows(.period), let period = product.period { members.append(OutputMember("period", .string(period.literal))) }
        if let prices = prices(product) { members.append(prices) }
        if knows(.familyShareable), let shareable = product.familyShareable {
            members.append(OutputMember("family_shareable", .bool(shareable)))
        }
        if knows(.introductoryOffer), let offer = product.introductoryOffer {
            members.append(OutputMember("introductory_offer", offerValue(offer, id: nil, product: product, notes: &notes)))
        }
        // A source that states a subscription has no promotional offers (a StoreKit configuration
        // without adHocOffers) gives `promotional_offers: []`, so that the catalogue says so too.
        if knows(.promotionalOffers), !product.promotionalOffers.isEmpty
            || (product.kind.isAutoRenewable && catalog.states(.promotionalOffers, for: product)) {
            var ids = Set<String>()
            var offers: [OutputValue] = []
            for (index, offer) in product.promotionalOffers.enumerated() {
                var id = offer.id ?? "offer-\(index + 1)"
                if offer.id == nil { notes.add("a promotional offer without an offerID: named offer-N", product.id) }
                if !ids.insert(id).inserted {
                    id += "-\(index + 1)"
                    notes.add("two promotional offers with one offerID: the second renamed", product.id)
                }
                offers.append(offerValue(offer, id: id, product: product, notes: &notes))
            }
            members.append(OutputMember("promotional_offers", .array(offers)))
        }
        // Win-back offers (issue 50), where the source states them, by offer ID as promotional offers are.
        if knows(.winbackOffers), product.kind.isAutoRenewable, catalog.states(.winbackOffers, for: product) {
            var ids = Set<String>()
            var offers: [OutputValue] = []
            for (index, offer) in product.winbackOffers.enumerated() {
                var id = offer.id ?? "winback-\(index + 1)"
                if !ids.insert(id).inserted { id += "-\(index + 1)" }
                offers.append(offerValue(offer, id: id, product: product, notes: &notes))
            }
            members.append(OutputMember("winback_offers", .array(offers)))
        }
        if let localizations = localizations(product, notes: &notes) { members.append(localizations) }
        if let plans = billingPlans(product, notes: &notes) { members.append(plans) }
        members += seatMembers(product)
        if product.kind.includesSubscriptions { members.append(OutputMember("members", .array(product.members.map(OutputValue.string)))) }
        noteLosses(product, notes: &notes)
        return .object(members)
    }

    /// `billing_plans`: each App Store plan with its prices, commitment, whether it is enabled,
    /// and the introductory offers on it (StoreKit 5.0's `introductoryOffers[]` by `billingPlanType`).
    private mutating func billingPlans(_ product: Product, notes: inout ConvertNotes) -> OutputMember? {
        guard knows(.billingPlans), product.billingPlans.contains(where: { $0.kind != nil }) else { return nil }
        let offers = product.otherIntroductoryOffers
        var plans: [OutputValue] = []
        for plan in product.billingPlans {
            guard let kind = plan.kind else { continue }
            var fields = [OutputMember("type", .string(kind.rawValue))]
            let prices = plan.prices.isEmpty ? plan.price.map { [Price(territory: catalog.defaultTerritory, money: $0)] } ?? [] : plan.prices
            if !prices.isEmpty {
                fields.append(OutputMember("prices", .object(prices.map { OutputMember($0.territory.code, .string(DecimalLiteral.text($0.money.amount))) })))
            }
            if let commitment = plan.commitment { fields.append(OutputMember("commitment", .string(commitment.literal))) }
            if let price = plan.commitmentPrice { fields.append(OutputMember("commitment_price", .string(DecimalLiteral.text(price.amount)))) }
            if let enabled = plan.isEnabled { fields.append(OutputMember("enabled", .bool(enabled))) }
            let own = offers.filter { $0.billingPlan == kind }
            if !own.isEmpty {
                var values: [OutputValue] = []
                for offer in own { values.append(offerValue(offer, id: nil, product: product, notes: &notes)) }
                fields.append(OutputMember("introductory_offers", .array(values)))
            }
            plans.append(.object(fields))
        }
        return OutputMember("billing_plans", .array(plans))
    }

    /// `multi_seat`, `market_settings` and `seat_tiers`: whether the subscription can be bought
    /// with seats, where, and its volume tiers (each `min_seats`, `max_seats` but for an
    /// open-ended last tier, `prices` per seat, and `plan` where the tier belongs to one).
    private func seatMembers(_ product: Product) -> [OutputMember] {
        var members: [OutputMember] = []
        if knows(.multiSeat), let status = product.multiSeatStatus {
            members.append(OutputMember("multi_seat", .bool(status == .enabled)))
        }
        if knows(.multiSeat), let markets = product.marketSettings {
            members.append(OutputMember("market_settings", .array(markets.map { .string($0.rawValue) })))
        }
        guard knows(.seatTiers), !product.seatTiers.isEmpty else { return members }
        let tiers = product.seatTiers.map { tier -> OutputValue in
            var fields = [OutputMember("min_seats", .number(String(tier.minimumSeats)))]
            if let maximum = tier.maximumSeats { fields.append(OutputMember("max_seats", .number(String(maximum)))) }
            if !tier.prices.isEmpty {
                fields.append(OutputMember("prices", .object(tier.prices.map { OutputMember($0.territory.code, .string(DecimalLiteral.text($0.money.amount))) })))
            }
            if let plan = tier.billingPlan { fields.append(OutputMember("plan", .string(plan.rawValue))) }
            return .object(fields)
        }
        members.append(OutputMember("seat_tiers", .array(tiers)))
        return members
    }

    private mutating func offerValue(_ offer: Offer, id: String?, product: Product, notes: inout ConvertNotes) -> OutputValue {
        var members: [OutputMember] = []
        if let id { members.append(OutputMember("id", .string(id))) }
        members.append(OutputMember("type", .string(offer.mode.rawValue)))
        members.append(OutputMember("period", .string(offer.period.literal)))
        if offer.periods != 1 { members.append(OutputMember("count", .number(String(offer.periods)))) }
        if let price = offer.price {
            members.append(OutputMember("price", .string(prices.text(price.amount))))
            if let territory = offer.territory, territory != catalog.defaultTerritory {
                notes.add("an offer priced in \(territory), not the default territory \(catalog.defaultTerritory): its price is written as if in \(catalog.defaultTerritory)", product.id)
            }
        }
        // A promotional offer on the monthly plan says so; up front is what an offer without `plan` means.
        if id != nil, knows(.billingPlans), let plan = offer.billingPlan, plan != .upfront {
            members.append(OutputMember("plan", .string(plan.rawValue)))
        }
        return .object(members)
    }

    /// What the catalogue format cannot hold.
    private func noteLosses(_ product: Product, notes: inout ConvertNotes) {
        if !product.codeOffers.isEmpty { notes.add("offer codes (codeOffers) left out: the catalogue format has none", product.id) }
        if !product.winbackOffers.isEmpty, !knows(.winbackOffers) { notes.add("win-back offers left out: the source does not say it states them", product.id) }
        // Introductory offers on a plan are written under it; others beyond the first have no place.
        if product.otherIntroductoryOffers.contains(where: { $0.billingPlan == nil || !knows(.billingPlans) }) {
            notes.add("introductory offers beyond the first (StoreKit 5.0 introductoryOffers) left out", product.id)
        }
        if !knows(.billingPlans), product.billingPlans.contains(where: { $0.type != "BILLED_UPFRONT" }) {
            notes.add("billing plans (StoreKit 5.0 billingPlans) left out: the source does not know them", product.id)
        }
        if product.priceTier != nil, !knows(.prices) || product.prices.isEmpty {
            notes.add("an App Store price tier left out: the catalogue holds amounts; give --price-tiers FILE to turn tiers into prices", product.id)
        }
    }
}
