import TallyCheck
import TallyModel

/// Plain-text pieces shared by the reporters that write findings as lines.
enum FindingText {
    /// The heading findings without a product are grouped under.
    static let noProduct = "(source)"

    /// `configuration: configs/App.storekit:42:7  4.99 USD`; the value is left out when unknown.
    static func sideLine(_ side: FindingSide) -> String { MessageText.sideLine(side) }

    /// Both sides, then the hint: the lines shown under a finding's message.
    static func detailLines(_ finding: Finding) -> [String] { MessageText.detailLines(finding) }

    /// `1 error`, `3 errors`.
    static func counted(_ count: Int, _ noun: String) -> String {
        guard count != 1 else { return "1 \(noun)" }
        return noun.hasSuffix("y") ? "\(count) \(noun.dropLast())ies" : "\(count) \(noun)s"
    }

    /// Replaces control characters (other than those kept) with a visible `\u{1B}`, so text read
    /// from a user's file cannot move the cursor or recolour a terminal, and elides long values
    /// (`com.example.aaaa…(20,000,000 characters)`, see `Elision`).
    static func visible(_ text: String, keeping kept: Set<Unicode.Scalar> = ["\t"]) -> String {
        SafeText.line(Elision.message(text), keeping: kept)
    }

    /// C0 controls, DEL and C1 controls.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// `\u{1B}`.
    static func escaped(_ scalar: Unicode.Scalar) -> String { SafeText.escaped(scalar) }
}

extension FindingText {
    /// The summary line without colour: `✔ consistent: ...` (`✔ no findings: ...` for lint), `✘ 2 errors, 1 warning in ...` when
    /// the run fails, `✔ passed: 0 errors, 1 warning in ...` when it has findings that do not
    /// fail it, `✔ baseline written: ...` when it records them.
    static func summary(_ result: CheckResult, context: ReportContext = ReportContext(), symbol: Bool = true) -> String {
        let errors = result.count(.error), warnings = result.count(.warning), notes = result.count(.note)
        let notesText = notes > 0 ? ", \(counted(notes, "note"))" : ""
        let sources = counted(result.sources.count, "source")
        let products = counted(result.productsChecked, "product")
        let counts = "\(counted(errors, "error")), \(counted(warnings, "warning"))\(notesText)"
        if let baseline = context.recordingBaseline {
            return "\(symbol ? "✔ " : "")baseline written: \(counts) recorded in \(baseline) (\(products) checked in \(sources))"
        }
        // Nothing compared (or less than `require_compared` asks): never green, whatever was found.
        if !context.fails(result), let reason = context.failBar.coverageFailure(result) {
            return "\(symbol ? "✘ " : "")\(reason); \(counts) in \(sources)"
        }
        // Baseline entries that match no finding are named in the counts: with --strict or
        // fail_on: warning they fail the run.
        let stale = result.suppressed.unmatchedEntries
        let staleText = stale > 0 ? ", \(counted(stale, "stale baseline entry"))" : ""
        if context.fails(result), errors == 0, warnings == 0 {
            return "\(symbol ? "✘ " : "")\(counts)\(staleText) in \(sources) (\(products) checked)"
        }
        if errors == 0 && warnings == 0 {
            return "\(symbol ? "✔ " : "")\(context.run.cleanWord): \(products) checked in \(sources), 0 errors, 0 warnings\(notesText)\(staleText)"
        }
        if !context.fails(result) {
            return "\(symbol ? "✔ " : "")passed: \(counts) in \(sources) (\(products) checked)"
        }
        return "\(symbol ? "✘ " : "")\(counts) in \(sources) (\(products) checked)"
    }

