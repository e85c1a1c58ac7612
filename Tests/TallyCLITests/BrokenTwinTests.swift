import Foundation
import Testing

/// For every rule: the shipped example (consistent), with one realistic mistake made in a copy,
/// gives exactly the expected findings through the built `tally` binary.
@Suite struct BrokenTwinTests {
    struct Twin: Sendable, CustomTestStringConvertible {
        var rule: String
        var edits: [(file: String, old: String, new: String)]
        var expected: [String]
        var status: Int32 = 1
        var testDescription: String { rule }
    }

    static let catalog = "catalog/products.yaml"
    static let config = "configs/ExampleApp.storekit"
    static let p = "com.calmly.app."

    static let twins: [Twin] = [
        Twin(rule: "missing-in-catalog / missing-in-config",
             edits: [(catalog, "- id: com.calmly.app.tip.tea", "- id: com.calmly.app.tip_tea")],
             expected: ["missing-in-catalog \(p)tip.tea", "missing-in-config \(p)tip_tea"]),
        Twin(rule: "renamed-product",
             edits: [(catalog, "- id: com.calmly.app.plus.weekly", "- id: com.calmly.app.weekly_plan")],
             expected: ["renamed-product \(p)plus.weekly"]),
        Twin(rule: "kind",
             edits: [(catalog, "- id: com.calmly.app.tip.tea\n    kind: consumable", "- id: com.calmly.app.tip.tea\n    kind: non-consumable")],
             expected: ["kind \(p)tip.tea"]),
        Twin(rule: "price",
             edits: [(catalog, "prices: {USA: \"5.99\"", "prices: {USA: \"6.99\"")],
             expected: ["price \(p)sessions.20"]),
        Twin(rule: "period",
             edits: [(catalog, "period: P3M\n", "period: P6M\n")],
             expected: ["period \(p)plus.quarterly"]),
        Twin(rule: "intro-offer",
             edits: [(catalog, "{type: free-trial, period: P1W}", "{type: free-trial, period: P1M}")],
             expected: ["intro-offer \(p)plus.annual"]),
        Twin(rule: "promo-offer",
             edits: [(catalog, "plus_monthly_comeback, type: pay-as-you-go, period: P1M, count: 2", "plus_monthly_comeback, type: pay-as-you-go, period: P1M, count: 3")],
             expected: ["promo-offer \(p)plus.monthly"]),
        Twin(rule: "group",
             edits: [(catalog, "      - id: com.calmly.app.kids.monthly", "  - id: kids_extra\n    subscriptions:\n      - id: com.calmly.app.kids.monthly")],
             expected: ["group \(p)kids.monthly"]),
        Twin(rule: "level",
             edits: [(catalog, "level: 4", "level: 2")],
             expected: ["level \(p)plus.weekly"]),
        Twin(rule: "family-sharing",
             edits: [(catalog, "name: Lifetime Unlock\n    family_shareable: true", "name: Lifetime Unlock\n    family_shareable: false")],
             expected: ["family-sharing \(p)lifetime"], status: 0),
        Twin(rule: "duplicate-id",
             edits: [(config, "\"productID\" : \"com.calmly.app.sessions.50\"", "\"productID\" : \"com.calmly.app.sessions.20\"")],
             expected: ["duplicate-id \(p)sessions.20", "missing-in-config \(p)sessions.50"]),
        Twin(rule: "invalid-id",
             edits: [(config, "\"com.calmly.app.tip.tea\"", "\"com.calmly.app.tip+tea\""), (catalog, "id: com.calmly.app.tip.tea", "id: com.calmly.app.tip+tea")],
             expected: ["invalid-id \(p)tip+tea", "invalid-id \(p)tip+tea"]),
        Twin(rule: "group-id-mismatch",
             edits: [(config, "\"referenceName\" : \"Calmly Plus Weekly\",\n          \"subscriptionGroupID\" : \"21A4F0C1\"",
                      "\"referenceName\" : \"Calmly Plus Weekly\",\n          \"subscriptionGroupID\" : \"21A4F2D7\"")],
             expected: ["group-id-mismatch \(p)plus.weekly"]),
        Twin(rule: "disallowed-period",
             edits: [(catalog, "period: P1W\n", "period: P5D\n")],
             expected: ["disallowed-period \(p)plus.weekly", "period \(p)plus.weekly"]),
        Twin(rule: "invalid-period",
             edits: [(catalog, "period: P1W\n", "period: weekly\n")],
             expected: ["invalid-period \(p)plus.weekly"]),
        Twin(rule: "invalid-price",
             edits: [(catalog, "JPN: \"300\"", "JPN: \"300 yen\"")],
             expected: ["invalid-price \(p)sessions.5"]),
        Twin(rule: "negative-price",
             edits: [(catalog, "GBR: \"1.99\"", "GBR: \"-1.99\"")],
             expected: ["negative-price \(p)sessions.5"]),
        Twin(rule: "free-trial-with-price",
             edits: [(catalog, "{type: free-trial, period: P3D, count: 1}", "{type: free-trial, period: P3D, count: 1, price: \"0.99\"}")],
             expected: ["free-trial-with-price \(p)plus.weekly"]),
        Twin(rule: "invalid-offer",
             edits: [(config, "\"paymentMode\" : \"free\",\n            \"subscriptionPeriod\" : \"P3D\"", "\"paymentMode\" : \"trial\",\n            \"subscriptionPeriod\" : \"P3D\"")],
             expected: ["intro-offer \(p)plus.weekly", "invalid-offer \(p)plus.weekly"]),
    ]

