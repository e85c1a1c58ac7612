import TallyModel

/// Findings a team has accepted for now, recorded with `tally check --write-baseline FILE`.
/// Checked against a baseline, only findings it does not hold are reported; entries that no
/// longer occur are stale, so the file can shrink as they are fixed.
///
/// Entries are keyed by `FindingKey` (rule, product, field, territory, offer), never by line.
/// The same key may appear more than once (a lint finding in two sources): each entry
/// suppresses one finding.
public struct Baseline: Sendable, Hashable, Codable {
    /// The file format version this Tally writes and reads.
    public static let currentVersion = 1

    public var version: Int
    public var findings: [Entry]

    /// One accepted finding. `severity` and `message` are for people reading the file; only
    /// the key is compared.
    public struct Entry: Sendable, Hashable, Codable, CustomStringConvertible {
        public var rule: String
        public var product: String?
        public var field: String
        public var territory: String?
        public var offer: String?
        public var severity: Severity?
        public var message: String?

        public init(_ finding: Finding) {
            let key = finding.key
            rule = key.rule
            product = key.product
            field = key.field
            territory = key.territory
            offer = key.offer
            severity = finding.severity
            message = finding.message
        }

        public var key: FindingKey {
            FindingKey(rule: rule, product: product, field: field, territory: territory, offer: offer)
        }

        public var description: String { key.description }

        enum CodingKeys: String, CodingKey {
            case rule, product, field, territory, offer, severity, message
        }
    }

    /// A baseline of these findings, sorted by key so the file diffs well.
    public init(findings: [Finding]) {
        version = Self.currentVersion
        self.findings = findings.map(Entry.init).sorted { ($0.key, $0.message ?? "") < ($1.key, $1.message ?? "") }
    }

    /// The result without the findings this baseline holds; `result.suppressed` says how many
    /// were taken out and which entries no longer occur.
    public func apply(to result: CheckResult, file: String? = nil) -> CheckResult {
        var available: [FindingKey: Int] = [:]
        for entry in findings { available[entry.key, default: 0] += 1 }
        var kept: [Finding] = []
        var suppressed = 0
        for finding in result.findings {
            let key = finding.key
            if let count = available[key], count > 0 {
                available[key] = count - 1
                suppressed += 1
            } else {
                kept.append(finding)
            }
        }
        var stale: [Entry] = []
        for entry in findings {
            guard let count = available[entry.key], count > 0 else { continue }
            available[entry.key] = count - 1
            stale.append(entry)
        }
        var applied = result
        applied.findings = kept
        applied.suppressed.baselined += suppressed
        applied.suppressed.baselineFile = file
        applied.suppressed.stale += stale
        return applied
    }
}
