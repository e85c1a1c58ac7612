import Foundation
import TallyModel

/// `tally show --format json` written straight into a `ByteSink`, product by product: the bytes
/// `CatalogDocument(catalog).json()` gives (Foundation's pretty printing: `"key" : value`, two
/// spaces per level, keys sorted by their UTF-8 bytes, empty containers as `[\n\n  ]`), without
/// building the document or a `String` per price. Prices and currencies are made into JSON once
/// per distinct value and territory. `CatalogJSONTests` holds the two to the same bytes.
public struct CatalogJSON {
    private let catalog: Catalog
    private var amounts = DecimalTexts { amount -> [UInt8] in
        var text: [UInt8] = [UInt8(ascii: "\"")]
        text += Money.plain(amount).utf8
        text.append(UInt8(ascii: "\""))
        return text
    }
    /// `"USA" : ` by `Territory.slot`.
    private var keys = [[UInt8]?](repeating: nil, count: 26 * 26 * 26)
    /// The last currency seen in each territory, as text and as JSON.
    private var currencies = [(text: String, json: [UInt8])?](repeating: nil, count: 26 * 26 * 26)
    private var order: [(territory: Territory, index: Int)] = []

    public init(_ catalog: Catalog) {
        self.catalog = catalog
    }

    /// Writes the document and a final newline, handing pieces to the sink between products.
    public static func write(_ catalog: Catalog, to sink: inout ByteSink) {
        var writer = CatalogJSON(catalog)
        writer.write(to: &sink)
    }

    public mutating func write(to sink: inout ByteSink) {
        sink.append("{\n")
        if let code = catalog.code {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let text = (try? encoder.encode(CatalogDocument.CodeDocument(catalog, code))).map { String(decoding: $0, as: UTF8.self) } ?? "null"
            sink.append("  \"code\" : ")
            sink.append(utf8: text.replacingOccurrences(of: "\n", with: "\n  "))
            sink.append(",\n")
        }
        sink.append("  \"default_territory\" : ")
        Self.string(catalog.defaultTerritory.code, to: &sink)
        sink.append(",\n  \"file\" : ")
        Self.string(catalog.file, to: &sink)
        sink.append(",\n  \"format\" : ")
        Self.string(catalog.format.rawValue, to: &sink)
        sink.append(",\n  \"groups\" : ")
        Self.array(catalog.groups, indent: 1, to: &sink) { group, sink in
            sink.append("{\n      \"id\" : ")
            Self.string(group.id, to: &sink)
            if let name = group.name {
                sink.append(",\n      \"name\" : ")
                Self.string(name, to: &sink)
            }
            sink.append(",\n      \"products\" : ")
            Self.array(group.productIDs, indent: 3, to: &sink) { id, sink in Self.string(id, to: &sink) }
            sink.append("\n    }")
        }
        sink.append(",\n  \"known_fields\" : ")
        Self.array(Field.allCases.filter { catalog.knownFields.contains($0) }, indent: 1, to: &sink) { field, sink in
            Self.string(field.rawValue, to: &sink)
        }
        sink.append(",\n  \"products\" : ")
        if catalog.products.isEmpty {
            sink.append("[\n\n  ]")
        } else {
            sink.append("[\n")
            for (index, product) in catalog.products.enumerated() {
                guard sink.isOpen else { return }
                if index > 0 { sink.append(",\n") }
                sink.append("    ")
                self.product(product, to: &sink)
                sink.flushIfFull()
            }
            sink.append("\n  ]")
        }
        sink.append(",\n  \"version\" : 1\n}\n")
    }

