import Foundation
import TallyModel

/// Applies a `tally-mapping/1` file to a server document: finds the products, reads each value
/// where the mapping says, and translates the server's words through the value maps.
struct MappingApplier {
    let mapping: TallyMapping
    let file: String
    private var issues: [SourceIssue] = []

    init(mapping: TallyMapping, file: String) {
        self.mapping = mapping
        self.file = file
    }

    mutating func catalog(from root: DocNode) throws -> Catalog {
        let top = PathMatch.root(root)
        var products: [Product] = []
        for source in mapping.productSources {
            for match in top.resolve(source.at) { products.append(try product(match, source: source)) }
        }
        if products.isEmpty, let first = mapping.productSources.first {
            let paths = mapping.productSources.map { "\"\($0.at)\"" }.joined(separator: ", ")
            throw FormatError("the products path \(paths) matches nothing in \(file): is this the server file the mapping describes?",
                              file: mapping.file, position: first.position)
        }
        var groups: [SubscriptionGroup] = []
        var groupIndex: [String: Int] = [:]
        for index in products.indices {
            guard var membership = products[index].group else { continue }
            let slot = groupIndex[membership.groupID] ?? groups.count
            if slot == groups.count {
                groupIndex[membership.groupID] = slot
                groups.append(SubscriptionGroup(id: membership.groupID, position: products[index].position(of: .group)))
            }
            groups[slot].productIDs.append(products[index].id)
            if membership.level == nil { membership.level = groups[slot].productIDs.count }
            products[index].group = membership
        }
        return Catalog(file: file, format: .mapped, defaultTerritory: mapping.defaultTerritory, products: products,
                       groups: groups, knownFields: mapping.knownFields, issues: issues)
    }

    private mutating func product(_ match: PathMatch, source: TallyMapping.ProductSource) throws -> Product {
        guard case .object = match.node.value else {
            throw error("expected a product (an object) here, found \(match.node.kind.article); check the products path \"\(source.at)\"", at: match)
        }
        let fields = mapping.fields
        guard let idMatch = value(match, fields.id), let id = idMatch.node.scalarText, !id.isEmpty else {
            throw error("this product has no ID at \"\(fields.id)\" (the mapping's fields.id)", at: match)
        }
        var product = Product(id: id, kind: source.kind ?? .nonConsumable, position: match.node.position, path: match.path)
        locate(&product, .id, idMatch)
        if let path = fields.kind, let found = value(match, path) {
            product.kind = try word(found, mapping.values.kind, "values.kind", parse: ProductKind.init(rawValue:), expected: "a product kind")
            locate(&product, .kind, found)
        } else if fields.kind != nil, source.kind == nil {
            throw error("\(id) has no kind at \"\(fields.kind?.description ?? "")\" (the mapping's fields.kind), and its products entry gives none", at: match)
        }
        if let path = fields.name, let found = value(match, path) {
            product.referenceName = found.node.scalarText
            locate(&product, .referenceName, found)
        }
        if let path = fields.familyShareable, let found = value(match, path) {
            product.familyShareable = flag(found, id: id)
            locate(&product, .familyShareable, found)
        }
        if let path = fields.price, let found = value(match, path) {
            locate(&product, .prices, found)
            if let money = amount(found, id: id, territory: mapping.defaultTerritory, field: .prices) {
                product.prices = [Price(territory: mapping.defaultTerritory, money: money, position: found.node.position)]
            }
        }
        if let list = fields.prices, let found = value(match, list.at) {
            locate(&product, .prices, found)
            product.prices = try prices(found, list, id: id)
        }
        if let path = fields.period, let found = value(match, path) {
            locate(&product, .period, found)
            product.period = period(found, id: id, field: .period)
        }
        if let path = fields.group, let found = value(match, path), let group = found.node.scalarText, !group.isEmpty {
            locate(&product, .group, found)
            var level: Int?
            if let levelPath = fields.level, let levelMatch = value(match, levelPath) {
                level = wholeLevel(levelMatch, id: id)
                locate(&product, .level, levelMatch)
            }
            product.group = GroupMembership(groupID: group, level: level)
        }
        if let offer = fields.introductoryOffer {
            product.introductoryOffer = try introductoryOffer(match, offer, id: id, product: &product)
        }
        if fields.kind == nil, source.kind == nil, product.period != nil || product.group != nil {
            product.kind = .autoRenewableSubscription
        }
        return product
    }

