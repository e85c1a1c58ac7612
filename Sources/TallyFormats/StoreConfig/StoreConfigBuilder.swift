import TallyModel

/// Builds the catalogue of one storeconfig export (see `StoreConfigReader`).
struct StoreConfigBuilder {
    let file: String
    private var products: [Product] = []
    private var groups: [SubscriptionGroup] = []
    private var issues: [SourceIssue] = []
    private var account = KeyAccount()

    init(file: String) { self.file = file }

    mutating func catalog(_ root: LocatedNode) throws -> Catalog {
        account.check(root, Self.rootKeys)
        if let version = root["schemaVersion"], !(version.text ?? "").hasPrefix("1.") {
            issues.append(KeyAccount.unknownVersion("storeconfig schema", found: version.text ?? version.article, known: "1.x",
                                                    at: version.position, path: version.path))
        }
        for entry in root["inAppPurchases"]?.elements ?? [] { try addPurchase(entry) }
        for group in root["subscriptionGroups"]?.elements ?? [] { try addGroup(group) }
        var known: Set<Field> = [.id, .kind, .referenceName, .familyShareable, .localizations, .prices]
        if root["subscriptionGroups"] != nil { known.formUnion([.period, .group, .level, .introductoryOffer, .promotionalOffers]) }
        return Catalog(file: file, format: .storeConfig, defaultTerritory: .usa, products: products, groups: groups,
                       knownFields: known, issues: issues + account.issues)
    }

    // MARK: - Products