    /// One product at indent 2 (its keys at 3), keys in sorted order.
    private mutating func product(_ product: Product, to sink: inout ByteSink) {
        let prices = sorted(product.prices)
        sink.append("{\n")
        // Rarer values (a snapshot's availability, billing plans, offer codes) as the document
        // encodes them: the same bytes, indented where they stand.
        if let availability = product.availability {
            Self.nested("availability", availability.territories.map(\.code), to: &sink)
        }
        if !product.billingPlans.isEmpty {
            Self.nested("billing_plans", product.billingPlans.map(CatalogDocument.plan), to: &sink)
        }
        if !product.codeOffers.isEmpty {
            Self.nested("code_offers", product.codeOffers.map(CatalogDocument.offer), to: &sink)
        }
        sink.append("      \"currencies\" : ")
        map(prices, indent: 3, to: &sink) { price, writer, sink in
            guard let currency = price.money.currency else { return false }
            writer.currency(currency, in: price.territory, to: &sink)
            return true
        }
        if let shareable = product.familyShareable {
            sink.append(",\n      \"family_shareable\" : ")
            sink.append(shareable ? "true" : "false")
        }
        let location = catalog.location(product.position)
        if !catalog.parts.isEmpty {
            sink.append(",\n      \"file\" : ")
            Self.string(location.file, to: &sink)
        }
        // Its IDs in other stores (`google_play`), and whether it is sold in one alone.
        for store in Store.allCases {
            guard let key = store.catalogueKey else { continue }
            if let other = product.storeIDs[store], other != product.id {
                sink.append(utf8: ",\n      \"\(key)\" : ")
                Self.string(other, to: &sink)
            }
            if product.isSoldOnly(in: store) {
                sink.append(utf8: ",\n      \"\(key)_only\" : true")
            }
        }
        if let group = product.group {
            sink.append(",\n      \"group\" : ")
            Self.string(group.groupID, to: &sink)
            if let name = group.groupName {
                sink.append(",\n      \"group_name\" : ")
                Self.string(name, to: &sink)
            }
        }
        sink.append(",\n      \"id\" : ")
        Self.string(product.id, to: &sink)
        if let offer = product.introductoryOffer {
            sink.append(",\n      \"introductory_offer\" : ")
            self.offer(offer, indent: 3, to: &sink)
        }
        if let kind = catalog.statedKind(of: product) {
            sink.append(",\n      \"kind\" : ")
            Self.string(kind.rawValue, to: &sink)
        }
        if let level = product.group?.level {
            sink.append(",\n      \"level\" : ")
            sink.append(integer: level)
        }
        if let line = location.line {
            sink.append(",\n      \"line\" : ")
            sink.append(integer: line)
        }
        if let localizations = CatalogDocument.localizations(product) {
            sink.append(",\n")
            Self.nested("localizations", localizations, comma: false, to: &sink)
        }
        if let markets = product.marketSettings {
            sink.append(",\n      \"market_settings\" : ")
            Self.array(markets.map(\.rawValue), indent: 3, to: &sink) { market, sink in Self.string(market, to: &sink) }
        }
        if product.kind.includesSubscriptions {
            sink.append(",\n      \"members\" : ")
            Self.array(product.members, indent: 3, to: &sink) { id, sink in Self.string(id, to: &sink) }
        }
        if let status = product.multiSeatStatus {
            sink.append(",\n      \"multi_seat\" : ")
            Self.string(status.rawValue, to: &sink)
        }
        if !product.oneTimeOffers.isEmpty {
            sink.append(",\n")
            Self.nested("one_time_offers", product.oneTimeOffers.map(CatalogDocument.oneTimeOffer), comma: false, to: &sink)
        }
        if !product.otherIntroductoryOffers.isEmpty {
            sink.append(",\n")
            Self.nested("other_introductory_offers", product.otherIntroductoryOffers.map(CatalogDocument.offer), comma: false, to: &sink)
        }
        if let period = product.period {
            sink.append(",\n      \"period\" : ")
            Self.string(period.canonical, to: &sink)
        }
        if prices.contains(where: { $0.origin != nil }) {
            sink.append(",\n      \"price_origins\" : ")
            map(prices, indent: 3, to: &sink) { price, writer, sink in
                guard let origin = price.origin else { return false }
                writer.key(price.territory, to: &sink)
                Self.string(origin.rawValue, to: &sink)
                return true
            }
        }
        if let tier = product.priceTier {
            sink.append(",\n      \"price_tier\" : ")
            sink.append(integer: tier)
        }
        sink.append(",\n      \"prices\" : ")
        map(prices, indent: 3, to: &sink) { price, writer, sink in
            writer.key(price.territory, to: &sink)
            sink.append(writer.amounts.text(price.money.amount))
            return true
        }
        sink.append(",\n      \"promotional_offers\" : ")
        if product.promotionalOffers.isEmpty {
            sink.append("[\n\n      ]")
        } else {
            sink.append("[\n")
            for (index, offer) in product.promotionalOffers.enumerated() {
                if index > 0 { sink.append(",\n") }
                sink.append("        ")
                self.offer(offer, indent: 4, to: &sink)
            }
            sink.append("\n      ]")
        }
        if let name = product.referenceName {
            sink.append(",\n      \"reference_name\" : ")
            Self.string(name, to: &sink)
        }
        if !product.seatTiers.isEmpty {
            sink.append(",\n      \"seat_tiers\" : [\n")
            for (index, tier) in product.seatTiers.enumerated() {
                if index > 0 { sink.append(",\n") }
                seatTier(tier, to: &sink)
            }
            sink.append("\n      ]")
        }
        if let state = product.storeState {
            sink.append(",\n      \"state\" : ")
            Self.string(state, to: &sink)
        }
        if !product.winbackOffers.isEmpty {
            sink.append(",\n")
            Self.nested("winback_offers", product.winbackOffers.map(CatalogDocument.offer), comma: false, to: &sink)
        }
        sink.append("\n    }")
    }

