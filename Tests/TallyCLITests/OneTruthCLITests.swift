import Foundation
import Testing

/// One judgement per question, whichever command asks it (issue 10), through the built binary:
/// check and diff pair subscription groups alike, a policy file's mistakes come all at once, and
/// positions in an App Store Connect export name the page they are on, in check and in diff.
@Suite struct OneTruthCLITests {
    /// `A` has one group, "Premium" {p1, p2}; `B` splits it into "Basic" {p1} and "premium" {p2}.
    /// Both of B's groups share one member with A's: a tie. "premium" is the same name ignoring
    /// case, so it is A's group; p1 is the subscription that left it. (Before, check broke the tie
    /// by the name ignoring case and blamed p1, while diff compared names exactly, fell back to
    /// the IDs' order and reported p2 as moved.)
    static let a = """
    {
      "format": "tally-catalog/1",
      "default_territory": "USA",
      "subscription_groups": [
        {"id": "ga", "name": "Premium", "subscriptions": [
          {"id": "p1", "name": "P1", "level": 1, "period": "P1M", "prices": {"USA": "9.99"}},
          {"id": "p2", "name": "P2", "level": 2, "period": "P1M", "prices": {"USA": "4.99"}}
        ]}
      ]
    }
    """
    static let b = """
    {
      "format": "tally-catalog/1",
      "default_territory": "USA",
      "subscription_groups": [
        {"id": "b1", "name": "Basic", "subscriptions": [
          {"id": "p1", "name": "P1", "level": 1, "period": "P1M", "prices": {"USA": "9.99"}}
        ]},
        {"id": "b2", "name": "premium", "subscriptions": [
          {"id": "p2", "name": "P2", "level": 2, "period": "P1M", "prices": {"USA": "4.99"}}
        ]}
      ]
    }
    """

    @Test func checkAndDiffPairGroupsThatTieOnMembersAlike() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try Data(Self.a.utf8).write(to: workspace.root.appendingPathComponent("A.json"))
        try Data(Self.b.utf8).write(to: workspace.root.appendingPathComponent("B.json"))

        let check = try workspace.run(["check", "--no-config", "--format", "json", "A.json", "B.json"])
        #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
        let findings = findingRecords(try jsonReport(check)).filter { $0["rule"] as? String == "group" }
        #expect(findings.map { $0["product"] as? String ?? "-" } == ["p1"], "\(check.stdout)")
        let message = try #require(findings.first?["message"] as? String)
        // Groups by their names (b2 is named "premium"), not their IDs.
        #expect(message.contains("its configuration group-mates are in \"premium\" there"), "\(message)")

