import TallyModel

/// A `tally-mapping/1` file: how to find Tally's product model in a billing server's own JSON,
/// YAML or property list, so that the server's existing file can be checked as it is.
/// See docs/mapping-format.md.
///
/// ```yaml
/// format: tally-mapping/1
/// default_territory: USA
/// amounts: minor-units
/// products:
///   - at: data.products[*]
///   - at: data.groups[*].plans[*]
///     kind: auto-renewable-subscription
/// fields:
///   id: sku
///   kind: type
///   prices: {at: pricing, territory: country, amount: amount_cents}
///   period: billing_period
///   group: ^.key
///   level: rank
///   introductory_offer: {at: trial, type: kind, period: length, count: cycles}
/// values:
///   kind: {credits: consumable, unlock: non-consumable}
///   period: {monthly: P1M, yearly: P1Y}
///   territory: {US: USA, GB: GBR}
/// ```
public struct TallyMapping: Sendable {
    public static let formatName = "tally-mapping/1"

    /// The mapping file, as the user named it.
    public var file: String
    /// The territory of single prices and of offer prices.
    public var defaultTerritory: Territory
    /// How amounts are written.
    public var amounts: AmountUnit
    /// Where products are; each path's matches are products.
    public var productSources: [ProductSource]
    /// Where each value is inside a product (paths relative to the product).
    public var fields: Fields
    /// The server's spellings of Tally's values.
    public var values: Values

    /// How a file writes amounts of money.
    public enum AmountUnit: String, Sendable, CaseIterable {
        /// "4.99", 4.99.
        case decimal
        /// 499 for 4.99 USD (300 for 300 JPY: currencies without minor units are whole).
        case minorUnits = "minor-units"
    }

    /// One place products are found.
    public struct ProductSource: Sendable {
        public var at: DocumentPath
        /// Where the path is written in the mapping file.
        public var position: Position
        /// The kind of every product found here, unless `fields.kind` gives one.
        public var kind: ProductKind?
    }

    /// Paths, relative to a product, of each value Tally reads. Nil: the server file does not have it.
    public struct Fields: Sendable {
        public var id: DocumentPath
        public var kind: DocumentPath?
        public var name: DocumentPath?
        public var familyShareable: DocumentPath?
        /// One price, in the default territory.
        public var price: DocumentPath?
        /// Prices per territory.
        public var prices: PriceList?
        public var period: DocumentPath?
        public var group: DocumentPath?
        public var level: DocumentPath?
        public var introductoryOffer: OfferFields?
    }

    /// Prices per territory: at `at`, either an object keyed by territory (values are amounts, or
    /// objects holding the amount at `amount`), or a list of objects with `territory` and `amount`.
    public struct PriceList: Sendable {
        public var at: DocumentPath
        public var territory: DocumentPath?
        public var amount: DocumentPath?
    }

    /// The introductory offer: at `at` (an object, absent or null for none), or, without `at`,
    /// in the product itself (absent when `type` is absent).
    public struct OfferFields: Sendable {
        public var at: DocumentPath?
        public var type: DocumentPath
        public var period: DocumentPath
        public var count: DocumentPath?
        public var price: DocumentPath?
    }

    /// Value maps: the server's word → Tally's value. Tally's own words are understood without them.
    public struct Values: Sendable {
        public var kind: [String: ProductKind] = [:]
        public var period: [String: Period] = [:]
        public var offerType: [String: OfferMode] = [:]
        public var territory: [String: Territory] = [:]
    }

    /// The fields a source read through this mapping knows.
    var knownFields: Set<Field> {
        var known: Set<Field> = [.id]
        if fields.kind != nil || productSources.allSatisfy({ $0.kind != nil }) { known.insert(.kind) }
        if fields.name != nil { known.insert(.referenceName) }
        if fields.familyShareable != nil { known.insert(.familyShareable) }
        if fields.price != nil || fields.prices != nil { known.insert(.prices) }
        if fields.period != nil { known.insert(.period) }
        if fields.group != nil { known.formUnion([.group, .level]) }
        if fields.introductoryOffer != nil { known.insert(.introductoryOffer) }
        return known
    }
}
