import Foundation
import Testing
import TallyCheck
import TallyConfig
import TallyModel
import TallyRun

/// Every rule owns its examples (`Rule.examples`): files as people write them, which the readers
/// take as they are. Each example runs through `tally check`'s own run (`CheckRun`: the readers,
/// the pairing, the gate, the policy when it has one), and the rule's own ID must be among the
/// findings of an example that fires and absent from those of one that passes. docs/rules.md
/// shows the same examples (`RulesPageTests`).
@Suite struct RuleExampleTests {
    /// The rules that have no example yet: none (it held seven, then one, while the examples were
    /// written). It stays empty: a new rule comes with an example it fires on.
    static let awaitingExamples: Set<RuleID> = []

    /// One example of one rule.
    struct Case: Sendable, CustomTestStringConvertible {
        var rule: RuleID
        var number: Int
        var example: RuleExample
        var testDescription: String { "\(rule) \(example.fires ? "fires" : "passes") (example \(number))" }
    }

    static var cases: [Case] {
        RuleSet.all.flatMap { rule in
            let kind = type(of: rule)
            return kind.examples.enumerated().map { Case(rule: kind.description.id, number: $0.offset + 1, example: $0.element) }
        }
    }

    @Test func everyRuleHasAnExampleItFiresOn() {
        for rule in RuleSet.all {
            let kind = type(of: rule)
            let fires = kind.examples.contains(where: \.fires)
            if Self.awaitingExamples.contains(kind.description.id) {
                #expect(!fires, "\(kind.description.id) has an example now: take it out of RuleExampleTests.awaitingExamples")
            } else {
                #expect(fires, "\(kind.description.id) (\(kind)) has no example it fires on: add one to its `examples` (Sources/TallyCheck/Examples/)")
            }
        }
        #expect(Self.awaitingExamples.isSubset(of: Set(RuleID.all)), "not rules: \(Self.awaitingExamples.subtracting(RuleID.all))")
        #expect(Self.awaitingExamples.isEmpty, "every rule has an example it fires on: the list of rules without one stays empty")
    }

    @Test(arguments: cases) func theExampleFiresItsRuleOrNot(_ item: Case) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-rule-example-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for file in item.example.files {
            let url = folder.appendingPathComponent(file.name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.text.utf8).write(to: url)
        }
        let policy = try item.example.policy.map { try PolicyFile.read(bytes: Array($0.utf8), file: PolicyFile.defaultName) }
        let run = CheckRun(sources: SourceSet(item.example.sources.map { SourceSet.Entry($0) }, root: folder.path),
                           policyFile: policy, baseline: .none)
        let outcome: RunOutcome
        do { outcome = try run.check() } catch {
            Issue.record("\(item.example.command): the run failed: \(error)")
            return
        }
        let fired = outcome.result.findings.filter { $0.ruleID == item.rule }
        let all = outcome.result.findings.map { "\($0.ruleID): \($0.message)" }
        if item.example.fires {
            #expect(!fired.isEmpty, "\(item.example.command): \(item.rule) does not fire; the findings: \(all)")
        } else {
            #expect(fired.isEmpty, "\(item.example.command): \(item.rule) fires on an example it should pass: \(all)")
        }
    }
}
