import Foundation
import Testing

/// `tally convert` through the built binary: the issue's "must show" runs.
@Suite struct ConvertCLITests {
    static let realWorld = CLIRunner.shared.appendingPathComponent("fixtures/realworld")
    static let sharedMissing = "../shared/fixtures/realworld is absent; real-world conversions are skipped"

    /// Every real-world StoreKit file, property list and App Store package Tally reads.
    static var realWorldFiles: [String] {
        guard CLIRunner.sharedAvailable else { return [] }
        return ["storekit", "plist", "xml"].flatMap { folder -> [String] in
            let directory = realWorld.appendingPathComponent(folder)
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
            return names.filter { !$0.contains("empty") }.map { directory.appendingPathComponent($0).path }
        }
    }

    static func temporary() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-convert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("convert to a catalogue, then check: exit 0 (or only the source's own lint findings)",
          .enabled(if: CLIRunner.sharedAvailable, Comment(rawValue: sharedMissing)), arguments: realWorldFiles)
    func realWorldToCatalogue(_ path: String) throws {
        // Run where a user would, away from this repository's .tally.yml.
        let directory = try Self.temporary()
        defer { try? FileManager.default.removeItem(at: directory) }
        let convert = try CLIRunner.run(["convert", path, "--to", "tally-catalog-yaml", "-o", "c.yaml"], in: directory)
        #expect(convert.status == 0, "\(convert.stderr)")
        #expect(convert.stdout.isEmpty)
        let check = try CLIRunner.run(["check", path, "c.yaml"], in: directory)
        let lint = try CLIRunner.run(["lint", path], in: directory)
        if lint.status == 0 {
            #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        } else {
            // A source that fails lint on its own fails check too: the catalogue repeats its
            // values faithfully, and adds no finding of its own.
            let report = try CLIRunner.run(["check", path, "c.yaml", "--format", "json"], in: directory)
            let findings = try Self.findings(report.stdout)
            #expect(findings.filter { $0["source"] == nil }.isEmpty, "comparison findings: \(findings)")
            let own = Set(findings.filter { ($0["file"] ?? "") == path }.map { "\($0["rule"] ?? "") \($0["product"] ?? "")" })
            let added = findings.filter { ($0["file"] ?? "") != path }.map { "\($0["rule"] ?? "") \($0["product"] ?? "")" }
            #expect(added.allSatisfy(own.contains), "\(added)")
        }
    }

