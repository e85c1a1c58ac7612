import TallyCheck
import TallyModel

/// Version 1 of Tally's JSON report: the document `JSONReporter` writes.
///
/// ```json
/// {
///   "comparisons" : [ "configs/App.storekit (storefront USA) vs catalog/products.yaml: ..." ],
///   "pairs" : [ { "catalog" : "catalog/products.yaml", "compared" : [ "kind", "prices" ], "configuration" : "configs/App.storekit",
///                 "shared_products" : 14, "skipped" : [ { "field" : "period", "missing_in" : [ "catalog/products.yaml" ],
///                 "reason" : "the tally-catalog/1 file has no periods" } ], "territory" : "USA" } ],
///   "findings" : [ {
///     "catalog" : { "amount" : "5.99", "column" : 14, "currency" : "USD", "file" : "catalog/products.yaml", "line" : 18,
///                   "path" : null, "period" : null, "store" : null, "value" : "5.99 USD" },
///     "configuration" : { "amount" : "4.99", "column" : 7, "currency" : "USD", "file" : "configs/App.storekit", "line" : 42,
///                         "path" : null, "period" : null, "store" : null, "value" : "4.99 USD" },
///     "field" : "prices", "hint" : null, "message" : "...", "offer" : null, "product" : "com.example.pro.monthly",
///     "rule" : "price", "severity" : "error", "source" : null, "territory" : "USA"
///   } ],
///   "summary" : { "errors" : 1, "notes" : 0, "products_checked" : 14, "sources" : [ "configs/App.storekit", "catalog/products.yaml" ], "warnings" : 0 },
///   "version" : 1
/// }
/// ```
///
/// Every key is always present: a value that does not apply is written as `null`, never left
/// out, so consumers can rely on the shape. Cross-source findings fill `configuration` and
/// `catalog`; lint findings fill `source`. A side's `value` is the value in words; a money value
/// also gives `amount` (exact, in the currency's minor units) and `currency`, a period `period`
/// (ISO 8601), a list of territories `territories` (storefront codes). `message_parts` is the
/// message as words and typed values (`MessagePart`). Findings keep the result's order. Keys may be added
/// within version 1; removing or renaming one bumps `version`.
public struct JSONReport: Sendable, Hashable, Codable {
    /// The format version, currently 1.
    public var version: Int
    public var summary: Summary
    /// What was compared for each pair of sources, in words.
    public var comparisons: [String]
    /// The same per pair of sources, as values: the fields compared and those skipped, with why.
    public var pairs: [PairRecord]
    public var findings: [FindingRecord]
    /// What the run said besides its findings (`Diagnostic`: values a reader could not take,
    /// warnings about the policy, notes on what was left out), in order. Absent in a report
    /// written by a Tally without it.
    public var diagnostics: [DiagnosticRecord]? = nil
    /// What the run compared and what it did not, with why (docs/reports.md, "Coverage"):
    /// `products` + `code_requests` count every product of every source and every request of a
    /// code source; `compared` + `not_compared` of each add up to it. Absent in a report written
    /// by a Tally without it.
    public var coverage: CoverageReport? = nil

    /// `{"sources": 2, "products": {"total": 15, "compared": 14, "not_compared": 1},
    /// "code_requests": {…}, "complete": false, "not_compared": [{"source": …, "product": …,
    /// "kind": "product", "reason": "only-in-this-source", "detail": null, "line": 12}],
    /// "by_reason": {"only-in-this-source": 1}}`.
    public struct CoverageReport: Sendable, Hashable, Codable {
        public struct Count: Sendable, Hashable, Codable {
            public var total: Int
            public var compared: Int
            public var notCompared: Int

            enum CodingKeys: String, CodingKey {
                case total, compared, notCompared = "not_compared"
            }
        }

        public struct Item: Sendable, Hashable, Codable {
            public var source: String
            public var product: String?
            public var kind: String
            public var reason: String
            public var detail: String?
            public var line: Int?

            public func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(source, forKey: .source)
                try container.encode(product, forKey: .product)
                try container.encode(kind, forKey: .kind)
                try container.encode(reason, forKey: .reason)
                try container.encode(detail, forKey: .detail)
                try container.encode(line, forKey: .line)
            }
        }

        public var sources: Int
        public var products: Count
        public var codeRequests: Count
        /// Whether every product and code request was compared.
        public var complete: Bool
        /// Whether anything at all was compared across sources.
        public var comparedAnything: Bool
        public var byReason: [String: Int]
        public var notCompared: [Item]

        enum CodingKeys: String, CodingKey {
            case sources, products, complete, codeRequests = "code_requests", comparedAnything = "compared_anything",
                 byReason = "by_reason", notCompared = "not_compared"
        }

