import TallyModel

/// The mutable state of one `tally-catalog/1` decode.
struct CatalogDecoder {
    let file: String
    var defaultTerritory: Territory = .usa
    var products: [Product] = []
    var groups: [SubscriptionGroup] = []
    var issues: [SourceIssue] = []
    /// Reused between products while reading prices.
    private var scratch: [Price] = []
    private var seenTerritories = TerritorySet()

    init(file: String) { self.file = file }

    /// The catalogue read; consumes the decoder so that products are updated in place.
    consuming func catalog(format: SourceFormat) -> Catalog {
        // Offer prices are in the default territory, known only once the whole file is read.
        let currency = defaultTerritory.currency
        let territory = defaultTerritory
        func place(_ offer: Offer) -> Offer {
            var offer = offer
            offer.territory = territory
            offer.price = offer.price.map { Money(amount: $0.amount, currency: currency) }
            return offer
        }
        var located = products
        products = []
        for index in located.indices where located[index].introductoryOffer != nil || !located[index].promotionalOffers.isEmpty {
            located[index].introductoryOffer = located[index].introductoryOffer.map(place)
            located[index].promotionalOffers = located[index].promotionalOffers.map(place)
        }
        return Catalog(file: file, format: format, defaultTerritory: defaultTerritory, products: located,
                       groups: groups, issues: issues)
    }

    func readTerritory<R: DocumentReader>(_ reader: inout R) throws -> Territory {
        let at = reader.position
        let code = try reader.readString()
        guard let territory = Territory(code) else {
            throw reader.error(Territory.notAStorefront(code), at: at)
        }
        return territory
    }

    static let productKeys = ["id", "kind", "name", "family_shareable", "prices", "localizations", "google_play"]
    static let subscriptionKeys = ["id", "name", "level", "period", "prices", "family_shareable",
                                   "introductory_offer", "promotional_offers", "localizations", "google_play"]
    static let groupKeys = ["id", "name", "subscriptions"]
    static let offerKeys = ["id", "type", "period", "count", "price"]
    static let kinds: [String: ProductKind] = [
        "consumable": .consumable, "non-consumable": .nonConsumable, "non-renewing-subscription": .nonRenewingSubscription,
    ]

    mutating func readGroup<R: DocumentReader>(_ reader: inout R) throws {
        let start = reader.position
        var keys = KeySet()
        var id: String?
        var name: String?
        var members: [String] = []
        var firstMember = products.count
        try reader.forEachKey { reader, key in
            try keys.insert(key, reader: reader)
            switch key {
            case "id": id = try reader.readString()
            case "name": name = try reader.readOptionalString()
            case "subscriptions":
                firstMember = products.count
                try reader.forEachElement { reader, index in
                    try readProduct(&reader, group: (id: id ?? "", position: index + 1))
                    members.append(products[products.count - 1].id)
                }
            default:
                throw TallyCatalogReader.unknownKey(key, in: "a subscription group", allowed: Self.groupKeys, reader: reader)
            }
        }
        guard let id, !id.isEmpty else { throw reader.error("a subscription group has no id", at: start) }
        // The id may come after the subscriptions in the file: attach it now.
        for index in firstMember..<products.count {
            products[index].group?.groupID = id
            products[index].group?.groupName = name
        }
        groups.append(SubscriptionGroup(id: id, name: name, productIDs: members, position: start))
    }

    /// Reads a product (group nil) or a subscription of a group (its ID and 1-based position).
    mutating func readProduct<R: DocumentReader>(_ reader: inout R, group: (id: String, position: Int)?) throws {
        let start = reader.position
        let isSubscription = group != nil
        var keys = KeySet()
        var product = Product(id: "", kind: isSubscription ? .autoRenewableSubscription : .consumable, position: start)
        var kindSeen = isSubscription
        var level: Int?
        try reader.forEachKey { reader, key in
            try keys.insert(key, reader: reader)
            let at = reader.position
            switch key {
            case "id":
                product.fieldPositions[.id] = at
                product.id = try reader.readString()
            case "kind" where !isSubscription:
                product.fieldPositions[.kind] = at
                let text = try reader.readString()
                guard let kind = Self.kinds[text] else {
                    let hint = text == "auto-renewable-subscription"
                        ? "auto-renewable subscriptions go under subscription_groups"
                        : "expected consumable, non-consumable or non-renewing-subscription"
                    throw reader.error("unknown kind \"\(text)\": \(hint)", at: at)
                }
                product.kind = kind
                kindSeen = true
            case "name":
                product.fieldPositions[.referenceName] = at
                product.referenceName = try reader.readOptionalString()
            case "family_shareable":
                product.fieldPositions[.familyShareable] = at
                product.familyShareable = try reader.readBool()
            case "prices":
                product.fieldPositions[.prices] = at
                product.prices = try readPrices(&reader, productID: product.id)
            case "localizations":
                product.localizations = try readLocalizations(&reader)
            case "google_play":
                // The Google Play identity: PRODUCT_ID:BASE_PLAN_ID for a base plan, the product ID
                // otherwise; null: not sold on Google Play (an empty identity).
                if try reader.readNullIfPresent() {
                    product.googlePlayID = ""
                    return
                }
                let text = try reader.readString()
                guard !text.isEmpty, !text.contains(where: \.isWhitespace) else {
                    throw reader.error("google_play must be a Google Play product ID (\"coins_100\") or PRODUCT_ID:BASE_PLAN_ID (\"premium:yearly\")", at: at)
                }
                product.googlePlayID = text
            case "level" where isSubscription:
                product.fieldPositions[.level] = at
                level = try reader.readInt()
            case "period" where isSubscription:
                product.fieldPositions[.period] = at
                let text = try reader.readString()
                if let period = Period(iso8601: text) {
                    product.period = period
                } else {
                    issues.append(SourceIssue(rule: "invalid-period", productID: product.id, field: .period,
                                              message: "period \"\(text)\" is not an ISO 8601 period like P1M", position: at))
                }
            case "introductory_offer" where isSubscription:
                product.fieldPositions[.introductoryOffer] = at
                if try !reader.readNullIfPresent() {
                    product.introductoryOffer = try readOffer(&reader, productID: product.id, promotional: false)
                }
            case "promotional_offers" where isSubscription:
                product.fieldPositions[.promotionalOffers] = at
                try reader.forEachElement { reader, _ in
                    if let offer = try readOffer(&reader, productID: product.id, promotional: true) {
                        product.promotionalOffers.append(offer)
                    }
                }
            default:
                let allowed = isSubscription ? Self.subscriptionKeys : Self.productKeys
                throw TallyCatalogReader.unknownKey(key, in: isSubscription ? "a subscription" : "a product", allowed: allowed, reader: reader)
            }
        }
        guard !product.id.isEmpty else { throw reader.error("a product has no id", at: start) }
        guard kindSeen else {
            throw reader.error("product \(product.id) has no kind (consumable, non-consumable or non-renewing-subscription)", at: start)
        }
        // Issues recorded before the id was read carry an empty product ID: fill it in.
        for index in issues.indices where issues[index].productID == "" { issues[index].productID = product.id }
        if let group {
            product.group = GroupMembership(groupID: group.id, level: level ?? group.position)
        }
        products.append(product)
    }

