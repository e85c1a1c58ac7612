import Foundation
import TallyCheck
import TallyModel

/// SARIF 2.1.0, for GitHub code scanning, GitLab, Azure DevOps and other SARIF viewers.
///
/// One run; `tool.driver.rules` lists every rule (but those the policy turned off) with its summary, rationale and fix. Each
/// finding is a result with `ruleId`, `level` (error, warning, note), the message, the location
/// of its first side with a line (`startLine` is 1 when the source has no lines), the other
/// side as a related location, and a `partialFingerprints` entry that stays the same across
/// runs and edits elsewhere in the files: a SHA-256 of the finding's key (rule, product, field,
/// territory, offer) and its file, never its line.
///
/// With a repository root in the context, every file under it is written relative to the root,
/// `uriBaseId: "%SRCROOT%"`, and `run.originalUriBaseIds["%SRCROOT%"]` holds the root as a
/// `file://` URI: GitHub code scanning then places results wherever in the repository Tally ran
/// (a subfolder, a package in a monorepo). Files outside the root are absolute `file://` URIs.
public struct SARIFReporter: Reporter {
    public static let identifier = "sarif"
    /// The `partialFingerprints` key Tally writes.
    public static let fingerprintKey = "tallyFindingKey/v1"
    /// The `uriBaseId` of paths relative to the repository root.
    public static let sourceRoot = "%SRCROOT%"

    /// The repository root and working directory the paths are resolved with.
    public var context: ReportContext

    public init(context: ReportContext = ReportContext()) {
        self.context = context
    }

    public func report(_ result: CheckResult) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Strings, integers and arrays of them only: encoding cannot fail.
        guard let data = try? encoder.encode(log(for: result)) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    func log(for result: CheckResult) -> SARIFLog {
        var descriptions = RuleSet.descriptions.filter { !context.rulesOff.contains($0.id) }
        let known = Set(descriptions.map(\.id))
        var extra: [RuleID] = []
        for finding in result.findings where !known.contains(finding.ruleID) && !extra.contains(finding.ruleID) {
            extra.append(finding.ruleID)
        }
        descriptions += extra.map { RuleDescription(id: $0, defaultSeverity: .error, summary: "Findings of rule \($0).", category: "other") }
        let index = Dictionary(uniqueKeysWithValues: descriptions.enumerated().map { ($0.element.id, $0.offset) })
        let baselined = result.suppressed.baselineFile != nil
        let results = result.findings.map { finding in
            self.result(finding, ruleIndex: index[finding.ruleID] ?? 0, baselined: baselined)
        }
        let driver = SARIFLog.Driver(name: TallyInfo.name, version: TallyInfo.version, semanticVersion: TallyInfo.version,
                                     rules: descriptions.map(rule))
        let bases = context.repositoryRoot.map { root in
            [Self.sourceRoot: SARIFLog.ArtifactLocation(uri: Self.uri(root.hasSuffix("/") ? root : root + "/"))]
        }
        // What was not compared, when anything was (issue 48): the JSON report's `coverage`.
        let coverage = result.coverage.flatMap { $0.sources >= 2 && !$0.notCompared.isEmpty ? SARIFLog.RunProperties(coverage: JSONReport.CoverageReport($0)) : nil }
        return SARIFLog(runs: [SARIFLog.Run(tool: SARIFLog.Tool(driver: driver), results: results, originalUriBaseIds: bases, properties: coverage)])
    }

    private func rule(_ description: RuleDescription) -> SARIFLog.Rule {
        let rationale = description.rationale.isEmpty ? description.summary : description.rationale
        let fix = description.fix.isEmpty ? "See 'tally explain \(description.id)'." : description.fix
        return SARIFLog.Rule(
            id: description.id.rawValue,
            name: description.id.rawValue.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(),
            shortDescription: SARIFLog.Text(text: description.summary),
            fullDescription: SARIFLog.Text(text: "\(description.summary) \(rationale)"),
            help: SARIFLog.Help(text: "Why it matters: \(rationale)\nHow to fix: \(fix)",
                                markdown: "**Why it matters.** \(rationale)\n\n**How to fix.** \(fix)"),
            defaultConfiguration: SARIFLog.Configuration(level: Self.level(description.defaultSeverity)),
            properties: SARIFLog.RuleProperties(category: description.category, tags: ["in-app-purchase", description.category]))
    }

