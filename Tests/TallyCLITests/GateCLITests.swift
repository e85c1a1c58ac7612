import Foundation
import Testing

/// Issue 11, "a gate CI maintainers can trust": through the binary.
@Suite struct GateCLITests {
    static let catalog = "catalog/products.yaml"
    static let storeKit = CLIRunner.shared.appendingPathComponent("fixtures/realworld/storekit")
    static let sharedMissing = "../shared/fixtures/realworld is absent; real-world gate tests are skipped"

    // MARK: 1. A baseline holds values

    @Test func aBaselinedFindingWhoseValueChangesIsNewAndNamesTheNewValue() throws {
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = directory.appendingPathComponent(Self.catalog)
        try CLIRunner.edit(catalog, replacing: "prices: {USA: \"5.99\"", with: "prices: {USA: \"6.49\"")
        #expect(try CLIRunner.run(["check", "--write-baseline", "b.json"], in: directory).status == 0)
        let data = try Data(contentsOf: directory.appendingPathComponent("b.json"))
        let baseline = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let entry = try #require((baseline["findings"] as? [[String: Any]])?.first)
        #expect(entry["values"] as? [String: String] == ["configuration": "5.99 USD", "catalog": "6.49 USD"])
        #expect(try CLIRunner.run(["check", "--baseline", "b.json"], in: directory).status == 0)

        // When: the catalogue's wrong value changes to another wrong value.
        try CLIRunner.edit(catalog, replacing: "prices: {USA: \"6.49\"", with: "prices: {USA: \"64.90\"")
        let output = try CLIRunner.run(["check", "--baseline", "b.json"], in: directory)
        // Then: a new finding, naming 64.90; nothing is "suppressed", and the entry is named.
        #expect(output.status == 1, "\(output.stdout)")
        #expect(output.stdout.contains("com.calmly.app.sessions.20 costs 5.99 USD in USA in the configuration but 64.90 USD in the catalogue"), "\(output.stdout)")
        #expect(!output.stdout.contains("1 known finding suppressed"))
        #expect(output.stdout.contains("baseline: 0 known findings suppressed by b.json"))
        #expect(output.stdout.contains("  recorded: price com.calmly.app.sessions.20 (USA): catalog 6.49 USD, configuration 5.99 USD"), "\(output.stdout)")
        #expect(!output.stdout.contains("no longer occurs"), "the finding occurs; its value changed")
    }

    @Test func aStaleEntryIsListedAndFailsWithStrictOrFailOnWarning() throws {
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = directory.appendingPathComponent(Self.catalog)
        try CLIRunner.edit(catalog, replacing: "prices: {USA: \"5.99\"", with: "prices: {USA: \"6.49\"")
        #expect(try CLIRunner.run(["check", "--write-baseline", "b.json"], in: directory).status == 0)
        try CLIRunner.edit(catalog, replacing: "prices: {USA: \"6.49\"", with: "prices: {USA: \"5.99\"")

        let plain = try CLIRunner.run(["check", "--baseline", "b.json"], in: directory)
        #expect(plain.status == 0, "a fixed finding is good news: \(plain.stdout)")
        #expect(plain.stdout.contains("baseline: 1 entry no longer occurs"))
        #expect(plain.stdout.contains("  stale: price com.calmly.app.sessions.20 (USA): catalog 6.49 USD, configuration 5.99 USD"), "\(plain.stdout)")
        #expect(plain.stdout.contains("entries that match no finding fail the check with --strict or fail_on: warning"))

        let strict = try CLIRunner.run(["check", "--baseline", "b.json", "--strict"], in: directory)
        #expect(strict.status == 1, "\(strict.stdout)")
        #expect(strict.stdout.contains("  stale: price com.calmly.app.sessions.20 (USA)"))
        #expect(strict.stdout.contains("✘ 0 errors, 0 warnings, 1 stale baseline entry in 2 sources"), "the summary says why it fails: \(strict.stdout)")
        #expect(plain.stdout.contains("✔ consistent: 15 products checked in 2 sources, 0 errors, 0 warnings, 1 stale baseline entry"), "\(plain.stdout)")

        try Policy.write("fail_on: warning\nbaseline: b.json\n", to: directory)
        #expect(try CLIRunner.run(["check"], in: directory).status == 1)
    }