        let diff = try workspace.run(["diff", "A.json", "B.json", "--format", "json"])
        #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as? [String: Any])
        let changes = try #require((report["diffs"] as? [[String: Any]])?.first?["changes"] as? [[String: Any]])
        let moves = changes.filter { $0["aspect"] as? String == "group" }
        #expect(moves.map { $0["product"] as? String ?? "-" } == ["p1"], "\(diff.stdout)")
        #expect(moves.first.flatMap { ($0["new"] as? [String: Any])?["value"] as? String } == "Basic", "\(diff.stdout)")
        // The group that got its members' majority is A's group renamed, not a new one; "Basic" is new.
        let groups = changes.filter { $0["aspect"] as? String == "subscription-group" }.map { "\($0["action"] as? String ?? "?") \($0["key"] as? String ?? "?")" }
        #expect(groups.sorted() == ["added Basic", "changed Premium"], "\(diff.stdout)")
    }

    /// Levels 1, 2, 2 (p2 and p3 crossgrades) become 1, 2, 3: p3 now ranks below p2. Check's
    /// `level` rule and diff's reordered group ask one `LevelRanking`, so both name the same
    /// subscription, and neither names p1.
    @Test func checkAndDiffAgreeOnWhichSubscriptionMovedInTheRanking() throws {
        func catalogue(_ levels: [Int]) -> String {
            let subscriptions = levels.enumerated().map { index, level in
                "{\"id\": \"p\(index + 1)\", \"name\": \"P\(index + 1)\", \"level\": \(level), \"period\": \"P1M\", \"prices\": {\"USA\": \"\(9 - index).99\"}}"
            }
            return """
            {"format": "tally-catalog/1", "default_territory": "USA",
             "subscription_groups": [{"id": "g", "name": "Plans", "subscriptions": [\(subscriptions.joined(separator: ", "))]}]}
            """
        }
        let workspace = try Workspace()
        defer { workspace.remove() }
        try Data(catalogue([1, 2, 2]).utf8).write(to: workspace.root.appendingPathComponent("A.json"))
        try Data(catalogue([1, 2, 3]).utf8).write(to: workspace.root.appendingPathComponent("B.json"))

        let check = try workspace.run(["check", "--no-config", "--format", "json", "A.json", "B.json"])
        #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
        let moved = findingRecords(try jsonReport(check)).filter { $0["rule"] as? String == "level" }.map { $0["product"] as? String ?? "-" }
        #expect(moved == ["p3"], "\(check.stdout)")

        let diff = try workspace.run(["diff", "A.json", "B.json", "--format", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as? [String: Any])
        let changes = try #require((report["diffs"] as? [[String: Any]])?.first?["changes"] as? [[String: Any]])
        let reordered = changes.filter { change in
            change["aspect"] as? String == "level" && ((change["attention"] as? [String]) ?? []).contains("group-reordered")
        }.map { $0["product"] as? String ?? "-" }
        #expect(reordered == moved, "\(diff.stdout)")
    }

    @Test func everyMistakeOfAPolicyFileIsReportedInOneRun() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try Data("""
        version: 1
        rules:
          prise: warning
          period: loud
        ignore:
          - rule: price
            product: com.calmly.app.tip.tea
        required_territories: [USA, usa]

        """.utf8).write(to: workspace.root.appendingPathComponent("bad.yml"))
        let output = try workspace.run(["check", "--config", "bad.yml"])
        #expect(output.status == 2, "\(output.stdout)\(output.stderr)")
        let errors = output.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(errors.count == 4, "\(output.stderr)")
        #expect(errors.contains { $0.hasPrefix("bad.yml:3:3: error: unknown rule \"prise\"; did you mean \"price\"?") }, "\(output.stderr)")
        #expect(errors.contains { $0.hasPrefix("bad.yml:4:11: error: \"loud\" is not a severity for period") }, "\(output.stderr)")
        #expect(errors.contains { $0.hasPrefix("bad.yml:6:5: error: this ignore has no reason") }, "\(output.stderr)")
        #expect(errors.contains { $0.hasPrefix("bad.yml:8:29: error: \"usa\" is not an App Store storefront code") }, "\(output.stderr)")
    }

    /// The mapping reader too: three mistakes, three located errors, each once.
    @Test func everyMistakeOfAMappingFileIsReportedOnce() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try Data("""
        format: tally-mapping/1
        default_territory: usa
        amounts: cents
        products:
          - at: "items[*]"
        fields:
          id: sku
          kindd: type

        """.utf8).write(to: workspace.root.appendingPathComponent("bad-mapping.yml"))
        try Data(#"{"items": [{"sku": "com.calmly.app.tip.tea"}]}"#.utf8).write(to: workspace.root.appendingPathComponent("server.json"))
        let output = try workspace.run(["check", "--no-config", "server.json", "--mapping", "bad-mapping.yml"])
        #expect(output.status == 2, "\(output.stdout)\(output.stderr)")
        let errors = output.stderr.split(separator: "\n").filter { $0.contains(": error: ") }.map(String.init)
        #expect(errors.map { $0.prefix { $0 != " " } } == ["bad-mapping.yml:2:20:", "bad-mapping.yml:3:10:", "bad-mapping.yml:8:3:"], "\(output.stderr)")
        #expect(errors.last?.contains("unknown key \"kindd\" in fields; did you mean \"kind\"?") == true, "\(output.stderr)")
    }

    /// Two App Store Connect exports (folders of pages): a price changed on one page is placed on
    /// that page and its line, in the text and the JSON diff, and so is check's finding.
    @Test func exportPositionsNameThePageInDiffAndCheck() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let manager = FileManager.default
        let export = CLIRunner.repository.appendingPathComponent("Tests/TallyCLITests/Fixtures/app-store-connect/calmly")
        try manager.copyItem(at: export, to: workspace.root.appendingPathComponent("old"))
        try manager.copyItem(at: export, to: workspace.root.appendingPathComponent("new"))
        let page = "06-subscription-prices-kids-monthly.json"
        // The USA price point (the only one whose ID is followed by a price of 4.99); the price is two lines below the ID.
        let usa = "\"id\": \"eyJzIjoiNjQ1MDAwMDMwMyIsInQiOiJVU0EiLCJwIjoiNDk5In0\",\n      \"attributes\": {\n        \"customerPrice\": "
        let lines = try workspace.replace("new/\(page)", usa + "\"4.99\"", usa + "\"5.99\"")
        let line = try #require(lines.first) + 2
        let oldLine = line

        let text = try workspace.run(["diff", "old", "new"])
        #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
        #expect(text.stdout.contains("new: new/\(page):\(line):"), "\(text.stdout)")
        #expect(text.stdout.contains("old: old/\(page):\(oldLine):"), "\(text.stdout)")

        let json = try workspace.run(["diff", "old", "new", "--format", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let changes = try #require((report["diffs"] as? [[String: Any]])?.first?["changes"] as? [[String: Any]])
        let price = try #require(changes.first { $0["aspect"] as? String == "price" }, "\(json.stdout)")
        let new = try #require(price["new"] as? [String: Any])
        #expect(new["file"] as? String == "new/\(page)")
        #expect(new["line"] as? Int == line)

        let check = try workspace.run(["check", "--no-config", "--format", "json", "configs/ExampleApp.storekit", "new"])
        let finding = try #require(findingRecords(try jsonReport(check)).first { $0["rule"] as? String == "price" }, "\(check.stdout)")
        let catalog = try #require(finding["catalog"] as? [String: Any])
        #expect(catalog["file"] as? String == "new/\(page)")
        #expect(catalog["line"] as? Int == line)
    }
}
