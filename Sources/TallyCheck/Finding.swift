import TallyModel

/// What one side of a finding holds, as a value: reporters make its words (money in its
/// currency's minor units, a period in the source's own words; TallyReport's `MessageText`) and
/// structured reports keep its parts.
public enum FindingValue: Sendable, Hashable, Codable, ExpressibleByStringLiteral {
    /// An amount with its currency ("4.99 USD" for people; amount and currency apart in JSON).
    case money(Money)
    /// A subscription or offer period ("P1M").
    case period(Period)
    /// Territories, in order ("DEU, GBR, JPN": the storefronts a product has no price in).
    case territories([Territory])
    /// An offer's terms ("free trial of 1 week"; its period and price apart in JSON).
    case offer(Offer)
    /// Anything else, in words ("tier 5", "true", a product ID).
    case text(String)

    public init(stringLiteral text: String) { self = .text(text) }
}

/// One side of a finding: which source, what it says, and where.
public struct FindingSide: Sendable, Hashable, Codable {
    /// The configuration's side or the catalogue's; nil for the one source lint examines.
    public var role: SourceRole?
    /// The store this side stands for when two stores' sources are compared (Google Play).
    public var store: Store?
    /// The value this side has; nil when it has none ("absent").
    public var value: FindingValue?
    public var location: SourceLocation

    public init(role: SourceRole?, store: Store? = nil, value: FindingValue?, location: SourceLocation) {
        self.role = role
        self.store = store
        self.value = value
        self.location = location
    }

    /// A side whose value is words.
    public init(role: SourceRole?, store: Store? = nil, value: String?, location: SourceLocation) {
        self.init(role: role, store: store, value: value.map(FindingValue.text), location: location)
    }

    /// How reports name the side: `configuration`, `catalog`, `source` (lint) or the store
    /// (`google-play`).
    public var label: String { store?.rawValue ?? role?.rawValue ?? "source" }
}

/// A mismatch or lint problem: a plain value; printing happens in the reporters.
public struct Finding: Sendable, Hashable, Codable {
    /// The rule's stable kebab-case ID (`price`, `missing-in-catalog`, `duplicate-id`).
    public var ruleID: RuleID
    public var severity: Severity
    /// The product concerned (for group-level findings, a member of the group).
    public var productID: String?
    public var territory: Territory?
    public var offerID: String?
    public var field: Field
    /// What the finding says, its values typed until a reporter renders them (the sentence for
    /// people is TallyReport's `Finding.message`).
    public var typedMessage: FindingMessage
    /// The configuration's side (or the only side, for lint).
    public var left: FindingSide?
    /// The catalogue's side.
    public var right: FindingSide?
    /// A suggestion ("did you mean com.example.pro.monthly?").
    public var hint: String?

    public init(
        ruleID: RuleID, severity: Severity, productID: String?, territory: Territory? = nil, offerID: String? = nil,
        field: Field, message: FindingMessage, left: FindingSide? = nil, right: FindingSide? = nil, hint: String? = nil
    ) {
        self.ruleID = ruleID
        self.severity = severity
        self.productID = productID
        self.territory = territory
        self.offerID = offerID
        self.field = field
        self.typedMessage = message
        self.left = left
        self.right = right
        self.hint = hint
    }

    enum CodingKeys: String, CodingKey {
        case ruleID, severity, productID, territory, offerID, field, typedMessage = "message", left, right, hint
    }

    /// The first known location: where an editor should jump.
    public var primaryLocation: SourceLocation? { left?.location ?? right?.location }
}

/// Static facts about a rule: shown by reporters, `tally explain` and the rule table of docs/rules.md.
public struct RuleDescription: Sendable, Hashable, Codable {
    public var id: RuleID
    public var defaultSeverity: Severity
    /// One line: what the rule finds.
    public var summary: String
    /// `cross-source` or `lint`.
    public var category: String
    /// Why a finding of this rule matters: what goes wrong for the app, the server or the user.
    public var rationale: String
    /// How to fix a finding of this rule.
    public var fix: String

    public init(id: RuleID, defaultSeverity: Severity, summary: String, category: String, rationale: String = "", fix: String = "") {
        self.id = id
        self.defaultSeverity = defaultSeverity
        self.summary = summary
        self.category = category
        self.rationale = rationale
        self.fix = fix
    }
}

/// A subject a rule examined, for reports that list what passed as well as what failed.
public struct CheckedSubject: Sendable, Hashable, Codable {
    public var ruleID: RuleID
    public var subject: String
    public var location: SourceLocation?