    @Test func anOldEntryWithoutValuesMatchesByKey() throws {
        // A baseline written before values were recorded: the key alone suppresses the finding,
        // whatever its values (README, "Baseline").
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try CLIRunner.edit(directory.appendingPathComponent(Self.catalog), replacing: "prices: {USA: \"5.99\"", with: "prices: {USA: \"64.90\"")
        let old = #"{"version": 1, "findings": [{"rule": "price", "product": "com.calmly.app.sessions.20", "field": "prices", "territory": "USA"}]}"#
        try Data(old.utf8).write(to: directory.appendingPathComponent("old.json"))
        let output = try CLIRunner.run(["check", "--baseline", "old.json"], in: directory)
        #expect(output.status == 0, "\(output.stdout)")
        #expect(output.stdout.contains("baseline: 1 known finding suppressed by old.json"))
        // Without the baseline, the same run fails: the test can fail.
        #expect(try CLIRunner.run(["check"], in: directory).status == 1)
    }

    // MARK: 2. Values dropped without a word

    @Test func everyReadingCommandTellsAboutAValueItCouldNotTake() throws {
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let huge = String(repeating: "9", count: 60)
        let config = directory.appendingPathComponent("configs/ExampleApp.storekit")
        let text = try String(contentsOf: config, encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let line = try #require(lines.firstIndex { $0.contains("\"displayPrice\" : \"5.99\"") }) + 1
        let column = try #require(lines[line - 1].range(of: "\"5.99\"")).lowerBound.utf16Offset(in: lines[line - 1]) + 1
        try CLIRunner.edit(config, replacing: "\"displayPrice\" : \"5.99\"", with: "\"displayPrice\" : \"\(huge)\"")
        let place = "configs/ExampleApp.storekit:\(line):\(column): warning: com.calmly.app.sessions.20: displayPrice \"\(huge)\" is out of range: 60 digits"
        let commands: [[String]] = [
            ["show", "configs/ExampleApp.storekit"],
            ["check", "--no-config", "configs/ExampleApp.storekit", Self.catalog],
            ["diff", Self.catalog, "configs/ExampleApp.storekit"],
            ["convert", "configs/ExampleApp.storekit", "--to", "tally-catalog-yaml", "--output", "out.yaml"],
            ["lint", "configs/ExampleApp.storekit"],
        ]
        for command in commands {
            let output = try CLIRunner.run(command, in: directory)
            #expect(output.stderr.contains(place), "\(command[0]): \(output.stderr)")
            #expect(output.stderr.contains("the value was not taken (invalid-price)"), "\(command[0])")
            #expect(!output.stderr.contains("not a decimal"), "\(command[0])")
        }
        let lint = try CLIRunner.run(["lint", "configs/ExampleApp.storekit"], in: directory)
        #expect(lint.status == 1)
        #expect(lint.stdout.contains("is out of range: 60 digits, more than the 38 a decimal holds exactly"), "\(lint.stdout)")
        // A value that is not a number at all still says so.
        try CLIRunner.edit(config, replacing: "\"displayPrice\" : \"\(huge)\"", with: "\"displayPrice\" : \"5,99\"")
        let comma = try CLIRunner.run(["show", "configs/ExampleApp.storekit"], in: directory)
        #expect(comma.stderr.contains("displayPrice \"5,99\" is not a decimal number; the value was not taken"), "\(comma.stderr)")
        // A clean source says nothing.
        #expect(try CLIRunner.run(["show", Self.catalog], in: directory).stderr.isEmpty)
    }

    // MARK: 3. The coverage line

    @Test func theCoverageLineSaysWhatWasComparedForHowManyProducts() throws {
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A catalogue that never states family sharing or promotional offers.
        let catalog = directory.appendingPathComponent(Self.catalog)
        var text = try String(contentsOf: catalog, encoding: .utf8)
        text = text.components(separatedBy: "\n").filter { !$0.contains("family_shareable:") }.joined(separator: "\n")
        text = text.replacingOccurrences(of: #"(?m)^        promotional_offers:\n(          - .*\n)+"#, with: "", options: .regularExpression)
        #expect(!text.contains("promotional_offers") && !text.contains("family_shareable"))
        try text.write(to: catalog, atomically: true, encoding: .utf8)

        let output = try CLIRunner.run(["check", "--no-config"], in: directory)
        #expect(output.status == 0, "\(output.stdout)")
        let line = try #require(output.stdout.components(separatedBy: "\n").first { $0.hasPrefix("compared: ") })
        #expect(line.contains("15 products in both; compared IDs, kind (15), prices (15), period (8), introductory-offer (8), group (8), level (8); "), "\(line)")
        #expect(!line.contains("family-sharing (") && !line.contains("promotional-offers ("), "\(line)")
        #expect(line.contains("skipped family-sharing: the tally-catalog/1 file states family-sharing flags for none of the 15 products in both"), "\(line)")
        #expect(line.contains("promotional-offers: the tally-catalog/1 file states promotional offers for none of the 8 subscriptions in both"), "\(line)")

        // The shipped example: promotional offers stated for some subscriptions only.
        let example = try CLIRunner.run(["check", "--no-config"], in: CLIRunner.exampleCopy())
        #expect(example.stdout.contains("promotional-offers (4 of 8: not stated by the catalogue for 4)"), "\(example.stdout)")
    }

    // MARK: 4. Promotional offers on one side only

    /// The subscriptions of a tally-catalog/1 JSON document, as (group index, subscription index).
    static func subscriptions(_ document: [String: Any]) -> [(Int, Int)] {
        let groups = document["subscription_groups"] as? [[String: Any]] ?? []
        return groups.indices.flatMap { group in
            (groups[group]["subscriptions"] as? [[String: Any]] ?? []).indices.map { (group, $0) }
        }
    }

    static func editing(_ document: [String: Any], _ at: (Int, Int), _ change: (inout [String: Any]) -> Void) -> [String: Any] {
        var document = document
        var groups = document["subscription_groups"] as? [[String: Any]] ?? []
        var subscriptions = groups[at.0]["subscriptions"] as? [[String: Any]] ?? []
        change(&subscriptions[at.1])
        groups[at.0]["subscriptions"] = subscriptions
        document["subscription_groups"] = groups
        return document
    }

    @Test(.enabled(if: CLIRunner.sharedAvailable, Comment(rawValue: sharedMissing)))
    func aPromotionalOfferOnOneSideOnlyIsAFindingOnRealRevenueCatFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-gate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.storeKit.path).filter { $0.hasPrefix("revenuecat-") }.sorted()
        #expect(files.count >= 5)
        var added = 0, dropped = 0
        for file in files {
            let source = Self.storeKit.appendingPathComponent(file).path
            let converted = try CLIRunner.run(["convert", source, "--to", "tally-catalog-json", "--output", "base.json"], in: directory)
            #expect(converted.status == 0, "\(file): \(converted.stderr)")
            #expect(try CLIRunner.run(["check", "--no-config", source, "base.json"], in: directory).status == 0, "\(file): the converted twin agrees")
            let data = try Data(contentsOf: directory.appendingPathComponent("base.json"))
            let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let subscriptions = Self.subscriptions(document)
            func subscription(_ at: (Int, Int)) -> [String: Any] {
                let groups = document["subscription_groups"] as? [[String: Any]] ?? []
                return (groups[at.0]["subscriptions"] as? [[String: Any]] ?? [])[at.1]
            }
            // The catalogue adds an offer the configuration lacks.
            // (convert writes `promotional_offers: []` where the configuration has none.)
            if let at = subscriptions.first(where: { (subscription($0)["promotional_offers"] as? [Any])?.isEmpty ?? true }) {
                let twin = Self.editing(document, at) { $0["promotional_offers"] = [["id": "tally.added", "type": "free-trial", "period": "P1W"]] }
                try JSONSerialization.data(withJSONObject: twin, options: [.sortedKeys]).write(to: directory.appendingPathComponent("twin.json"))
                let output = try CLIRunner.run(["check", "--no-config", source, "twin.json", "--format", "json"], in: directory)
                #expect(output.status == 1, "\(file): \(output.stdout)")
                let report = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
                let id = subscription(at)["id"] as? String ?? "?"
                #expect(ruleProducts(report).filter { !$0.hasPrefix("duplicate-group-id") } == ["promo-offer \(id)"], "\(file)")
                added += 1
            }
            // The catalogue drops the configuration's only offer (an empty list).
            if let at = subscriptions.first(where: { (subscription($0)["promotional_offers"] as? [Any])?.count == 1 }) {
                let twin = Self.editing(document, at) { $0["promotional_offers"] = [Any]() }
                try JSONSerialization.data(withJSONObject: twin, options: [.sortedKeys]).write(to: directory.appendingPathComponent("twin.json"))
                let output = try CLIRunner.run(["check", "--no-config", source, "twin.json", "--format", "json"], in: directory)
                #expect(output.status == 1, "\(file): \(output.stdout)")
                let report = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
                let id = subscription(at)["id"] as? String ?? "?"
                #expect(ruleProducts(report).filter { !$0.hasPrefix("duplicate-group-id") } == ["promo-offer \(id)"], "\(file)")
                dropped += 1
            }
        }
        #expect(added >= 5 && dropped >= 3, "added \(added), dropped \(dropped)")
    }