        public init(_ coverage: Coverage) {
            sources = coverage.sources
            products = Count(total: coverage.products, compared: coverage.productsCompared, notCompared: coverage.products - coverage.productsCompared)
            codeRequests = Count(total: coverage.codeRequests, compared: coverage.codeRequestsCompared,
                                 notCompared: coverage.codeRequests - coverage.codeRequestsCompared)
            complete = coverage.notCompared.isEmpty
            comparedAnything = coverage.comparedAnything
            byReason = Dictionary(uniqueKeysWithValues: coverage.byReason.map { ($0.key.rawValue, $0.value) })
            notCompared = coverage.notCompared.map {
                Item(source: $0.source, product: $0.product, kind: $0.kind, reason: $0.reason.rawValue, detail: $0.detail, line: $0.line)
            }
        }
    }

    /// One diagnostic: `{"severity": "warning", "message": "…", "file": "App.storekit", "line": 12,
    /// "column": 7, "path": null, "remedy": "raiseInputLimit"}`; `file` is null for the run itself.
    public struct DiagnosticRecord: Sendable, Hashable, Codable {
        public var severity: String
        public var message: String
        public var file: String?
        public var line: Int?
        public var column: Int?
        public var path: String?
        /// A `Remedy` case: what would help, named without a command-line flag.
        public var remedy: String?

        public init(_ diagnostic: Diagnostic) {
            severity = diagnostic.severity.rawValue
            message = diagnostic.message
            file = diagnostic.location?.file
            line = diagnostic.location?.line
            column = diagnostic.location?.column
            path = diagnostic.path ?? diagnostic.location?.path
            remedy = diagnostic.remedy?.rawValue
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(severity, forKey: .severity)
            try container.encode(message, forKey: .message)
            try container.encode(file, forKey: .file)
            try container.encode(line, forKey: .line)
            try container.encode(column, forKey: .column)
            try container.encode(path, forKey: .path)
            try container.encode(remedy, forKey: .remedy)
        }
    }

    /// One comparison of a configuration with a catalogue.
    public struct PairRecord: Sendable, Hashable, Codable {
        public var configuration: String
        public var catalog: String
        /// The storefront whose prices were compared.
        public var territory: String
        public var sharedProducts: Int
        /// Field names (`kind`, `prices`, ...) both sources know, compared.
        public var compared: [String]
        public var skipped: [SkippedRecord]
        /// Per field both sources know: for how many products it was compared, and how many
        /// each side does not state it for. Absent when the run has no counts.
        public var coverage: [CoverageRecord]? = nil

        enum CodingKeys: String, CodingKey {
            case configuration, catalog, territory, compared, skipped, coverage, sharedProducts = "shared_products"
        }
    }

    /// One field's coverage in a pair: `{"field": "promotional-offers", "compared": 4, "of": 8,
    /// "unstated_in_configuration": 0, "unstated_in_catalog": 4}`.
    public struct CoverageRecord: Sendable, Hashable, Codable {
        public var field: String
        public var compared: Int
        /// The products the field applies to (subscriptions for subscription fields).
        public var of: Int
        public var unstatedInConfiguration: Int
        public var unstatedInCatalog: Int

        enum CodingKeys: String, CodingKey {
            case field, compared, of, unstatedInConfiguration = "unstated_in_configuration", unstatedInCatalog = "unstated_in_catalog"
        }
    }

    /// A field one source (or both) does not know, so it was not compared.
    public struct SkippedRecord: Sendable, Hashable, Codable {
        public var field: String
        /// "the property list has no prices".
        public var reason: String
        /// The files that lack the field.
        public var missingIn: [String]

        enum CodingKeys: String, CodingKey {
            case field, reason, missingIn = "missing_in"
        }
    }

    /// Counts over the whole run.
    public struct Summary: Sendable, Hashable, Codable {
        public var errors: Int
        public var warnings: Int
        public var notes: Int
        /// Distinct products any rule examined.
        public var productsChecked: Int
        /// The files read, in the order given.
        public var sources: [String]

        enum CodingKeys: String, CodingKey {
            case errors, warnings, notes, productsChecked = "products_checked", sources
        }
    }

    /// One finding.
    public struct FindingRecord: Sendable, Hashable, Codable {
        public var rule: String
        public var severity: Severity
        public var product: String?
        /// A storefront code such as `USA`.
        public var territory: String?
        public var offer: String?
        public var field: String
        public var message: String
        /// The message as words and typed values, in order: `message` is their texts joined.
        /// Absent when the report was written by a Tally without it.
        public var messageParts: [MessagePart]? = nil
        public var hint: String?
        public var configuration: SideRecord?
        public var catalog: SideRecord?
        /// The only side of a lint finding.
        public var source: SideRecord?

        enum CodingKeys: String, CodingKey {
            case rule, severity, product, territory, offer, field, message, messageParts = "message_parts", hint, configuration, catalog, source
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(rule, forKey: .rule)
            try container.encode(severity, forKey: .severity)
            try container.encode(product, forKey: .product)
            try container.encode(territory, forKey: .territory)
            try container.encode(offer, forKey: .offer)
            try container.encode(field, forKey: .field)
            try container.encode(message, forKey: .message)
            try container.encodeIfPresent(messageParts, forKey: .messageParts)
            try container.encode(hint, forKey: .hint)
            try container.encode(configuration, forKey: .configuration)
            try container.encode(catalog, forKey: .catalog)
            try container.encode(source, forKey: .source)
        }
    }

    /// One part of a finding's message: `{"kind": "text", "text": " costs "}` or a value,
    /// `{"kind": "money", "text": "10.90 BRL", "amount": "10.90", "currency": "BRL"}`. Every part has
    /// `kind` (`text`, `product`, `money`, `period`, `duration`, `territory`, `territories`,
    /// `source`, `count`, `name`, `offer`) and `text` (as the message shows it); a money part adds
    /// `amount` and `currency`, a period or a duration (`1 month`) `period` (ISO 8601), a territory
    /// or territories `territories` (storefront codes), a count `count`, an offer its `period`,
    /// `count` (periods), `amount` and `currency`.
    public struct MessagePart: Sendable, Hashable, Codable {
        public var kind: String
        public var text: String
        public var amount: String?
        public var currency: String?
        public var period: String?
        public var territories: [String]?
        public var count: Int?

        public init(_ part: FindingMessage.Part) {
            switch part {
            case .text(let words):
                kind = "text"
                text = words
            case .value(let argument):
                kind = argument.kind
                text = MessageText.words(argument)
                switch argument {
                case .money(let money):
                    amount = MachineText.amount(money)
                    currency = money.currency
                case .period(let value), .duration(let value, _): period = MachineText.period(value)
                case .territory(let territory): territories = [territory.code]
                case .territories(let list): territories = list.map(\.code)
                case .count(let value): count = value
                case .offer(let offer):
                    period = MachineText.period(offer.period)
                    count = offer.periods
                    if let price = offer.price {
                        amount = MachineText.amount(price)
                        currency = price.currency
                    }
                case .product, .source, .name: break
                }
            }
        }
    }

    /// What one source says, and where. `line` and `column` are 1-based; `path` is a key path
    /// for sources without line numbers (property lists).
    public struct SideRecord: Sendable, Hashable, Codable {
        /// The value in words, as text reports show it ("10.90 BRL").
        public var value: String?
        /// A money value's parts: the exact amount (in the currency's minor units, "10.90") and
        /// the ISO 4217 currency; absent for other values.
        public var amount: String?
        public var currency: String?
        /// A period value as ISO 8601 ("P1M"); absent for other values.
        public var period: String?
        /// A list of territories as storefront codes (`["DEU", "GBR"]`: where an
        /// `unpriced-territory` product has no price); absent for other values.
        public var territories: [String]?
        /// The store the side stands for when two stores' sources are compared ("google-play").
        public var store: String?
        /// The side's own kind, `configuration` or `catalog`, on a finding between two sources:
        /// when both are of one kind (two `.storekit` files), the `configuration` key holds the
        /// first side and the `catalog` key the second, and `role` says what each really is.
        public var role: String?
        public var file: String
        public var line: Int?
        public var column: Int?
        public var path: String?

        enum CodingKeys: String, CodingKey {
            case value, amount, currency, period, territories, store, role, file, line, column, path
        }

        public init(value: FindingValue?, store: String?, file: String, line: Int?, column: Int?, path: String?) {
            self.value = value.map { MessageText.words($0) }
            if case .money(let money)? = value {
                amount = MachineText.amount(money)
                currency = money.currency
            }
            if case .period(let value)? = value { period = MachineText.period(value) }
            if case .territories(let list)? = value { territories = list.map(\.code) }
            if case .offer(let offer)? = value {
                period = MachineText.period(offer.period)
                if let price = offer.price {
                    amount = MachineText.amount(price)
                    currency = price.currency
                }
            }
            self.store = store
            self.file = file
            self.line = line
            self.column = column
            self.path = path
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(value, forKey: .value)
            try container.encode(amount, forKey: .amount)
            try container.encode(currency, forKey: .currency)
            try container.encode(period, forKey: .period)
            try container.encode(territories, forKey: .territories)
            try container.encode(store, forKey: .store)
            try container.encodeIfPresent(role, forKey: .role)
            try container.encode(file, forKey: .file)
            try container.encode(line, forKey: .line)
            try container.encode(column, forKey: .column)
            try container.encode(path, forKey: .path)
        }
    }
}