    /// Findings of a JSON report as rule, product, file and source (set for lint findings).
    static func findings(_ json: String) throws -> [[String: String]] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return (object?["findings"] as? [[String: Any]] ?? []).map { finding in
            var result: [String: String] = ["rule": finding["rule"] as? String ?? "", "product": finding["product"] as? String ?? ""]
            if let source = finding["source"] as? [String: Any] {
                result["source"] = "yes"
                result["file"] = source["file"] as? String
            }
            return result
        }
    }

    @Test("a catalogue converted to StoreKit checks against it; Python reads the JSON; the top-level keys are Xcode's",
          .enabled(if: CLIRunner.sharedAvailable, Comment(rawValue: sharedMissing)))
    func catalogueToStoreKit() throws {
        let directory = try Self.temporary()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = Self.realWorld.appendingPathComponent("storekit/apple-backyardbirds-Store.storekit").path
        let catalogue = directory.appendingPathComponent("c.yaml").path
        let storekit = directory.appendingPathComponent("App.storekit").path
        #expect(try CLIRunner.run(["convert", source, "--to", "tally-catalog-yaml", "-o", catalogue]).status == 0)
        let convert = try CLIRunner.run(["convert", catalogue, "--to", "storekit", "-o", storekit])
        #expect(convert.status == 0, "\(convert.stderr)")
        let check = try CLIRunner.run(["check", storekit, catalogue], in: directory)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let back = try CLIRunner.run(["check", source, storekit], in: directory)
        #expect(back.status == 0, "\(back.stdout)\(back.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: storekit))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect(object.map { $0.keys.sorted() } == ["appPolicies", "identifier", "nonRenewingSubscriptions", "products", "settings",
                                                     "subscriptionGroups", "version"])
        // Stable: the same bytes a second time.
        let again = directory.appendingPathComponent("again.storekit").path
        #expect(try CLIRunner.run(["convert", catalogue, "--to", "storekit", "-o", again]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: again)) == data)
    }

    @Test func pythonReadsTheStoreKitFile() throws {
        let directory = try Self.temporary()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storekit = directory.appendingPathComponent("App.storekit").path
        #expect(try CLIRunner.run(["convert", "catalog/products.yaml", "--to", "storekit", "-o", storekit]).status == 0)
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", "import json, sys; json.load(open(sys.argv[1]))", storekit]
        guard (try? python.run()) != nil else { return }
        python.waitUntilExit()
        #expect(python.terminationStatus == 0)
    }

    @Test("what the target cannot hold is said on standard error")
    func lossesAreNamed() throws {
        let result = try CLIRunner.run(["convert", "catalog/products.yaml", "--to", "storekit"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("{\n  \"appPolicies\" : {"))
        #expect(result.stderr.contains("other storefronts than USA"), "\(result.stderr)")
        let csv = try CLIRunner.run(["convert", "configs/ExampleApp.storekit", "--to", "csv"])
        #expect(csv.status == 0)
        #expect(csv.stdout.hasPrefix("product_id,kind,group,level,period,territory,price,intro_type,intro_period,intro_count,intro_price\n"))
        #expect(csv.stderr.contains("localizations left out"))
    }

    @Test("a property list of IDs becomes a catalogue of IDs that says so")
    func propertyListKnowsOnlyIDs() throws {
        let directory = try Self.temporary()
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict><key>Products</key><array>
          <string>com.example.coins</string><string>com.example.pro</string>
        </array></dict></plist>
        """.write(to: directory.appendingPathComponent("Products.plist"), atomically: true, encoding: .utf8)
        let result = try CLIRunner.run(["convert", "Products.plist", "--to", "tally-catalog-yaml", "-o", "c.yaml"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOf: directory.appendingPathComponent("c.yaml"), encoding: .utf8)
        #expect(text.contains("known_fields: [id]\n"), "\(text)")
        #expect(text.contains("  - {id: com.example.coins}\n"), "\(text)")
        #expect(!text.contains("kind:"))
        let check = try CLIRunner.run(["check", "Products.plist", "c.yaml"], in: directory)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        // Back to StoreKit: the kind the source never gave is named on standard error.
        let storekit = try CLIRunner.run(["convert", "c.yaml", "--to", "storekit"], in: directory)
        #expect(storekit.status == 0)
        #expect(storekit.stderr.contains("does not say the kind"), "\(storekit.stderr)")
    }

    @Test("a catalogue with five mistakes reports five located errors in one run")
    func everyMistakeInOneRun() throws {
        let directory = try Self.temporary()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("c.yaml")
        try """
        products:
          - id: com.example.coins
            price: {USA: "0.99"}
          - id: com.example.pro
            kind: non-consumable
            prices: {USA: "4.99", usa: "4.99"}
        subscription_groups:
          - id: premium
            subscriptions:
              - id: com.example.premium
                perod: P1M
        """.write(to: file, atomically: true, encoding: .utf8)
        let result = try CLIRunner.run(["check", "configs/ExampleApp.storekit", file.path])
        #expect(result.status == 2)
        let errors = result.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(errors.count == 5, "\(result.stderr)")
        #expect(errors.contains { $0.contains("c.yaml:1:1: error: missing \"format: tally-catalog/1\"") })
        #expect(errors.contains { $0.contains("c.yaml:3:5: error: unknown key \"price\" in a product; did you mean \"prices\"?") })
        #expect(errors.contains { $0.contains("c.yaml:2:5: error: product com.example.coins has no kind") })
        #expect(errors.contains { $0.contains(":6:") && $0.contains("\"usa\" is not an App Store storefront code") })
        #expect(errors.contains { $0.contains("c.yaml:11:9: error: unknown key \"perod\" in a subscription; did you mean \"period\"?") })
    }
}