    // MARK: 5. Levels compare the ranking

    @Test func levelsShiftedInTheSameOrderAreAWarningWithItsOwnWording() throws {
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = directory.appendingPathComponent(Self.catalog)
        for level in (1...4).reversed() {
            var text = try String(contentsOf: catalog, encoding: .utf8)
            text = text.replacingOccurrences(of: "        level: \(level)\n", with: "        level: \(level + 1)\n")
            try text.write(to: catalog, atomically: true, encoding: .utf8)
        }
        let output = try CLIRunner.run(["check", "--no-config", "--format", "json"], in: directory)
        #expect(output.status == 0, "a renumbering alone does not fail: \(output.stdout)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let found = findingRecords(report)
        #expect(found.count == 5)
        #expect(found.allSatisfy { $0["rule"] as? String == "level-number" && $0["severity"] as? String == "warning" })
        #expect(found.allSatisfy { ($0["message"] as? String ?? "").contains("only the numbers differ") })
        #expect(try CLIRunner.run(["check", "--no-config", "--strict"], in: directory).status == 1)
    }

    @Test func aSwapIsOneRankingErrorPerMovedSubscription() throws {
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = directory.appendingPathComponent(Self.catalog)
        // The family plan (1) and the annual plan (2) swap places.
        try CLIRunner.edit(catalog, replacing: "name: Calmly Plus Family Annual\n        level: 1\n", with: "name: Calmly Plus Family Annual\n        level: 2\n")
        try CLIRunner.edit(catalog, replacing: "name: Calmly Plus Annual\n        level: 2\n", with: "name: Calmly Plus Annual\n        level: 1\n")
        let output = try CLIRunner.run(["check", "--no-config", "--format", "json"], in: directory)
        #expect(output.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let found = findingRecords(report)
        #expect(found.count == 1, "one message per moved subscription: \(found)")
        let message = try #require(found.first?["message"] as? String)
        #expect(found.first?["rule"] as? String == "level")
        #expect(message.contains("in the configuration (level ") && message.contains(") but ") && message.contains(" it in the catalogue (level "), "\(message)")
        #expect(message.contains("ranks above com.calmly.app.plus.annual") || message.contains("ranks below com.calmly.app.plus.family_annual"), "\(message)")
        #expect(!message.contains("the order is the same"))
    }