    /// `"key" : value` at a product's key level (6 spaces), the value pretty-printed as
    /// `CatalogDocument.json()` prints it (sorted keys, no escaped slashes), then `,\n` unless
    /// `comma` is false.
    static func nested(_ key: String, _ value: some Encodable, comma: Bool = true, to sink: inout ByteSink) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let text = (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
        sink.append("      ")
        string(key, to: &sink)
        sink.append(" : ")
        sink.append(utf8: text.replacingOccurrences(of: "\n", with: "\n      "))
        if comma { sink.append(",\n") }
    }

    /// A seat tier at indent 4 (its keys at 5), keys in sorted order: `max_seats` (left out for
    /// the open-ended last tier), `min_seats`, `plan` where stated, `prices` per seat.
    private mutating func seatTier(_ tier: SeatTier, to sink: inout ByteSink) {
        sink.append("        {\n")
        if let maximum = tier.maximumSeats {
            sink.append("          \"max_seats\" : ")
            sink.append(integer: maximum)
            sink.append(",\n")
        }
        sink.append("          \"min_seats\" : ")
        sink.append(integer: tier.minimumSeats)
        if let plan = tier.billingPlan {
            sink.append(",\n          \"plan\" : ")
            Self.string(plan.rawValue, to: &sink)
        }
        sink.append(",\n          \"prices\" : ")
        map(sorted(tier.prices), indent: 5, to: &sink) { price, writer, sink in
            writer.key(price.territory, to: &sink)
            sink.append(writer.amounts.text(price.money.amount))
            return true
        }
        sink.append("\n        }")
    }

    /// An offer at `indent` (its keys one level deeper).
    private mutating func offer(_ offer: Offer, indent: Int, to sink: inout ByteSink) {
        let pad = 2 * (indent + 1)
        func key(_ name: StaticString, first: Bool = false) {
            sink.append(first ? "{\n" : ",\n")
            sink.pad(pad)
            sink.append(name)
        }
        let regional = offer.regionalPrices.isEmpty ? nil : sorted(offer.regionalPrices)
        if let regional {
            key("\"currencies\" : ", first: true)
            map(regional, indent: indent + 1, to: &sink) { price, writer, sink in
                guard let currency = price.money.currency else { return false }
                writer.currency(currency, in: price.territory, to: &sink)
                return true
            }
        }
        if let id = offer.id {
            key("\"id\" : ", first: regional == nil)
            Self.string(id, to: &sink)
        }
        key("\"mode\" : ", first: regional == nil && offer.id == nil)
        Self.string(offer.mode.rawValue, to: &sink)
        key("\"period\" : ")
        Self.string(offer.period.canonical, to: &sink)
        key("\"periods\" : ")
        sink.append(integer: offer.periods)
        if let price = offer.price {
            key("\"price\" : ")
            sink.append(amounts.text(price.amount))
        }
        if let regional {
            key("\"prices\" : ")
            map(regional, indent: indent + 1, to: &sink) { price, writer, sink in
                writer.key(price.territory, to: &sink)
                sink.append(writer.amounts.text(price.money.amount))
                return true
            }
        }
        sink.append("\n")
        sink.pad(2 * indent)
        sink.append("}")
    }

