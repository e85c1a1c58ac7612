import TallyModel

/// Findings a team has accepted for now, recorded with `tally check --write-baseline FILE`.
/// Checked against a baseline, only findings it does not hold are reported; entries that no
/// longer occur are stale, so the file can shrink as they are fixed.
///
/// Entries are keyed by `FindingKey` (rule, product, field, territory, offer), never by line,
/// and hold both sides' values as they were recorded (`Entry.values`): a baselined finding stays
/// suppressed only while its values are the recorded ones. When a value changes (the catalogue
/// moves from 6.49 to 64.90), the finding is new and reported, and the entry is stale.
/// An entry without values (written by a Tally before values were recorded) matches by key alone.
///
/// The same key may appear more than once (a lint finding in two sources): each entry
/// suppresses one finding.
public struct Baseline: Sendable, Hashable, Codable {
    /// The file format version this Tally writes and reads.
    public static let currentVersion = 1

    public var version: Int
    public var findings: [Entry]

    /// One accepted finding. `severity` and `message` are for people reading the file; the key
    /// and the values are compared.
    public struct Entry: Sendable, Hashable, Codable, CustomStringConvertible {
        public var rule: String
        public var product: String?
        public var field: String
        public var territory: String?
        public var offer: String?
        /// Each side's value when the finding was recorded, by the side's role
        /// (`{"configuration": "5.99 USD", "catalog": "6.49 USD"}`; `source` for a lint finding);
        /// a side without a value is left out. Nil in entries written before values were
        /// recorded: such an entry matches by key alone.
        public var values: [String: String]?
        public var severity: Severity?
        public var message: String?

        public init(_ finding: Finding) {
            let key = finding.key
            rule = key.rule
            product = key.product
            field = key.field
            territory = key.territory
            offer = key.offer
            values = finding.sideValues
            severity = finding.severity
            message = finding.typedMessage.baselineText
        }

        public init(rule: String, product: String?, field: String, territory: String? = nil, offer: String? = nil,
                    values: [String: String]? = nil, severity: Severity? = nil, message: String? = nil) {
            self.rule = rule
            self.product = product
            self.field = field
            self.territory = territory
            self.offer = offer
            self.values = values
            self.severity = severity
            self.message = message
        }

        public var key: FindingKey {
            FindingKey(rule: rule, product: product, field: field, territory: territory, offer: offer)
        }

        /// Whether this entry accepts the finding: the same key and, when the entry records
        /// values, the same values on both sides.
        public func matches(_ finding: Finding) -> Bool {
            key == finding.key && (values == nil || values == finding.sideValues)
        }

        /// `price com.example.pro (USA)`, with the recorded values when there are any:
        /// `price com.example.pro (USA): configuration 5.99 USD, catalog 6.49 USD`.
        public var description: String {
            guard let values, !values.isEmpty else { return key.description }
            return "\(key.description): \(Baseline.words(values))"
        }

        enum CodingKeys: String, CodingKey {
            case rule, product, field, territory, offer, values, severity, message
        }
    }

    /// A baseline of these findings, sorted by key so the file diffs well.
    public init(findings: [Finding]) {
        version = Self.currentVersion
        self.findings = findings.map(Entry.init).sorted {
            ($0.key, Self.words($0.values ?? [:]), $0.message ?? "") < ($1.key, Self.words($1.values ?? [:]), $1.message ?? "")
        }
    }

    public init(version: Int = Baseline.currentVersion, entries: [Entry]) {
        self.version = version
        findings = entries
    }

