import Foundation
import TallyDiff
import TallyModel

/// Version 1 of the JSON document `tally diff --format json` writes; the full reference is
/// docs/diff-json.md. The same content as the text report with every change listed (sweeps are
/// never summarised), keys sorted, one change per line so that even millions of changes stay
/// quick to write and easy to stream through `jq`.
///
/// ```json
/// {
///   "diffs": [
///     {
///       "changes": [
///         {"action": "changed", "aspect": "price", "attention": ["subscription-price-increase"], "key": null,
///          "new": {"column": 24, "file": "v2/App.storekit", "line": 42, "path": null, "value": "5.99 USD"}, "note": null,
///          "old": {"column": 24, "file": "v1/App.storekit", "line": 42, "path": null, "value": "4.99 USD"},
///          "path": "com.example.pro.monthly › prices › USA",
///          "price": {"difference": "1", "direction": "up", "new": "5.99", "new_currency": "USD", "old": "4.99", "old_currency": "USD", "percent": "20"},
///          "product": "com.example.pro.monthly", "summary": "4.99 USD → 5.99 USD (+1 USD, +20%)", "territory": "USA"}
///       ],
///       "new": {"absent": false, "file": "v2/App.storekit", "format": "storekit", "products": 12, "storefront": "USA"},
///       "old": {...}, "summary": {...}
///     }
///   ],
///   "summary": {"added": 0, "attention": 1, ...},
///   "version": 1
/// }
/// ```
///
/// Every key is always present; a value that does not apply is `null`. Keys may be added within
/// version 1; removing or renaming one bumps `version`.
public struct DiffJSONReporter: DiffReporter {
    public static let identifier = "json"

    public init() {}

    public func report(_ result: DiffResult) -> String {
        var text = ""
        write(result, to: &text)
        return text
    }

    public func write<Output: TextOutputStream>(_ result: DiffResult, to output: inout Output) {
        var json = JSONWriter(capacity: 1 << 17)
        json.raw("{\n  \"diffs\": [")
        for (index, diff) in result.diffs.enumerated() {
            json.raw(index == 0 ? "\n    {\n      \"changes\": [" : ",\n    {\n      \"changes\": [")
            var first = true
            // Changed prices, nearly all of a large diff, from texts made once per value.
            var prices = PriceChangeJSON(diff)
            func add(_ change: Change) {
                json.raw(first ? "\n        " : ",\n        ")
                first = false
                if !prices.write(change, &json) { Self.write(change, diff, &json) }
                json.flush(into: &output)
            }
            for change in diff.sourceChanges { add(change) }
            for product in diff.products {
                for change in product.changes { add(change) }
            }
            json.raw(first ? "],\n" : "\n      ],\n")
            json.raw("      \"new\": ")
            Self.write(diff.new, &json)
            json.raw(",\n      \"old\": ")
            Self.write(diff.old, &json)
            json.raw(",\n      \"summary\": ")
            Self.write(diff.summary, &json)
            json.raw("\n    }")
        }
        json.raw(result.diffs.isEmpty ? "],\n  \"summary\": " : "\n  ],\n  \"summary\": ")
        Self.write(result.summary, &json)
        // The counts per role: configurations and catalogues are never added together.
        json.raw(",\n  \"totals\": [")
        for (index, total) in result.totals.enumerated() {
            json.raw(index == 0 ? "\n    {\"diffs\": " : ",\n    {\"diffs\": ")
            json.int(total.diffs)
            json.raw(", \"role\": ")
            json.string(total.role.rawValue)
            json.raw(", \"summary\": ")
            Self.write(total.summary, &json)
            json.raw("}")
        }
        json.raw(result.totals.isEmpty ? "]" : "\n  ]")
        json.raw(",\n  \"version\": 1\n}")
        output.write(json.text)
    }

    static func write(_ change: Change, _ diff: CatalogDiff, _ json: inout JSONWriter) {
        json.raw("{")
        json.key("action", first: true)
        json.string(change.action.rawValue)
        json.key("aspect")
        json.string(change.aspect.rawValue)
        json.key("attention")
        json.strings(change.attention.map(\.rawValue))
        json.key("key")
        json.string(change.key)
        json.key("new")
        side(change.new, diff.newLocation(change), &json)
        json.key("note")
        json.string(change.noteText)
        json.key("old")
        side(change.old, diff.oldLocation(change), &json)
        json.key("path")
        json.string(change.path)
        json.key("price")
        if let price = change.priceChange { write(price, direction: change.priceDirection, &json) } else { json.raw("null") }
        json.key("product")
        json.string(change.productID)
        json.key("summary")
        json.string(change.summary)
        json.key("territory")
        json.string(change.territory?.code)
        json.raw("}")
    }

    private static func side(_ value: ChangeValue?, _ location: TallyModel.SourceLocation?, _ json: inout JSONWriter) {
        guard let location else { return json.raw("null") }
        json.raw("{")
        json.key("column", first: true)
        json.int(location.column)
        json.key("file")
        json.string(location.file)
        json.key("line")
        json.int(location.line)
        json.key("path")
        json.string(location.path)
        json.key("value")
        json.string(value?.text)
        json.raw("}")
    }

    private static func write(_ price: PriceChange, direction: PriceChange.Direction?, _ json: inout JSONWriter) {
        json.raw("{")
        json.key("difference", first: true)
        json.string(price.difference.map { DecimalFormat.plain($0.amount) })
        json.key("direction")
        json.string((direction ?? price.direction).rawValue)
        json.key("new")
        json.string(DecimalFormat.plain(price.new.amount))
        json.key("new_currency")
        json.string(price.new.currency)
        json.key("old")
        json.string(DecimalFormat.plain(price.old.amount))
        json.key("old_currency")
        json.string(price.old.currency)
        json.key("percent")
        json.string(price.percent.map(DecimalFormat.plain))
        json.raw("}")
    }

    private static func write(_ source: DiffSource, _ json: inout JSONWriter) {
        json.raw("{")
        json.key("absent", first: true)
        json.bool(source.absent)
        json.key("file")
        json.string(source.file)
        json.key("format")
        json.string(source.format.rawValue)
        json.key("products")
        json.int(source.productCount)
        json.key("storefront")
        json.string(source.storefront.code)
        json.raw("}")
    }

    private static func write(_ summary: DiffSummary, _ json: inout JSONWriter) {
        let counts: [(String, Int)] = [
            ("added", summary.added), ("attention", summary.attention), ("changed", summary.changed), ("changes", summary.changes),
            ("price_changes", summary.priceChanges), ("price_currency_changes", summary.priceCurrencyChanges),
            ("price_decreases", summary.priceDecreases), ("price_increases", summary.priceIncreases),
            ("prices_added", summary.pricesAdded), ("prices_removed", summary.pricesRemoved), ("removed", summary.removed),
            ("source_changes", summary.sourceChanges), ("territories_with_price_changes", summary.territoriesWithPriceChanges),
            ("unchanged", summary.unchanged),
        ]
        json.raw("{")
        for (index, (name, value)) in counts.enumerated() {
            json.key(name, first: index == 0)
            json.int(value)
            if name == "attention" {
                json.key("attention_reasons")
                json.raw("{")
                for (position, reason) in Attention.allCases.sorted(by: { $0.rawValue < $1.rawValue }).enumerated() {
                    json.key(reason.rawValue, first: position == 0)
                    json.int(summary.attentionReasons[reason] ?? 0)
                }
                json.raw("}")
            }
        }
        json.raw("}")
    }
}