    // MARK: 10. Two .storekit files for different storefronts

    @Test(.enabled(if: CLIRunner.sharedAvailable, Comment(rawValue: sharedMissing)))
    func twoStoreKitFilesOfDifferentStorefrontsAreNotComparedByPrice() throws {
        let us = Self.storeKit.appendingPathComponent("chemsims-USConfig.storekit").path
        let co = Self.storeKit.appendingPathComponent("chemsims-ColombiaConfig.storekit").path
        let output = try CLIRunner.run(["check", "--no-config", us, co])
        #expect(!output.stdout.contains("no USA price"), "\(output.stdout)")
        // The findings (not the rules' fix texts after "how to fix:") never call either file the catalogue.
        let findings = output.stdout.components(separatedBy: "how to fix:").first ?? output.stdout
        #expect(!findings.contains("the catalogue"), "neither file is a catalogue: \(output.stdout)")
        #expect(output.stdout.contains("chemsims-USConfig.storekit prices storefront USA and chemsims-ColombiaConfig.storekit storefront COL, each in its own currency: prices of different storefronts are not compared"), "\(output.stdout)")
        #expect(output.stdout.contains("(storefront COL): 8 products in both; compared IDs, kind (8), family-sharing (8)"), "\(output.stdout)")
        // What differs besides prices is still found, naming the files.
        #expect(output.stdout.contains("tip_5 is in chemsims-USConfig.storekit but not in chemsims-ColombiaConfig.storekit"), "\(output.stdout)")
        #expect(output.status == 1)
    }
}