    /// A dictionary by territory, as `JSONEncoder` writes one: each territory once, with the
    /// last value the source gave it (`entry` writes `"KEY" : value` or returns false to leave the
    /// territory out), in the order of the codes' bytes.
    private mutating func map(_ prices: [SortedPrice], indent: Int, to sink: inout ByteSink,
                              entry: (SortedPrice, inout CatalogJSON, inout ByteSink) -> Bool) {
        let mark = sink.count
        sink.append("{\n")
        var any = false
        for price in prices {
            let before = sink.count
            if any { sink.append(",\n") }
            sink.pad(2 * (indent + 1))
            if entry(price, &self, &sink) {
                any = true
            } else {
                sink.removeAll(after: before)
            }
        }
        if !any {
            sink.removeAll(after: mark)
            sink.append("{\n\n")
            sink.pad(2 * indent)
            sink.append("}")
            return
        }
        sink.append("\n")
        sink.pad(2 * indent)
        sink.append("}")
    }

    /// One territory's entry of the three dictionaries: its last price, and the last currency and
    /// origin any of its prices gave (as `dictionary[code] = value` in source order leaves them).
    struct SortedPrice {
        var territory: Territory
        var money: Money
        var origin: PriceOrigin?
    }

    private mutating func sorted(_ prices: [Price]) -> [SortedPrice] {
        order.removeAll(keepingCapacity: true)
        for (index, price) in prices.enumerated() { order.append((price.territory, index)) }
        order.sort { $0.territory != $1.territory ? $0.territory < $1.territory : $0.index < $1.index }
        var result: [SortedPrice] = []
        result.reserveCapacity(order.count)
        for (territory, index) in order {
            let price = prices[index]
            if let last = result.last, last.territory == territory {
                // A territory given twice: the later price, and the later currency and origin where it has them.
                var money = price.money
                if money.currency == nil { money.currency = last.money.currency }
                result[result.count - 1] = SortedPrice(territory: territory, money: money, origin: price.origin ?? last.origin)
            } else {
                result.append(SortedPrice(territory: territory, money: price.money, origin: price.origin))
            }
        }
        return result
    }

    /// `"USA" : `.
    private mutating func key(_ territory: Territory, to sink: inout ByteSink) {
        let slot = territory.slot
        if let key = keys[slot] {
            sink.append(key)
            return
        }
        let key = Array("\"\(territory.code)\" : ".utf8)
        keys[slot] = key
        sink.append(key)
    }

    /// `"USA" : "USD"`.
    private mutating func currency(_ currency: String, in territory: Territory, to sink: inout ByteSink) {
        key(territory, to: &sink)
        let slot = territory.slot
        if let last = currencies[slot], last.text == currency {
            sink.append(last.json)
            return
        }
        var json = ByteSink()
        Self.string(currency, to: &json)
        currencies[slot] = (currency, json.bytes)
        sink.append(json.bytes)
    }

    /// `[` elements `]` at `indent`, each on its own line one level deeper.
    private static func array<Element>(_ elements: [Element], indent: Int, to sink: inout ByteSink,
                                       element: (Element, inout ByteSink) -> Void) {
        guard !elements.isEmpty else {
            sink.append("[\n\n")
            sink.pad(2 * indent)
            sink.append("]")
            return
        }
        sink.append("[\n")
        for (index, value) in elements.enumerated() {
            if index > 0 { sink.append(",\n") }
            sink.pad(2 * (indent + 1))
            element(value, &sink)
        }
        sink.append("\n")
        sink.pad(2 * indent)
        sink.append("]")
    }

    /// A JSON string as Foundation's encoder writes it: `"` and `\` escaped, `\b \f \n \r \t`,
    /// other control characters as `\u00XX`, `/` and everything else as it is.
    static func string(_ string: String, to sink: inout ByteSink) {
        sink.appendJSONString(string, shortFormFeeds: true)
    }
}