    public init(ruleID: RuleID, subject: String, location: SourceLocation?) {
        self.ruleID = ruleID
        self.subject = subject
        self.location = location
    }
}

/// The subjects rules examined, kept only when a report needs them (JUnit lists passing checks):
/// on a large catalogue they are hundreds of thousands of values.
public struct CheckedLog: Sendable {
    public private(set) var subjects: [CheckedSubject] = []
    public let isEnabled: Bool

    public init(enabled: Bool = true) { isEnabled = enabled }

    /// Records a subject; the value is not even built when the log is off.
    public mutating func append(_ subject: @autoclosure () -> CheckedSubject) {
        if isEnabled { subjects.append(subject()) }
    }
}

/// The outcome of a check or lint run.
public struct CheckResult: Sendable, Hashable, Codable {
    public var findings: [Finding]
    /// Every (rule, subject) examined, passing or not.
    public var checked: [CheckedSubject]
    /// The sources read, by file, in the order given.
    public var sources: [String]
    /// What was compared: one line per pair of sources (first, as in `pairs`), then price
    /// points, paywalls and code; as values, which TallyReport words for the `compared:` lines.
    public var comparisons: [ComparedLine]
    /// How many distinct product IDs the sources hold.
    public var productsChecked: Int
    /// What was compared and skipped for each pair of sources, as values.
    public var pairs: [PairSummary]
    /// Findings taken out by the policy's ignores or a baseline (empty for a plain check).
    public var suppressed: Suppressed
    /// Names for people (reference name, else display name) of the products findings are
    /// about, by product ID, for reports to show beside the ID; never used to match.
    public var names: [String: String] = [:]
    /// The product IDs each source had compared with another source, by file (what `coverage`
    /// is measured from).
    public var compared: [String: Set<String>] = [:]
    /// What the run compared and what it did not, with why (`Coverage`); nil before the gate
    /// measures it.
    public var coverage: Coverage? = nil

    /// - Parameter productsChecked: defaults to the distinct subjects in `checked`.
    public init(findings: [Finding] = [], checked: [CheckedSubject] = [], sources: [String] = [], comparisons: [ComparedLine] = [],
                pairs: [PairSummary] = [], productsChecked: Int? = nil, suppressed: Suppressed = Suppressed()) {
        self.findings = findings
        self.checked = checked
        self.sources = sources
        self.comparisons = comparisons
        self.productsChecked = productsChecked ?? Set(checked.map(\.subject)).count
        self.pairs = pairs
        self.suppressed = suppressed
    }

    public func count(_ severity: Severity) -> Int { findings.filter { $0.severity == severity }.count }

    /// Records that `id` of the source `file` was compared with another source.
    public mutating func markCompared(_ id: String, in file: String) {
        compared[file, default: []].insert(id)
    }

    /// Adds what `other` compared.
    public mutating func mergeCompared(_ other: CheckResult) {
        compared.merge(other.compared) { $0.union($1) }
    }

}

/// Findings a run did not report, and why: reporters mention them so nothing disappears silently.
public struct Suppressed: Sendable, Hashable, Codable {
    /// Findings taken out by the policy's ignores.
    public var ignored: Int
    /// Findings taken out because the baseline holds them.
    public var baselined: Int
    /// The baseline file, when one was used.
    public var baselineFile: String?
    /// Baseline entries that no longer occur: fixed, so they can leave the baseline.
    public var stale: [Baseline.Entry]
    /// Baseline entries whose finding occurs with other values than the recorded ones: the
    /// finding is reported as new, and the entry no longer matches anything.
    public var changed: [Baseline.Entry] = []

    public init(ignored: Int = 0, baselined: Int = 0, baselineFile: String? = nil, stale: [Baseline.Entry] = [],
                changed: [Baseline.Entry] = []) {
        self.ignored = ignored
        self.baselined = baselined
        self.baselineFile = baselineFile
        self.stale = stale
        self.changed = changed
    }

    /// Baseline entries that matched no finding: fixed (`stale`) or changed. `--strict` (and
    /// `fail_on: warning`) fails on them, as on warnings.
    public var unmatchedEntries: Int { stale.count + changed.count }

    /// Whether nothing was suppressed and no baseline was used.
    public var isEmpty: Bool { ignored == 0 && baselined == 0 && baselineFile == nil && stale.isEmpty && changed.isEmpty }
}
