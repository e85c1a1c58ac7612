import TallyDiff

/// Version 1 of the JSON document `tally diff --format json` writes (full reference:
/// docs/diff-json.md). The same content as the text report, every change listed (large price
/// sweeps are never summarised here), for scripts.
///
/// ```json
/// {
///   "diffs" : [ {
///     "changes" : [ {
///       "action" : "changed", "aspect" : "price", "attention" : [ "subscription-price-increase" ],
///       "key" : null, "note" : null, "path" : "com.example.pro.monthly › prices › USA",
///       "new" : { "column" : 24, "file" : "v2/App.storekit", "line" : 42, "path" : null, "value" : "5.99 USD" },
///       "old" : { "column" : 24, "file" : "v1/App.storekit", "line" : 42, "path" : null, "value" : "4.99 USD" },
///       "price" : { "difference" : "1", "direction" : "up", "new" : "5.99", "new_currency" : "USD",
///                   "old" : "4.99", "old_currency" : "USD", "percent" : "20.04" },
///       "product" : "com.example.pro.monthly", "summary" : "4.99 USD → 5.99 USD (+1 USD, +20.04%)", "territory" : "USA"
///     } ],
///     "new" : { "absent" : false, "file" : "v2/App.storekit", "format" : "storekit", "products" : 12, "storefront" : "USA" },
///     "old" : { ... }, "summary" : { ... }
///   } ],
///   "summary" : { "added" : 0, "attention" : 1, ... },
///   "version" : 1
/// }
/// ```
///
/// Every key is always present; a value that does not apply is `null`. Keys may be added within
/// version 1; removing or renaming one bumps `version`.
public struct DiffJSONReport: Sendable, Hashable, Encodable {
    public var version: Int
    /// Counts over every diff.
    public var summary: Summary
    public var diffs: [DiffRecord]

    /// The counts of `DiffSummary`.
    public struct Summary: Sendable, Hashable, Encodable {
        public var added: Int
        public var removed: Int
        public var changed: Int
        public var unchanged: Int
        public var sourceChanges: Int
        public var changes: Int
        public var priceChanges: Int
        public var priceIncreases: Int
        public var priceDecreases: Int
        public var priceCurrencyChanges: Int
        public var pricesAdded: Int
        public var pricesRemoved: Int
        public var territoriesWithPriceChanges: Int
        public var attention: Int
        /// Attention reason → how many changes carry it.
        public var attentionReasons: [String: Int]

        enum CodingKeys: String, CodingKey {
            case added, removed, changed, unchanged, sourceChanges = "source_changes", changes
            case priceChanges = "price_changes", priceIncreases = "price_increases", priceDecreases = "price_decreases"
            case priceCurrencyChanges = "price_currency_changes", pricesAdded = "prices_added", pricesRemoved = "prices_removed"
            case territoriesWithPriceChanges = "territories_with_price_changes", attention, attentionReasons = "attention_reasons"
        }
    }

    /// One pair of files.
    public struct DiffRecord: Sendable, Hashable, Encodable {
        public var old: SourceRecord
        public var new: SourceRecord
        public var summary: Summary
        /// Source-wide changes first, then product by product (sorted by product ID).
        public var changes: [ChangeRecord]
    }

    /// One side's file.
    public struct SourceRecord: Sendable, Hashable, Encodable {
        public var file: String
        public var format: String
        /// The storefront (StoreKit) or default territory (catalogues).
        public var storefront: String
        public var products: Int
        /// The file does not exist on this side.
        public var absent: Bool
    }

    /// One change.
    public struct ChangeRecord: Sendable, Hashable, Encodable {
        public var path: String
        /// nil for source-wide changes.
        public var product: String?
        public var aspect: String
        public var action: String
        public var territory: String?
        public var key: String?
        public var summary: String
        public var note: String?
        public var attention: [String]
        public var old: SideRecord?
        public var new: SideRecord?
        public var price: PriceRecord?

        enum CodingKeys: String, CodingKey {
            case path, product, aspect, action, territory, key, summary, note, attention, old, new, price
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .path)
            try container.encode(product, forKey: .product)
            try container.encode(aspect, forKey: .aspect)
            try container.encode(action, forKey: .action)
            try container.encode(territory, forKey: .territory)
            try container.encode(key, forKey: .key)
            try container.encode(summary, forKey: .summary)
            try container.encode(note, forKey: .note)
            try container.encode(attention, forKey: .attention)
            try container.encode(old, forKey: .old)
            try container.encode(new, forKey: .new)
            try container.encode(price, forKey: .price)
        }
    }

    /// A value and where it was written. `line` and `column` are 1-based.
    public struct SideRecord: Sendable, Hashable, Encodable {
        public var value: String?
        public var file: String
        public var line: Int?
        public var column: Int?
        public var path: String?

        enum CodingKeys: String, CodingKey {
            case value, file, line, column, path
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(value, forKey: .value)
            try container.encode(file, forKey: .file)
            try container.encode(line, forKey: .line)
            try container.encode(column, forKey: .column)
            try container.encode(path, forKey: .path)
        }
    }

    /// A changed price: amounts as exact decimal strings.
    public struct PriceRecord: Sendable, Hashable, Encodable {
        public var old: String
        public var oldCurrency: String?
        public var new: String
        public var newCurrency: String?
        /// New minus old; null across currencies.
        public var difference: String?
        /// Percent of the old price, one decimal place; null across currencies or from zero.
        public var percent: String?
        /// `up`, `down`, `other-currency` or `same`.
        public var direction: String

        enum CodingKeys: String, CodingKey {
            case old, oldCurrency = "old_currency", new, newCurrency = "new_currency", difference, percent, direction
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(old, forKey: .old)
            try container.encode(oldCurrency, forKey: .oldCurrency)
            try container.encode(new, forKey: .new)
            try container.encode(newCurrency, forKey: .newCurrency)
            try container.encode(difference, forKey: .difference)
            try container.encode(percent, forKey: .percent)
            try container.encode(direction, forKey: .direction)
        }
    }
}
