import Foundation
import TallyCheck
import TallyModel

/// Writes the versioned JSON document described on `JSONReport`: pretty printed, keys sorted,
/// slashes unescaped, so the output is stable enough to diff and commit.
public struct JSONReporter: Reporter {
    public static let identifier = "json"

    /// The run's diagnostics (`ReportContext.diagnostics`) go into the report's `diagnostics`.
    public let context: ReportContext

    public init(context: ReportContext = ReportContext()) {
        self.context = context
    }

    public func report(_ result: CheckResult) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // The report holds only strings, integers and nulls, which always encode.
        guard let data = try? encoder.encode(Self.document(for: result, diagnostics: context.diagnostics)) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The report as values, for callers that want to inspect it rather than print it.
    public static func document(for result: CheckResult, diagnostics: [Diagnostic] = []) -> JSONReport {
        JSONReport(
            version: 1,
            summary: JSONReport.Summary(
                errors: result.count(.error), warnings: result.count(.warning), notes: result.count(.note),
                productsChecked: result.productsChecked, sources: result.sources),
            comparisons: result.comparisons.map(\.text),
            pairs: result.pairs.map { pair in
                JSONReport.PairRecord(
                    configuration: pair.configuration, catalog: pair.catalog, territory: pair.territory.code,
                    sharedProducts: pair.sharedProducts, compared: pair.compared.map(\.rawValue),
                    skipped: pair.skipped.map { JSONReport.SkippedRecord(field: $0.field.rawValue, reason: $0.reason, missingIn: $0.missingIn) },
                    coverage: pair.coverage.isEmpty ? nil : pair.coverage.map {
                        JSONReport.CoverageRecord(field: $0.field.rawValue, compared: $0.compared, of: $0.applicable,
                                                  unstatedInConfiguration: $0.unstatedInConfiguration, unstatedInCatalog: $0.unstatedInCatalog)
                    })
            },
            findings: result.findings.map(record),
            diagnostics: diagnostics.map(JSONReport.DiagnosticRecord.init),
            coverage: result.coverage.map(JSONReport.CoverageReport.init))
    }

    static func record(_ finding: Finding) -> JSONReport.FindingRecord {
        var sides: [String: JSONReport.SideRecord] = [:]
        func record(_ side: FindingSide) -> JSONReport.SideRecord {
            var record = JSONReport.SideRecord(value: side.value, store: side.store?.rawValue, file: side.location.file, line: side.location.line,
                                               column: side.location.column, path: side.location.path)
            record.role = side.role?.rawValue
            return record
        }
        // Two sides: the first under `configuration`, the second under `catalog`, each with its
        // own role (two configurations keep both sides); one side is the lint finding's `source`.
        if let left = finding.left, let right = finding.right, left.role != nil, right.role != nil {
            sides["configuration"] = record(left)
            sides["catalog"] = record(right)
        } else {
            for side in [finding.left, finding.right].compactMap({ $0 }) { sides[side.role?.rawValue ?? "source"] = record(side) }
        }
        return JSONReport.FindingRecord(
            rule: finding.ruleID.rawValue, severity: finding.severity, product: finding.productID, territory: finding.territory?.code,
            offer: finding.offerID, field: finding.field.rawValue, message: finding.message,
            messageParts: finding.typedMessage.parts.map(JSONReport.MessagePart.init), hint: finding.hint,
            configuration: sides["configuration"], catalog: sides["catalog"], source: sides["source"])
    }
}
