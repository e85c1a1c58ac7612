import Foundation
import TallyCheck
import TallyModel
import TallyReport
import Testing

@Suite("SARIF reporter")
struct SARIFReporterTests {
    private func document(_ result: CheckResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(SARIFReporter().report(result).utf8)) as? [String: Any])
    }

    private func results(_ result: CheckResult) throws -> [[String: Any]] {
        let runs = try #require(try document(result)["runs"] as? [[String: Any]])
        return try #require(runs.first?["results"] as? [[String: Any]])
    }

    @Test(.enabled(if: SchemaValidator.available, "python3 with jsonschema is not installed: .ci/run installs it"),
          arguments: ["mixed", "consistent", "suppressed"])
    func validatesAgainstTheSARIF210Schema(_ sample: String) throws {
        let result = sample == "mixed" ? Sample.mixed : sample == "consistent" ? Sample.consistent : Sample.suppressed
        #expect(try SchemaValidator.violations(of: SARIFReporter().report(result)) == [], "\(sample)")
    }

    /// Each message is a template with `{n}` where the finding's values stand and the values as
    /// `arguments` (SARIF 2.1.0 §3.11.5): put back in, they give the text every other report shows.
    @Test func theMessageIsPlainTextAndTheTemplatesArgumentsPutBackGiveIt() throws {
        let all = try results(Sample.mixed)
        for (result, finding) in zip(all, Sample.mixed.findings) {
            let message = try #require(result["message"] as? [String: Any])
            let expected = finding.message + (finding.hint.map { " (hint: \($0))" } ?? "")
            // GitHub code scanning shows message.text as it is: no placeholders there.
            #expect(message["text"] as? String == expected)
            #expect(message["arguments"] == nil)
            let properties = try #require(result["properties"] as? [String: Any])
            guard let template = properties["messageTemplate"] as? String else {
                #expect(finding.typedMessage.arguments.isEmpty)
                continue
            }
            let arguments = try #require(properties["messageArguments"] as? [String])
            #expect(arguments.count == finding.typedMessage.arguments.count)
            var out = template
            for (index, argument) in arguments.enumerated() { out = out.replacingOccurrences(of: "{\(index)}", with: argument) }
            out = out.replacingOccurrences(of: "{{", with: "{").replacingOccurrences(of: "}}", with: "}")
            #expect(out == finding.message)
        }
        #expect(all.contains { ($0["properties"] as? [String: Any])?["messageArguments"] != nil })
    }

    @Test func pathsAreRelativeToTheRepositoryRootGiven() throws {
        // Run from /repo/app: configs/App.storekit is app/configs/App.storekit in the repository.
        let context = ReportContext(repositoryRoot: "/repo", workingDirectory: "/repo/app")
        let log = SARIFReporter(context: context).report(Sample.mixed)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(log.utf8)) as? [String: Any])
        let run = try #require((document["runs"] as? [[String: Any]])?.first)
        let base = (run["originalUriBaseIds"] as? [String: Any])?["%SRCROOT%"] as? [String: Any]
        #expect(base?["uri"] as? String == "file:///repo/")
        let results = try #require(run["results"] as? [[String: Any]])
        let artifacts = results.flatMap { ($0["locations"] as? [[String: Any]] ?? []) + ($0["relatedLocations"] as? [[String: Any]] ?? []) }
            .compactMap { ($0["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any] }
        #expect(Set(artifacts.compactMap { $0["uri"] as? String }) == ["app/configs/App.storekit", "app/catalog/products.yaml"])
        #expect(artifacts.allSatisfy { $0["uriBaseId"] as? String == "%SRCROOT%" })
        // A file outside the root is an absolute URI, without a base.
        let outside = SARIFReporter(context: ReportContext(repositoryRoot: "/repo", workingDirectory: "/elsewhere")).artifactURIs(Sample.mixed)
        #expect(outside.allSatisfy { $0.hasPrefix("file:///elsewhere/") }, "\(outside)")
        if SchemaValidator.available { #expect(try SchemaValidator.violations(of: log) == []) }
    }

    @Test(.enabled(if: SchemaValidator.available, "python3 with jsonschema is not installed: .ci/run installs it"))
    func theSchemaCheckCatchesAnInvalidLog() throws {
        // A region with startLine 0 and a result without a message: the validator must object.
        let broken = #"{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"ruleId": "a", "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a"}, "region": {"startLine": 0}}}]}]}]}"#
        let violations = try SchemaValidator.violations(of: broken)
        #expect(violations.count >= 2, "\(violations)")
    }

    @Test func everyRuleIsDescribedWithHelpText() throws {
        let runs = try #require(try document(Sample.consistent)["runs"] as? [[String: Any]])
        let driver = try #require((runs.first?["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "Tally")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.compactMap { $0["id"] as? String } == RuleSet.descriptions.map(\.id.rawValue))
        for rule in rules {
            #expect(((rule["shortDescription"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
            #expect(((rule["fullDescription"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
            let help = rule["help"] as? [String: Any]
            #expect((help?["text"] as? String)?.contains("How to fix:") == true)
            #expect((help?["markdown"] as? String)?.contains("**Why it matters.**") == true)
        }
    }

    @Test func aResultHasRuleLevelMessageAndALocationWithALineOfAtLeastOne() throws {
        let all = try results(Sample.mixed)
        #expect(all.count == Sample.mixed.findings.count)
        let levels = all.compactMap { $0["level"] as? String }
        #expect(levels == Sample.mixed.findings.map { $0.severity == .note ? "note" : $0.severity.rawValue })
        for result in all {
            #expect(result["ruleId"] is String)
            #expect(((result["message"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
            let region = ((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["region"] as? [String: Any]
            #expect((region?["startLine"] as? Int ?? 0) >= 1)
        }
        // The finding known only by a key path gets line 1.
        let pathOnly = try #require(all.last)
        let region = ((pathOnly["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["region"] as? [String: Any]
        #expect(region?["startLine"] as? Int == 1)
        #expect(region?["startColumn"] == nil)
    }

    @Test func theOtherSideIsARelatedLocation() throws {
        let price = try #require(try results(Sample.mixed).first)
        let related = try #require((price["relatedLocations"] as? [[String: Any]])?.first)
        #expect((related["message"] as? [String: Any])?["text"] as? String == "catalog: 5.99 USD")
        let uri = ((related["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])?["uri"] as? String
        #expect(uri == "catalog/products.yaml")
    }

    @Test func fingerprintsIgnoreLinesButNotWhatTheFindingIsAbout() {
        let base = Finding.test(territory: .usa)
        let moved = Finding.test(territory: .usa, left: .test(line: 400, column: 1))
        let otherTerritory = Finding.test(territory: Territory("JPN"))
        let otherProduct = Finding.test(product: "com.example.other", territory: .usa)
        #expect(SARIFReporter.fingerprint(base) == SARIFReporter.fingerprint(moved))
        #expect(SARIFReporter.fingerprint(base) != SARIFReporter.fingerprint(otherTerritory))
        #expect(SARIFReporter.fingerprint(base) != SARIFReporter.fingerprint(otherProduct))
        #expect(SARIFReporter.fingerprint(base).count == 64)
    }

    @Test func pathsBecomeURIReferences() throws {
        let result = CheckResult.test(findings: [.test(left: .test(file: "my configs/App #1.storekit"), right: .test(role: "catalog", file: "/srv/catalog.yaml"))])
        let output = SARIFReporter().report(result)
        #expect(output.contains("\"uri\" : \"my%20configs/App%20%231.storekit\""))
        #expect(output.contains("\"uri\" : \"file:///srv/catalog.yaml\""))
    }

    @Test func withABaselineReportedResultsAreNew() throws {
        var result = Sample.mixed
        result.suppressed.baselineFile = "base.json"
        #expect(try results(result).allSatisfy { $0["baselineState"] as? String == "new" })
        #expect(try results(Sample.mixed).allSatisfy { $0["baselineState"] == nil })
    }
}

extension SARIFReporter {
    /// Every artifact URI in the report of `result`.
    func artifactURIs(_ result: CheckResult) -> [String] {
        let text = report(result)
        guard let document = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let run = (document["runs"] as? [[String: Any]])?.first, let results = run["results"] as? [[String: Any]] else { return [] }
        return results.flatMap { ($0["locations"] as? [[String: Any]] ?? []) + ($0["relatedLocations"] as? [[String: Any]] ?? []) }
            .compactMap { (($0["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])?["uri"] as? String }
    }
}