    private mutating func addPurchase(_ entry: LocatedNode) throws {
        account.check(entry, Self.purchaseKeys)
        var product = try common(entry, kind: .consumable)
        if let type = entry["type"] {
            product.fieldPositions[.kind] = type.position
            guard let text = type.text, let kind = ConnectVocabulary.kinds[text], !kind.isAutoRenewable else {
                throw failure("in-app purchase \(product.id) has type \(type.text.map { "\"\($0)\"" } ?? type.article); expected CONSUMABLE, NON_CONSUMABLE or NON_RENEWING_SUBSCRIPTION", at: type)
            }
            product.kind = kind
        } else {
            throw failure("in-app purchase \(product.id) has no type (CONSUMABLE, NON_CONSUMABLE or NON_RENEWING_SUBSCRIPTION)", at: entry)
        }
        products.append(product)
    }

    private mutating func addGroup(_ group: LocatedNode) throws {
        guard group.isObject else { throw failure("expected a subscription group (an object), found \(group.article)", at: group) }
        guard let name = group["referenceName"]?.nonEmptyText else {
            throw failure("this subscription group has no referenceName", at: group)
        }
        account.check(group, Self.groupKeys)
        var declared = SubscriptionGroup(id: name, name: name, position: group.position)
        for localization in group["localizations"]?.elements ?? [] {
            account.check(localization, Self.groupLocalizationKeys)
            guard let locale = localization["locale"]?.nonEmptyText else { continue }
            declared.localizations.append(Localization(locale: locale, displayName: localization["name"]?.text))
        }
        for entry in group["subscriptions"]?.elements ?? [] {
            account.check(entry, Self.subscriptionKeys)
            var product = try common(entry, kind: .autoRenewableSubscription)
            var level: Int?
            if let found = entry["groupLevel"] {
                product.fieldPositions[.level] = found.position
                if let value = found.int, value >= 1 { level = value } else {
                    issue(.level, product.id, .level, "groupLevel \(found.text ?? found.article) is not a whole number of at least 1", found)
                }
            }
            product.group = GroupMembership(groupID: name, groupName: name, level: level)
            product.fieldPositions[.group] = group.position
            if let found = entry["subscriptionPeriod"] {
                product.fieldPositions[.period] = found.position
                if let period = found.text.flatMap(ConnectVocabulary.period) {
                    product.period = period
                } else {
                    issue(.invalidPeriod, product.id, .period, "subscriptionPeriod \(quoted(found)) is not one of \(ConnectVocabulary.describe(ConnectVocabulary.periods.keys))", found)
                }
            }
            readIntroductoryOffers(entry, into: &product)
            for offer in entry["promotionalOffers"]?.elements ?? [] {
                if let read = self.offer(offer, product: product, kind: "promotional offer", field: .promotionalOffers) {
                    product.promotionalOffers.append(read)
                }
            }
            if let first = entry["promotionalOffers"] { product.fieldPositions[.promotionalOffers] = first.position }
            declared.productIDs.append(product.id)
            products.append(product)
        }
        groups.append(declared)
    }

    /// `productId`, `referenceName`, `familySharable`, `pricing` and `localizations`.
    private mutating func common(_ entry: LocatedNode, kind: ProductKind) throws -> Product {
        guard entry.isObject else { throw failure("expected a product (an object), found \(entry.article)", at: entry) }
        guard let idNode = entry["productId"], let id = idNode.nonEmptyText else { throw failure("this product has no productId", at: entry) }
        var product = Product(id: id, kind: kind, position: entry.position)
        product.fieldPositions[.id] = idNode.position
        if let name = entry["referenceName"] {
            product.referenceName = name.text
            product.fieldPositions[.referenceName] = name.position
        }
        if let family = entry["familySharable"] {
            product.fieldPositions[.familyShareable] = family.position
            if let flag = family.bool { product.familyShareable = flag } else {
                issue(.familySharing, id, .familyShareable, "familySharable \(quoted(family)) is not true or false", family)
            }
        }
        if let (pricing, list) = priceList(entry, productID: id, what: "product") {
            product.fieldPositions[.prices] = pricing.position
            product.prices = prices(list, productID: id)
        }
        product.localizations = (entry["localizations"]?.elements ?? []).compactMap { localization in
            account.check(localization, Self.localizationKeys)
            guard let locale = localization["locale"]?.nonEmptyText else { return nil }
            return Localization(locale: locale, displayName: localization["name"]?.text, description: localization["description"]?.text)
        }
        return product
    }

    /// Where a product's or offer's prices are written, and their list. storeconfig has written
    /// them three ways: `pricing {baseTerritory, prices[]}` (today's schema), `priceSchedule
    /// {baseTerritory, prices[]}` (in-app purchases, mid-2025), and a bare `prices[]`
    /// (subscriptions and their offers, mid-2025). A second way beside the first is not read, and
    /// named. Nil when the entry has none.
    private mutating func priceList(_ entry: LocatedNode, productID: String, what: String) -> (node: LocatedNode, list: LocatedNode)? {
        var found: [(key: String, node: LocatedNode, list: LocatedNode)] = []
        for key in ["pricing", "priceSchedule"] {
            guard let schedule = entry[key] else { continue }
            account.check(schedule, Self.scheduleKeys)
            guard let list = schedule["prices"] else {
                issue(.invalidPrice, productID, .prices, "\(key) has no prices list {territory, price}, so this \(what) has no price", schedule)
                continue
            }
            found.append((key, schedule, list))
        }
        if let bare = entry["prices"] { found.append(("prices", bare, bare)) }
        guard let first = found.first else { return nil }
        for other in found.dropFirst() {
            issue(.invalidPrice, productID, .prices,
                  "this \(what) writes its prices twice, in \(first.key) and in \(other.key): only \(first.key) is read", other.node)
        }
        return (first.node, first.list)
    }

    /// `prices[] {territory, price}`: each price a decimal string in the territory's currency.
    private mutating func prices(_ list: LocatedNode, productID: String) -> [Price] {
        var result: [Price] = []
        if !list.isArray {
            issue(.invalidPrice, productID, .prices, "expected a list of prices {territory, price}, found \(list.article)", list)
            return []
        }
        for entry in list.elements {
            account.check(entry, Self.priceKeys)
            guard let code = entry["territory"]?.text, let territory = Territory(code) else {
                issue(.invalidPrice, productID, .prices, "this price names no App Store storefront code (like USA) in territory", entry)
                continue
            }
            guard let amountNode = entry["price"] else {
                issue(.invalidPrice, productID, .prices, "the price in \(territory) has no price", entry)
                continue
            }
            let text = amountNode.text ?? ""
            guard let amount = DecimalText.parse(text) else {
                issue(.invalidPrice, productID, .prices, "price \"\(text)\" in \(territory) \(DecimalText.rejection(text))", amountNode)
                continue
            }
            if result.contains(where: { $0.territory == territory }) {
                issue(.invalidPrice, productID, .prices, "a second price in \(territory) (\(text)): the first is kept", amountNode)
                continue
            }
            result.append(Price(territory: territory, money: Money(amount: amount, currency: territory.currency), position: amountNode.position))
        }
        return result
    }

    // MARK: - Offers

    /// The introductory offer available in the USA (or worldwide), else the first one.
    private mutating func readIntroductoryOffers(_ entry: LocatedNode, into product: inout Product) {
        guard let list = entry["introductoryOffers"] else { return }
        product.fieldPositions[.introductoryOffer] = list.position
        var chosen: (offer: Offer, inUSA: Bool)?
        for node in list.elements {
            guard let offer = offer(node, product: product, kind: "introductory offer", field: .introductoryOffer) else { continue }
            let territories = node["availableTerritories"]
            let inUSA = territories == nil || territories?.text == "worldwide" || territories?.elements.contains { $0.text == "USA" } == true
            if chosen == nil || (inUSA && chosen?.inUSA == false) { chosen = (offer, inUSA) }
        }
        product.introductoryOffer = chosen?.offer
    }

    /// One offer; nil, with an issue naming what is missing, when it cannot be read whole.
    private mutating func offer(_ node: LocatedNode, product: Product, kind: String, field: Field) -> Offer? {
        let id = product.id
        guard node.isObject else {
            issue(.invalidOffer, id, field, "expected a \(kind) (an object), found \(node.article); the offer was dropped", node)
            return nil
        }
        account.check(node, field == .promotionalOffers ? Self.promotionalOfferKeys : Self.introductoryOfferKeys)
        // storeconfig wrote a free trial as "FREE" in its first weeks (July 2025), "FREE_TRIAL" since.
        guard let typeNode = node["type"], let mode = typeNode.text.flatMap({ $0 == "FREE" ? .freeTrial : ConnectVocabulary.offerModes[$0] }) else {
            issue(.invalidOffer, id, field, "\(kind) type \(node["type"].map(quoted) ?? "missing") is not one of \(ConnectVocabulary.describe(ConnectVocabulary.offerModes.keys)); the offer was dropped",
                  node["type"] ?? node)
            return nil
        }
        let period: Period
        if let duration = node["duration"] {
            guard let value = duration.text.flatMap(ConnectVocabulary.period) else {
                issue(.invalidOffer, id, field, "\(kind) duration \(quoted(duration)) is not one of \(ConnectVocabulary.describe(ConnectVocabulary.periods.keys)); the offer was dropped", duration)
                return nil
            }
            period = value
        } else if mode == .payAsYouGo, let subscriptionPeriod = product.period {
            period = subscriptionPeriod
        } else {
            issue(.invalidOffer, id, field, "\(kind) \(mode) has no duration"
                  + (mode == .payAsYouGo ? " and the subscription no subscriptionPeriod to take it from" : "") + "; the offer was dropped", node)
            return nil
        }
        var count = 1
        if let periods = node["numberOfPeriods"] {
            guard let value = periods.int, value >= 1 else {
                issue(.invalidOffer, id, field, "\(kind) numberOfPeriods \(quoted(periods)) is not a whole number of at least 1; the offer was dropped", periods)
                return nil
            }
            count = value
        }
        var price: Price?
        if mode != .freeTrial {
            guard let (pricing, list) = priceList(node, productID: id, what: kind) else {
                issue(.invalidOffer, id, field, "\(kind) \(mode) has no pricing; the offer was dropped", node)
                return nil
            }
            let prices = self.prices(list, productID: id)
            let base = pricing["baseTerritory"]?.text.flatMap { Territory($0) }
            price = prices.first { $0.territory == .usa } ?? prices.first { $0.territory == base } ?? prices.first
            guard price != nil else {
                issue(.invalidOffer, id, field, "\(kind) \(mode) has no price it can read; the offer was dropped", pricing)
                return nil
            }
        }
        let offerID = field == .promotionalOffers ? (node["id"]?.text ?? node["referenceName"]?.text) : nil
        return Offer(id: offerID, mode: mode, period: period, periods: count, price: price?.money, territory: price?.territory,
                     position: node.position)
    }

    // MARK: - Helpers

    private func quoted(_ node: LocatedNode) -> String { node.text.map { "\"\($0)\"" } ?? node.article }

    private mutating func issue(_ rule: RuleID, _ id: String, _ field: Field, _ message: String, _ node: LocatedNode) {
        issues.append(SourceIssue(rule: rule, productID: id, field: field, message: message, position: node.position, path: node.path))
    }

    private func failure(_ message: String, at node: LocatedNode) -> FormatError {
        FormatError(message, file: file, position: node.position, path: node.path)
    }
}