    @Test func theShippedExampleIsConsistent() throws {
        let output = try CLIRunner.run(["check"])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("consistent"))
    }

    @Test(arguments: twins)
    func brokenTwinGivesExactlyItsFindings(_ twin: Twin) throws {
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        for edit in twin.edits {
            try CLIRunner.edit(directory.appendingPathComponent(edit.file), replacing: edit.old, with: edit.new)
        }
        let output = try CLIRunner.run(["check", "--format", "json"], in: directory)
        #expect(output.status == twin.status, "\(output.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
        let findings = (report?["findings"] as? [[String: Any]]) ?? []
        let got = findings.map { "\($0["rule"] as? String ?? "?") \($0["product"] as? String ?? "-")" }.sorted()
        #expect(got == twin.expected.sorted())
    }

    @Test func aChangedPriceNamesProductTerritoryBothPricesAndBothLocations() throws {
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try CLIRunner.edit(directory.appendingPathComponent(Self.catalog), replacing: "prices: {USA: \"5.99\"", with: "prices: {USA: \"6.49\"")
        let output = try CLIRunner.run(["check"], in: directory)
        #expect(output.status == 1)
        let text = output.stdout
        #expect(text.contains("com.calmly.app.sessions.20"))
        #expect(text.contains("USA"))
        #expect(text.contains("5.99 USD"))
        #expect(text.contains("6.49 USD"))
        #expect(text.contains("configs/ExampleApp.storekit:37:"), "\(text)")
        #expect(text.contains("catalog/products.yaml:36:"), "\(text)")
    }

    @Test func familySharingWarningFailsOnlyWithStrict() throws {
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try CLIRunner.edit(directory.appendingPathComponent(Self.catalog), replacing: "name: Lifetime Unlock\n    family_shareable: true",
                           with: "name: Lifetime Unlock\n    family_shareable: false")
        #expect(try CLIRunner.run(["check"], in: directory).status == 0)
        #expect(try CLIRunner.run(["check", "--strict"], in: directory).status == 1)
    }
}

/// The synthetic workload from ../shared/bench/gen_catalog.py: every injected mismatch is found,
/// and nothing else.
@Suite(.enabled(if: CLIRunner.sharedAvailable, "../shared is absent: the generated-workload test is skipped"))
struct GeneratedWorkloadTests {
    @Test func findsExactlyTheInjectedMismatches() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-gen-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let generator = Process()
        generator.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        generator.arguments = ["python3", CLIRunner.shared.appendingPathComponent("bench/gen_catalog.py").path, directory.path, "--products", "2000"]
        generator.standardOutput = FileHandle.nullDevice
        try generator.run()
        generator.waitUntilExit()
        try #require(generator.terminationStatus == 0)

        let output = try CLIRunner.run(["check", directory.appendingPathComponent("App.storekit").path,
                                        directory.appendingPathComponent("catalog.json").path, "--format", "json", "--no-config"])
        #expect(output.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let got = Set(((report["findings"] as? [[String: Any]]) ?? []).map { "\($0["rule"] as? String ?? "?") \($0["product"] as? String ?? "-")" })
        let expectedData = try Data(contentsOf: directory.appendingPathComponent("expected.json"))
        let expected = Set(((try JSONSerialization.jsonObject(with: expectedData) as? [[String: String]]) ?? []).map { "\($0["rule"] ?? "") \($0["product"] ?? "")" })
        #expect(expected.count == 40)
        #expect(got.subtracting(expected).sorted() == [], "findings that were not injected")
        #expect(expected.subtracting(got).sorted() == [], "injected mismatches that were missed")
    }
}
