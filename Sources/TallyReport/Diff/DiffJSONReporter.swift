import Foundation
import TallyDiff
import TallyModel

/// Writes the versioned document described on `DiffJSONReport`: pretty printed, keys sorted,
/// slashes unescaped, every change listed.
public struct DiffJSONReporter: DiffReporter {
    public static let identifier = "json"

    public init() {}

    public func report(_ result: DiffResult) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // The document holds only strings, integers, booleans and nulls, which always encode.
        guard let data = try? encoder.encode(Self.document(for: result)) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The report as values, for callers that want to inspect it rather than print it.
    public static func document(for result: DiffResult) -> DiffJSONReport {
        DiffJSONReport(version: 1, summary: summary(result.summary), diffs: result.diffs.map(record))
    }

    static func record(_ diff: CatalogDiff) -> DiffJSONReport.DiffRecord {
        var changes: [DiffJSONReport.ChangeRecord] = []
        changes.reserveCapacity(diff.summary.changes)
        for change in diff.sourceChanges { changes.append(record(change, diff)) }
        for product in diff.products {
            for change in product.changes { changes.append(record(change, diff)) }
        }
        return DiffJSONReport.DiffRecord(old: source(diff.old), new: source(diff.new), summary: summary(diff.summary), changes: changes)
    }

    static func source(_ source: DiffSource) -> DiffJSONReport.SourceRecord {
        DiffJSONReport.SourceRecord(file: source.file, format: source.format.rawValue, storefront: source.storefront.code,
                                    products: source.productCount, absent: source.absent)
    }

    static func summary(_ summary: DiffSummary) -> DiffJSONReport.Summary {
        DiffJSONReport.Summary(
            added: summary.added, removed: summary.removed, changed: summary.changed, unchanged: summary.unchanged,
            sourceChanges: summary.sourceChanges, changes: summary.changes, priceChanges: summary.priceChanges,
            priceIncreases: summary.priceIncreases, priceDecreases: summary.priceDecreases,
            priceCurrencyChanges: summary.priceCurrencyChanges, pricesAdded: summary.pricesAdded, pricesRemoved: summary.pricesRemoved,
            territoriesWithPriceChanges: summary.territoriesWithPriceChanges, attention: summary.attention,
            attentionReasons: Dictionary(uniqueKeysWithValues: summary.attentionReasons.map { ($0.key.rawValue, $0.value) }))
    }

    static func record(_ change: Change, _ diff: CatalogDiff) -> DiffJSONReport.ChangeRecord {
        DiffJSONReport.ChangeRecord(
            path: change.path, product: change.productID, aspect: change.aspect.rawValue, action: change.action.rawValue,
            territory: change.territory?.code, key: change.key, summary: change.summary, note: change.note,
            attention: change.attention.map(\.rawValue),
            old: diff.oldLocation(change).map { side(change.old, $0) },
            new: diff.newLocation(change).map { side(change.new, $0) },
            price: change.priceChange.map(price))
    }

    static func side(_ value: ChangeValue?, _ location: TallyModel.SourceLocation) -> DiffJSONReport.SideRecord {
        DiffJSONReport.SideRecord(value: value?.text, file: location.file, line: location.line, column: location.column, path: location.path)
    }

    static func price(_ change: PriceChange) -> DiffJSONReport.PriceRecord {
        DiffJSONReport.PriceRecord(
            old: Money.plain(change.old.amount), oldCurrency: change.old.currency,
            new: Money.plain(change.new.amount), newCurrency: change.new.currency,
            difference: change.difference.map { Money.plain($0.amount) }, percent: change.percent.map(Money.plain),
            direction: change.direction.rawValue)
    }
}