    /// Reads `{TERRITORY: price, ...}`. The hot loop of large catalogues: no closures, no
    /// intermediate strings for prices, duplicates found by sorting once.
    mutating func readPrices<R: DocumentReader>(_ reader: inout R, productID: String) throws -> [Price] {
        scratch.removeAll(keepingCapacity: true)
        try reader.beginObject()
        while let key = try reader.nextTerritoryKey() {
            let at = reader.position
            guard case .territory(let territory) = key else {
                let text = if case .other(let text) = key { text } else { "" }
                throw reader.error(Territory.notAStorefront(text))
            }
            switch try reader.readDecimal() {
            case .value(let amount):
                scratch.append(Price(territory: territory, money: Money(amount: amount, in: territory), position: at))
            case .invalid(let text):
                issues.append(SourceIssue(rule: "invalid-price", productID: productID, field: .prices,
                                          message: "price \"\(text)\" in \(territory) is not a decimal number", position: at))
            }
        }
        if let repeated = seenTerritories.firstRepeat(in: scratch) {
            throw reader.error("\(repeated.territory) is priced twice", at: repeated.position)
        }
        // An exact-size copy: growth slack times 20,000 products adds up.
        return scratch.withUnsafeBufferPointer { Array($0) }
    }

    func readLocalizations<R: DocumentReader>(_ reader: inout R) throws -> [Localization] {
        var result: [Localization] = []
        try reader.forEachKey { reader, locale in
            var localization = Localization(locale: locale)
            var keys = KeySet()
            try reader.forEachKey { reader, key in
                try keys.insert(key, reader: reader)
                switch key {
                case "name": localization.displayName = try reader.readOptionalString()
                case "description": localization.description = try reader.readOptionalString()
                default: throw TallyCatalogReader.unknownKey(key, in: "a localization", allowed: ["name", "description"], reader: reader)
                }
            }
            result.append(localization)
        }
        return result
    }

    mutating func readOffer<R: DocumentReader>(_ reader: inout R, productID: String, promotional: Bool) throws -> Offer? {
        let start = reader.position
        var keys = KeySet()
        var id: String?
        var mode: OfferMode?
        var period: Period?
        var count = 1
        var price: Money?
        var valid = true
        try reader.forEachKey { reader, key in
            try keys.insert(key, reader: reader)
            let at = reader.position
            switch key {
            case "id" where promotional: id = try reader.readString()
            case "type":
                let text = try reader.readString()
                guard let value = OfferMode(rawValue: text) else {
                    throw reader.error("unknown offer type \"\(text)\" (expected free-trial, pay-as-you-go or pay-up-front)", at: at)
                }
                mode = value
            case "period":
                let text = try reader.readString()
                period = Period(iso8601: text)
                if period == nil {
                    valid = false
                    issues.append(SourceIssue(rule: "invalid-period", productID: productID, field: .introductoryOffer,
                                              message: "offer period \"\(text)\" is not an ISO 8601 period like P1W", position: at))
                }
            case "count":
                count = try reader.readInt()
            case "price":
                let text = try reader.readDecimalText()
                if let amount = DecimalText.parse(text) {
                    price = Money(amount: amount, currency: nil)
                } else {
                    valid = false
                    issues.append(SourceIssue(rule: "invalid-price", productID: productID, field: .introductoryOffer,
                                              message: "offer price \"\(text)\" is not a decimal number", position: at))
                }
            default:
                let allowed = promotional ? Self.offerKeys : Self.offerKeys.filter { $0 != "id" }
                throw TallyCatalogReader.unknownKey(key, in: promotional ? "a promotional offer" : "an introductory offer", allowed: allowed, reader: reader)
            }
        }
        guard let mode else { throw reader.error("the offer has no type (free-trial, pay-as-you-go or pay-up-front)", at: start) }
        guard valid else { return nil }
        guard let period else { throw reader.error("the offer has no period (an ISO 8601 period like P1W)", at: start) }
        if promotional, id == nil { throw reader.error("a promotional offer needs an id", at: start) }
        return Offer(id: id, mode: mode, period: period, periods: count, price: price, position: start)
    }
}