    /// The result without the findings this baseline holds; `result.suppressed` says how many
    /// were taken out, which entries no longer occur (`stale`), and which occur with other
    /// values (`changed`: their findings are reported as new).
    public func apply(to result: CheckResult, file: String? = nil) -> CheckResult {
        // Entries with values first take the findings with exactly those values; entries
        // without values (older files) then take what is left by key.
        var exact: [Match: [Int]] = [:]
        var byKey: [FindingKey: [Int]] = [:]
        for (index, entry) in findings.enumerated() {
            if let values = entry.values {
                exact[Match(key: entry.key, values: values), default: []].append(index)
            } else {
                byKey[entry.key, default: []].append(index)
            }
        }
        var used = Set<Int>()
        var pending: [Finding] = []
        var suppressed = 0
        for finding in result.findings {
            let match = Match(key: finding.key, values: finding.sideValues)
            if let index = exact[match]?.popLast() {
                used.insert(index)
                suppressed += 1
            } else {
                pending.append(finding)
            }
        }
        var kept: [Finding] = []
        var reportedKeys = Set<FindingKey>()
        for finding in pending {
            if let index = byKey[finding.key]?.popLast() {
                used.insert(index)
                suppressed += 1
            } else {
                kept.append(finding)
                reportedKeys.insert(finding.key)
            }
        }
        var stale: [Entry] = []
        var changed: [Entry] = []
        for (index, entry) in findings.enumerated() where !used.contains(index) {
            if reportedKeys.contains(entry.key) { changed.append(entry) } else { stale.append(entry) }
        }
        var applied = result
        applied.findings = kept
        applied.suppressed.baselined += suppressed
        applied.suppressed.baselineFile = file
        applied.suppressed.stale += stale
        applied.suppressed.changed += changed
        return applied
    }

    private struct Match: Hashable {
        var key: FindingKey
        var values: [String: String]
    }

    /// `configuration 5.99 USD, catalog 6.49 USD`, roles sorted.
    static func words(_ values: [String: String]) -> String {
        values.keys.sorted().map { "\($0) \(values[$0] ?? "")" }.joined(separator: ", ")
    }
}

extension Finding {
    /// Each side's value by its label (`configuration`, `catalog`, `source`, `google-play`);
    /// sides without a value are left out. What a baseline entry records and compares: money
    /// as its exact amount and currency (`6.49 USD`, `64.90 USD`), never rounded for display.
    public var sideValues: [String: String] {
        var values: [String: String] = [:]
        for side in [left, right].compactMap({ $0 }) {
            guard let value = side.value else { continue }
            values[side.label] = value.baselineText
        }
        return values
    }
}

// The one plain rendering of a finding below the reporters: a baseline file records it, and
// TallyCheck writes baselines. Its bytes are what baselines already on disk hold (values are
// compared: money exact, periods as written, offers and territories in words), so it stays put
// when the reports' words change; the reporters make their own words (TallyReport's
// `MessageText`), from the same `PeopleText`.

extension FindingValue {
    /// A side's value as a baseline records and compares it: `6.49 USD` (exact, not padded),
    /// `P1M`, `DEU, GBR`, `free trial of 1 week`, words as they are.
    public var baselineText: String {
        switch self {
        case .money(let money): MachineText.exact(money)
        case .period(let period): MachineText.period(period)
        case .territories(let territories): PeopleText.territories(territories)
        case .offer(let offer): PeopleText.offer(offer)
        case .text(let text): text
        }
    }
}

extension FindingMessage {
    /// The sentence a baseline file records beside an entry, for people reading the file:
    /// `com.example.coins costs 10.90 USD in USA in the configuration but 12.00 USD in the catalogue`.
    public var baselineText: String {
        parts.map { part in
            switch part {
            case .text(let words): words
            case .value(.product(let text)), .value(.source(let text)), .value(.name(let text)): text
            case .value(.money(let money)): PeopleText.money(money)
            case .value(.period(let period)): PeopleText.period(period)
            case .value(.duration(let period, let days)): PeopleText.duration(period, days: days)
            case .value(.territory(let territory)): territory.code
            case .value(.territories(let territories)): PeopleText.territories(territories)
            case .value(.count(let count)): String(count)
            case .value(.offer(let offer)): PeopleText.offer(offer)
            }
        }.joined()
    }
}
