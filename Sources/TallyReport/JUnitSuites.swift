import TallyCheck

/// A rule's results arranged as JUnit test cases: one case per subject a rule examined in one
/// file, carrying that subject's findings.
struct JUnitSuite: Equatable {
    struct TestCase: Equatable {
        /// The subject (product ID), made unique within the suite with ` (2)`, ` (3)`, ...
        var name: String
        var subject: String
        var file: String?
        var findings: [Finding]
    }

    var rule: String
    var cases: [TestCase]

    /// Cases with a finding that fails the run (warnings pass unless `--strict`).
    func failures(_ context: ReportContext) -> Int { cases.filter { $0.findings.contains(where: context.fails) }.count }

    /// Suites in the order their rules first appear in `checked`, then in `findings`.
    ///
    /// Cases come from `result.checked`, merged when the same rule examined the same subject in
    /// the same file more than once. A finding joins the case for its rule, product and the file
    /// of either of its sides; failing that, the rule's first case for that product; failing
    /// that, a new case of its own, so no finding is lost.
    static func suites(for result: CheckResult) -> [JUnitSuite] {
        var builder = Builder()
        for subject in result.checked {
            _ = builder.caseIndex(rule: subject.ruleID, subject: subject.subject, file: subject.location?.file)
        }
        for finding in result.findings {
            let subject = finding.productID ?? FindingText.noProduct
            let files = [finding.left, finding.right].compactMap { $0?.location.file }
            let (suite, index) = builder.existingCase(rule: finding.ruleID, subject: subject, files: files)
                ?? builder.caseIndex(rule: finding.ruleID, subject: subject, file: finding.primaryLocation?.file)
            builder.suites[suite].cases[index].findings.append(finding)
        }
        return builder.suites.map(\.uniquelyNamed)
    }

    /// The same suite with every case name distinct.
    private var uniquelyNamed: JUnitSuite {
        var used = Set<String>()
        var copy = self
        for index in copy.cases.indices {
            let subject = copy.cases[index].subject
            var name = subject
            var number = 1
            while !used.insert(name).inserted {
                number += 1
                name = "\(subject) (\(number))"
            }
            copy.cases[index].name = name
        }
        return copy
    }

    private struct Key: Hashable {
        var subject: String
        var file: String?
    }

    private struct Builder {
        var suites: [JUnitSuite] = []
        var suiteIndex: [String: Int] = [:]
        var caseIndex: [String: [Key: Int]] = [:]
        var firstCase: [String: [String: Int]] = [:]

        mutating func caseIndex(rule: String, subject: String, file: String?) -> (suite: Int, case: Int) {
            let suite = suiteIndex[rule] ?? {
                suites.append(JUnitSuite(rule: rule, cases: []))
                suiteIndex[rule] = suites.count - 1
                return suites.count - 1
            }()
            let key = Key(subject: subject, file: file)
            if let index = caseIndex[rule]?[key] { return (suite, index) }
            suites[suite].cases.append(TestCase(name: subject, subject: subject, file: file, findings: []))
            let index = suites[suite].cases.count - 1
            caseIndex[rule, default: [:]][key] = index
            if firstCase[rule]?[subject] == nil { firstCase[rule, default: [:]][subject] = index }
            return (suite, index)
        }

        func existingCase(rule: String, subject: String, files: [String]) -> (suite: Int, case: Int)? {
            guard let suite = suiteIndex[rule] else { return nil }
            for file in files {
                if let index = caseIndex[rule]?[Key(subject: subject, file: file)] { return (suite, index) }
            }
            return firstCase[rule]?[subject].map { (suite, $0) }
        }
    }
}