    private func result(_ finding: Finding, ruleIndex: Int, baselined: Bool) -> SARIFLog.Result {
        let sides = [finding.left, finding.right].compactMap { $0 }
        let primary = sides.first { $0.location.line != nil } ?? sides.first
        let related = sides.filter { $0 != primary }.enumerated().map { offset, side in
            SARIFLog.Location(id: offset + 1, physicalLocation: physical(side.location),
                              message: SARIFLog.Text(text: "\(side.label): \(side.value.map { MessageText.words($0) } ?? "absent")"))
        }
        let location = primary.map { SARIFLog.Location(physicalLocation: physical($0.location)) }
        return SARIFLog.Result(
            ruleId: finding.ruleID.rawValue, ruleIndex: ruleIndex, level: Self.level(finding.severity), message: Self.message(finding),
            locations: location.map { [$0] } ?? [], relatedLocations: related.isEmpty ? nil : related,
            partialFingerprints: [Self.fingerprintKey: Self.fingerprint(finding)],
            baselineState: baselined ? "new" : nil,
            properties: SARIFLog.ResultProperties(product: finding.productID, field: finding.field.rawValue,
                                                  territory: finding.territory?.code, offer: finding.offerID, values: Self.values(sides),
                                                  messageTemplate: Self.template(finding)?.text, messageArguments: Self.template(finding)?.arguments))
    }

    /// The message as GitHub code scanning shows it: the finding's sentence in plain words, with
    /// the hint. GitHub's SARIF subset reads `message.text` only and would show `{0}` placeholders
    /// as they are, so the typed values travel beside it, in the result's properties
    /// (`messageTemplate`, `messageArguments`; see `template(_:)`).
    static func message(_ finding: Finding) -> SARIFLog.Text {
        SARIFLog.Text(text: finding.message + (finding.hint.map { " (hint: \($0))" } ?? ""))
    }

    /// The sentence with `{0}`, `{1}`, … where its values stand (literal braces doubled, as SARIF
    /// 2.1.0 §3.11.5 writes them) and the values' texts; nil for a message without values.
    static func template(_ finding: Finding) -> (text: String, arguments: [String])? {
        let template = MessageText.template(finding.typedMessage)
        guard !template.arguments.isEmpty else { return nil }
        return (template.text, template.arguments)
    }

    /// The sides' values as SARIF properties, by side; nil when no side has a value.
    private static func values(_ sides: [FindingSide]) -> [String: SARIFLog.SideValue]? {
        var values: [String: SARIFLog.SideValue] = [:]
        for side in sides {
            guard let value = side.value else { continue }
            let record = JSONReport.SideRecord(value: value, store: nil, file: "", line: nil, column: nil, path: nil)
            values[side.label] = SARIFLog.SideValue(text: MessageText.words(value), amount: record.amount, currency: record.currency, period: record.period,
                                                     territories: record.territories)
        }
        return values.isEmpty ? nil : values
    }

    /// SHA-256 (hex) of the finding's key and the file of its primary location: stable across
    /// runs and line changes.
    public static func fingerprint(_ finding: Finding) -> String {
        let file = ([finding.left, finding.right].compactMap { $0 }.first { $0.location.line != nil } ?? finding.left ?? finding.right)?.location.file ?? ""
        return SHA256Digest.hex((finding.key.canonical + "\u{1F}" + file).utf8)
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "note"
        }
    }

    func physical(_ location: TallyModel.SourceLocation) -> SARIFLog.PhysicalLocation {
        SARIFLog.PhysicalLocation(
            artifactLocation: artifact(location.file),
            region: SARIFLog.Region(startLine: max(1, location.line ?? 1), startColumn: location.line == nil ? nil : location.column.map { max(1, $0) }))
    }

    /// The file relative to the repository root (`%SRCROOT%`) when there is one and the file is
    /// under it; else as `uri(_:)` writes it.
    func artifact(_ path: String) -> SARIFLog.ArtifactLocation {
        guard context.repositoryRoot != nil else { return SARIFLog.ArtifactLocation(uri: Self.uri(path)) }
        guard let relative = context.pathInRepository(path) else { return SARIFLog.ArtifactLocation(uri: Self.uri(context.absolute(path))) }
        return SARIFLog.ArtifactLocation(uri: Self.uri(relative), uriBaseId: Self.sourceRoot)
    }

    /// A relative path stays a relative URI reference (resolved against the repository root by
    /// code-scanning services); an absolute path becomes a `file://` URI. Both percent-encoded.
    static func uri(_ path: String) -> String {
        let trimmed = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
        let encoded = trimmed.addingPercentEncoding(withAllowedCharacters: pathAllowed) ?? trimmed
        return trimmed.hasPrefix("/") ? "file://" + encoded : encoded
    }

    /// RFC 3986 unreserved characters, sub-delimiters allowed in a path, '/' and '@'; ':' is
    /// encoded so a relative path is never read as a scheme.
    private static let pathAllowed: CharacterSet = {
        var set = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        set.insert(charactersIn: "!$&'()*+,;=/@")
        return set
    }()
}