    /// The introductory offer; nil when there is none, or, with an issue naming what is wrong
    /// (`invalid-offer`), when it cannot be read whole: the offer is dropped, never the file.
    private mutating func introductoryOffer(_ match: PathMatch, _ spec: TallyMapping.OfferFields, id: String,
                                            product: inout Product) throws -> Offer? {
        var base = match
        if let at = spec.at {
            guard let found = value(match, at) else { return nil }
            guard case .object = found.node.value else {
                locate(&product, .introductoryOffer, found)
                dropOffer(id, "the introductory offer at \"\(at)\" is \(found.node.kind.article), not an object", found)
                return nil
            }
            base = found
        }
        guard let typeMatch = value(base, spec.type) else { return nil }
        locate(&product, .introductoryOffer, spec.at == nil ? typeMatch : base)
        guard let typeText = typeMatch.node.scalarText,
              let mode = mapping.values.offerType[typeText] ?? OfferMode(rawValue: typeText) else {
            let known = mapping.values.offerType.keys.sorted().joined(separator: ", ")
            dropOffer(id, "the introductory offer's type \(typeMatch.node.scalarText.map { "\"\($0)\"" } ?? typeMatch.node.kind.article) is not an offer type "
                      + "Tally knows (free-trial, pay-as-you-go, pay-up-front): add it to values.offer_type in \(mapping.file)"
                      + (known.isEmpty ? "" : " (it maps: \(known))"), typeMatch)
            return nil
        }
        guard let periodMatch = value(base, spec.period) else {
            dropOffer(id, "the introductory offer (\(mode)) has no period at \"\(spec.period)\"", base)
            return nil
        }
        guard let period = period(periodMatch, id: id, field: .introductoryOffer) else { return nil }
        var count = 1
        if let path = spec.count, let found = value(base, path) {
            guard let text = found.node.scalarText, let value = Int(text), value >= 1 else {
                dropOffer(id, "the introductory offer's count \(found.node.scalarText.map { "\"\($0)\"" } ?? found.node.kind.article) is not a whole number of at least 1", found)
                return nil
            }
            count = value
        }
        var price: Money?
        if let path = spec.price, let found = value(base, path) {
            guard let money = amount(found, id: id, territory: mapping.defaultTerritory, field: .introductoryOffer) else { return nil }
            price = money
        }
        return Offer(mode: mode, period: period, periods: count, price: price, territory: mapping.defaultTerritory,
                     position: (spec.at == nil ? typeMatch : base).node.position)
    }

    private mutating func dropOffer(_ id: String, _ message: String, _ match: PathMatch) {
        issue(.invalidOffer, id, .introductoryOffer, message + "; the offer was dropped", match)
    }

    private mutating func prices(_ found: PathMatch, _ list: TallyMapping.PriceList, id: String) throws -> [Price] {
        var result: [Price] = []
        func add(_ territory: Territory, _ amountMatch: PathMatch, _ at: PathMatch) throws {
            if result.contains(where: { $0.territory == territory }) { throw error("\(id) is priced twice in \(territory)", at: at) }
            if let money = amount(amountMatch, id: id, territory: territory, field: .prices) {
                result.append(Price(territory: territory, money: money, position: amountMatch.node.position))
            }
        }
        switch found.node.value {
        case .object:
            for (key, entry) in found.members {
                guard let territory = territoryCode(key, id: id, at: entry) else { continue }
                var amountMatch = entry
                if case .object = entry.node.value {
                    guard let path = list.amount, let inner = value(entry, path) else {
                        throw error("the price for \(key) is an object: say where its amount is with prices.amount in \(mapping.file)", at: entry)
                    }
                    amountMatch = inner
                }
                try add(territory, amountMatch, entry)
            }
        case .array:
            guard let territoryPath = list.territory, let amountPath = list.amount else {
                throw error("the prices are a list: say where each entry's territory and amount are with prices.territory and prices.amount in \(mapping.file)", at: found)
            }
            for entry in found.elements {
                guard let territoryMatch = value(entry, territoryPath), let code = territoryMatch.node.scalarText else {
                    issue(.invalidPrice, id, .prices, "this price has no territory at \"\(territoryPath)\"", entry)
                    continue
                }
                guard let amountMatch = value(entry, amountPath) else {
                    issue(.invalidPrice, id, .prices, "this price has no amount at \"\(amountPath)\"", entry)
                    continue
                }
                guard let territory = territoryCode(code, id: id, at: territoryMatch) else { continue }
                try add(territory, amountMatch, entry)
            }
        case .scalar:
            throw error("expected prices (an object keyed by territory, or a list), found \(found.node.kind.article)", at: found)
        }
        return result
    }

    // MARK: - Values

    /// The value at a path, nil when absent or null.
    private func value(_ match: PathMatch, _ path: DocumentPath) -> PathMatch? {
        guard let found = match.first(path), !found.node.isNull else { return nil }
        return found
    }

    private func locate(_ product: inout Product, _ field: Field, _ match: PathMatch) {
        if match.node.position.isKnown { product.fieldPositions[field] = match.node.position }
        product.fieldPaths[field] = match.path
    }

    private func word<Value>(_ match: PathMatch, _ table: [String: Value], _ tableName: String,
                             parse: (String) -> Value?, expected: String) throws -> Value {
        guard let text = match.node.scalarText else { throw error("expected \(expected), found \(match.node.kind.article)", at: match) }
        if let value = table[text] ?? parse(text) { return value }
        let known = table.keys.sorted().joined(separator: ", ")
        throw error("\"\(text)\" is not \(expected) Tally knows: add it to \(tableName) in \(mapping.file)"
                    + (known.isEmpty ? "" : " (it maps: \(known))"), at: match)
    }

    /// A price's territory; nil, with an issue (`invalid-price`), when it is not one: that price is dropped.
    private mutating func territoryCode(_ text: String, id: String, at match: PathMatch) -> Territory? {
        if let territory = mapping.values.territory[text] ?? Territory(text) { return territory }
        issue(.invalidPrice, id, .prices, "\"\(text)\" is not an App Store storefront code (like USA): map it in values.territory in \(mapping.file), e.g. \(text): USA", match)
        return nil
    }

    private mutating func amount(_ match: PathMatch, id: String, territory: Territory, field: Field) -> Money? {
        let text = match.node.scalarText ?? ""
        guard var amount = DecimalText.parse(text) else {
            issue(.invalidPrice, id, field, "price \"\(text)\" in \(territory) \(DecimalText.rejection(text))", match)
            return nil
        }
        if mapping.amounts == .minorUnits {
            guard let digits = territory.currency.map(Self.minorDigits) else {
                issue(.invalidPrice, id, field, "price \(text) is in minor units, but Tally does not know the currency of \(territory)", match)
                return nil
            }
            amount *= Decimal(sign: .plus, exponent: -digits, significand: 1)
        }
        return Money(amount: amount, currency: territory.currency)
    }

    /// Digits after the decimal point in a currency (ISO 4217): 0 for yen, won, Chilean peso, dong.
    static func minorDigits(_ currency: String) -> Int {
        ["JPY", "KRW", "CLP", "VND", "ISK", "UGX", "PYG"].contains(currency) ? 0 : 2
    }

    private mutating func period(_ match: PathMatch, id: String, field: Field) -> Period? {
        let text = match.node.scalarText ?? ""
        if let period = mapping.values.period[text] ?? Period(iso8601: text) { return period }
        issue(.invalidPeriod, id, field, "period \"\(text)\" is neither an ISO 8601 period like P1M nor a spelling in values.period of \(mapping.file)", match)
        return nil
    }

    /// `true`/`false` (also yes/no, 1/0); nil, with an issue, for anything else: the value is dropped.
    private mutating func flag(_ match: PathMatch, id: String) -> Bool? {
        switch match.node.scalarText?.lowercased() {
        case "true", "yes", "1": return true
        case "false", "no", "0": return false
        default:
            issue(.familySharing, id, .familyShareable,
                  "family sharing should be true or false, found \(match.node.scalarText.map { "\"\($0)\"" } ?? match.node.kind.article)", match)
            return nil
        }
    }

    /// A level, a whole number from 1; nil, with an issue, for anything else: the value is dropped.
    private mutating func wholeLevel(_ match: PathMatch, id: String) -> Int? {
        guard let text = match.node.scalarText, let value = Int(text), value >= 1 else {
            issue(.level, id, .level, "level should be a whole number of at least 1, found \(match.node.scalarText.map { "\"\($0)\"" } ?? match.node.kind.article)", match)
            return nil
        }
        return value
    }

    private mutating func issue(_ rule: RuleID, _ id: String, _ field: Field, _ message: String, _ match: PathMatch) {
        issues.append(SourceIssue(rule: rule, productID: id, field: field, message: message, position: match.node.position, path: match.path))
    }

    private func error(_ message: String, at match: PathMatch) -> FormatError {
        FormatError(message, file: file, position: match.node.position, path: match.path)
    }
}