    /// The "not compared:" line of a check of two or more sources: how many products and code
    /// requests were not compared, by reason, the first few of each named. None when everything
    /// was compared, and for one source alone (its `compared:` line says there was nothing to
    /// compare it with).
    static func coverageLines(_ result: CheckResult, named: Int = 5) -> [String] {
        guard let coverage = result.coverage, coverage.sources >= 2, !coverage.notCompared.isEmpty else { return [] }
        var parts: [String] = []
        let products = coverage.products - coverage.productsCompared
        if products > 0 { parts.append("\(products) of \(counted(coverage.products, "product"))") }
        let requests = coverage.codeRequests - coverage.codeRequestsCompared
        if requests > 0 { parts.append("\(requests) of \(counted(coverage.codeRequests, "code request"))") }
        var lines = ["not compared: " + parts.joined(separator: " and ")]
        for reason in Coverage.Reason.allCases {
            let items = coverage.notCompared.filter { $0.reason == reason }
            guard !items.isEmpty else { continue }
            let shown = items.prefix(named).map { item -> String in
                let what = item.product ?? "a call"
                let place = item.line.map { "\(item.source):\($0)" } ?? item.source
                let detail = item.detail.map { reason == .notStaticallyKnown ? "" : ": \($0)" } ?? ""
                return "\(what) (\(place)\(detail))"
            }
            let more = items.count > named ? ", and \(items.count - named) more" : ""
            lines.append("  \(items.count) \(reason.words): \(shown.joined(separator: ", "))\(more)")
        }
        return lines
    }

    /// Lines saying what the policy's ignores and the baseline took out, and which baseline
    /// entries are stale; none for a plain check.
    static func suppressionLines(_ suppressed: Suppressed, staleShown: Int = 20) -> [String] {
        var lines: [String] = []
        if suppressed.ignored > 0 {
            lines.append("ignored: \(counted(suppressed.ignored, "finding")) accepted by the policy's ignores")
        }
        if let file = suppressed.baselineFile {
            lines.append("baseline: \(counted(suppressed.baselined, "known finding")) suppressed by \(file); only new findings are reported")
        }
        if !suppressed.stale.isEmpty {
            let count = suppressed.stale.count
            lines.append("baseline: \(counted(count, "entry")) no longer \(count == 1 ? "occurs" : "occur") (fixed; rewrite the baseline with --write-baseline to drop \(count == 1 ? "it" : "them")):")
            lines += suppressed.stale.prefix(staleShown).map { "  stale: \($0)" }
            if count > staleShown { lines.append("  …and \(count - staleShown) more") }
        }
        if !suppressed.changed.isEmpty {
            let count = suppressed.changed.count
            lines.append("baseline: \(counted(count, "entry")) no longer \(count == 1 ? "matches its finding" : "match their findings"): the values changed, so the finding\(count == 1 ? " is" : "s are") reported as new:")
            lines += suppressed.changed.prefix(staleShown).map { "  recorded: \($0)" }
            if count > staleShown { lines.append("  …and \(count - staleShown) more") }
        }
        if suppressed.unmatchedEntries > 0 {
            lines.append("baseline: entries that match no finding fail the check with --strict or fail_on: warning")
        }
        return lines
    }
}

extension FindingText {
    /// How to fix each rule that has findings, once per rule, in the order the rules first
    /// appear: the rule's `fix` (what `tally explain RULE` prints under "How to fix").
    static func fixes(_ findings: [Finding]) -> [(rule: RuleID, fix: String)] {
        var seen = Set<RuleID>()
        var result: [(rule: RuleID, fix: String)] = []
        for finding in findings where seen.insert(finding.ruleID).inserted {
            guard let fix = RuleSet.description(of: finding.ruleID)?.fix, !fix.isEmpty else { continue }
            result.append((finding.ruleID, fix))
        }
        return result
    }

    /// `tally explain price`: the command that says why a rule matters and how to fix it.
    static func explainCommand(_ rule: RuleID) -> String { "tally explain \(rule)" }

    /// The lines of the "how to fix" block text reports show under the findings; none without findings.
    static func fixLines(_ findings: [Finding]) -> [String] {
        let fixes = fixes(findings)
        guard !fixes.isEmpty else { return [] }
        return ["how to fix:"] + fixes.map { "  \($0.rule): \($0.fix) (more: \(explainCommand($0.rule)))" }
    }
}
