import Foundation
import Testing

/// Issue 21: findings that say what they are and what to do, through the binary.
@Suite struct FindingsSayWhatToDoTests {
    static let sharedMissing = "../shared/fixtures/realworld is absent; the real-world StoreKit lint test is skipped"
    static let realWorld = CLIRunner.shared.appendingPathComponent("fixtures/realworld/storekit")

    /// The JSON report's findings as (rule, severity, file name, line:column) lines, sorted.
    static func findings(_ json: String) throws -> [String] {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let findings = try #require(document["findings"] as? [[String: Any]])
        return findings.map { finding in
            let side = (finding["source"] ?? finding["configuration"]) as? [String: Any] ?? [:]
            let file = (side["file"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } ?? "?"
            return "\(finding["severity"] ?? "") \(finding["rule"] ?? "") \(file):\(side["line"] ?? "-"):\(side["column"] ?? "-")"
        }.sorted()
    }

    /// Every finding `tally lint` gives on the real .storekit files, judged one by one:
    /// - iapdemo's com.rarcher.flowers-large, flowers-small and roses-large have hyphens, which App
    ///   Store Connect accepts ("letters, numbers, hyphens, periods, and underscores", App Store
    ///   Connect Help, In-app purchase information): no `invalid-id`.
    /// - `free-trial-with-price` on skhelper's Gold subscription: Xcode kept the offer's
    ///   displayPrice (0.99) after the offer was switched to a free trial. StoreKit ignores it:
    ///   a warning that says so, not an error.
    /// - revenuecat-rn-tester-winback.storekit has seven products with `"displayPrice" : ""`: Xcode
    ///   writes that for a price never entered; no price, not an `invalid-price`.
    /// - revenuecat-generated-kmp-app201bda4dab.storekit gives three subscription groups one ID
    ///   (6306BD58): they cannot be told apart, a `duplicate-group-id` warning.
    /// - chemsims-empty-Configuration.storekit is 0 bytes, not a configuration Xcode wrote: an
    ///   input error naming the file (exit 2), checked on its own below.
    @Test(.enabled(if: CLIRunner.sharedAvailable, Comment(rawValue: sharedMissing)))
    func realStoreKitFilesEarnNoErrorThatXcodeWrote() throws {
        let all = try FileManager.default.contentsOfDirectory(atPath: Self.realWorld.path).filter { $0.hasSuffix(".storekit") }.sorted()
        #expect(all.count == 24)
        let empty = "chemsims-empty-Configuration.storekit"
        let files = all.filter { $0 != empty }.map { Self.realWorld.appendingPathComponent($0).path }
        // When
        let output = try CLIRunner.run(["lint", "--no-config", "--format", "json"] + files)
        // Then
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try Self.findings(output.stdout) == [
            "warning duplicate-group-id revenuecat-generated-kmp-app201bda4dab.storekit:1:1293",
            "warning free-trial-with-price skhelper-SampleProducts.storekit:155:30",
        ])
        #expect(output.stdout.contains("com.rarcher.subscription.vip.gold has a free trial (introductory offer) that keeps a displayPrice of 0.99 USD: a price left on a free offer, which StoreKit ignores"))
        // Every Xcode-written file passes; --strict still sees the warning.
        let text = try CLIRunner.run(["lint", "--no-config"] + files)
        #expect(text.status == 0, "\(text.stdout)")
        #expect(text.stdout.contains("✔ passed: 0 errors, 2 warnings in 23 sources ("), "\(text.stdout)")
        #expect(try CLIRunner.run(["lint", "--no-config", "--strict"] + files).status == 1)
        // A file with nothing to find says so, not "consistent".
        let clean = try CLIRunner.run(["lint", "--no-config", Self.realWorld.appendingPathComponent("apple-backyardbirds-Store.storekit").path])
        #expect(clean.stdout == "✔ no findings: 9 products checked in 1 source, 0 errors, 0 warnings\n")
        let unreadable = try CLIRunner.run(["lint", "--no-config", Self.realWorld.appendingPathComponent(empty).path])
        #expect(unreadable.status == 2)
        #expect(unreadable.stderr.contains("\(empty): error: the file is empty (0 bytes): nothing to read"))
    }

    @Test func aFreeTrialWithAPriceInACatalogueIsStillAnError() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-free-trial-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("""
            format: tally-catalog/1
            subscription_groups:
              - id: plus
                subscriptions:
                  - id: com.example.plus.monthly
                    period: P1M
                    prices: {USA: "9.99"}
                    introductory_offer: {type: free-trial, period: P1W, price: "0.99"}
            """.utf8).write(to: directory.appendingPathComponent("products.yaml"))
        let output = try CLIRunner.run(["lint", "--no-config", "products.yaml", "--report", "text", "--report", "html:lint.html"], in: directory)
        #expect(output.status == 1)
        let html = try String(contentsOf: directory.appendingPathComponent("lint.html"), encoding: .utf8)
        #expect(html.contains("<h1>Tally lint</h1>"))
        #expect(output.stdout.contains("""
              error  free-trial-with-price  com.example.plus.monthly has a free trial (introductory offer) with a price of 0.99 USD: a free trial costs nothing (use pay-up-front or pay-as-you-go)
                  source: products.yaml:8:68  0.99 USD
            """), "\(output.stdout)")
    }

    @Test func unpricedTerritoryIsOneFindingPerProductNamingItsTerritories() throws {
        // Given: the example catalogue prices 8 territories; the policy requires two more.
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Policy.write("required_territories: [USA, ESP, ITA]\n", to: directory)
        // When
        let text = try CLIRunner.run(["check", "--report", "text", "--report", "json:report.json",
                                      "--report", "markdown:report.md", "--report", "html:report.html"], in: directory)
        // Then: one finding per catalogue product (15), each naming both territories.
        #expect(text.status == 1)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        let unpriced = lines.filter { $0.hasPrefix("  error  unpriced-territory") }
        #expect(unpriced.count == 15, "\(text.stdout)")
        #expect(unpriced.allSatisfy { $0.hasSuffix("has no price in 2 of the 3 territories the policy requires: ESP, ITA") })
        #expect(text.stdout.contains("\n  error  unpriced-territory  com.calmly.app.sessions.5 has no price in 2 of the 3 territories the policy requires: ESP, ITA\n      source: catalog/products.yaml:"))
        let json = try String(contentsOf: directory.appendingPathComponent("report.json"), encoding: .utf8)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let findings = try #require(document["findings"] as? [[String: Any]])
        #expect(findings.count == 15)
        #expect(findings.allSatisfy { (($0["source"] as? [String: Any])?["territories"] as? [String]) == ["ESP", "ITA"] })
        // The fix, once per rule, naming tally explain, in text, Markdown and HTML.
        #expect(lines.filter { $0 == "how to fix:" }.count == 1)
        let fix = "  unpriced-territory: Price the product in those territories (in App Store Connect, or in the catalogue), or take them out of its availability "
            + "or of required_territories; for a product not sold there on purpose, add an ignore with the reason. (more: tally explain unpriced-territory)"
        #expect(lines.filter { $0 == fix }.count == 1, "\(text.stdout)")
        let markdown = try String(contentsOf: directory.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(markdown.contains("#### How to fix\n\n- `unpriced-territory`: Price the product in those territories"))
        #expect(markdown.components(separatedBy: "`tally explain unpriced-territory`").count == 2)
        let html = try String(contentsOf: directory.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.contains("<h2>How to fix</h2>\n<ul data-section=\"fixes\">\n<li data-rule=\"unpriced-territory\"><code>unpriced-territory</code>: Price the product in those territories"))
        #expect(html.components(separatedBy: "<code>tally explain unpriced-territory</code>").count == 2)
    }

    @Test func aBaselinedUnpricedProductIsNewAgainWhenItsTerritoriesChange() throws {
        // Given: a baseline of today's unpriced-territory findings (ESP and ITA for every product).
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Policy.write("required_territories: [USA, ESP, ITA]\n", to: directory)
        #expect(try CLIRunner.run(["check", "--write-baseline", "baseline.json"], in: directory).status == 0)
        #expect(try CLIRunner.run(["check", "--baseline", "baseline.json"], in: directory).status == 0)
        // When: one product gets its Spanish price, so it lacks ITA only.
        try CLIRunner.edit(directory.appendingPathComponent("catalog/products.yaml"),
                           replacing: "prices: {USA: \"1.99\", GBR: \"1.99\"", with: "prices: {ESP: \"1.99\", USA: \"1.99\", GBR: \"1.99\"")
        let output = try CLIRunner.run(["check", "--baseline", "baseline.json"], in: directory)
        // Then: that product's finding is reported anew, naming ITA alone; the others stay suppressed.
        #expect(output.status == 1)
        #expect(output.stdout.contains("has no price in 1 of the 3 territories the policy requires: ITA\n      source: catalog/products.yaml:"), "\(output.stdout)")
        #expect(output.stdout.contains("baseline: 14 known findings suppressed by baseline.json"), "\(output.stdout)")
        #expect(output.stdout.contains("unpriced-territory com.calmly.app.sessions.5: source ESP, ITA"), "\(output.stdout)")
    }

    @Test func pricesComparedForNoProductIsAWarningThatSaysWhy() throws {
        // Given: the example configuration beside a copy for another storefront.
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let other = directory.appendingPathComponent("Britain.storekit")
        try FileManager.default.copyItem(at: directory.appendingPathComponent("configs/ExampleApp.storekit"), to: other)
        try CLIRunner.edit(other, replacing: "\"_storefront\" : \"USA\"", with: "\"_storefront\" : \"GBR\"")
        // When
        let output = try CLIRunner.run(["check", "--no-config", "configs/ExampleApp.storekit", "Britain.storekit"], in: directory)
        // Then: not a bare ✔: a warning naming why no price was compared.
        #expect(output.status == 0)
        #expect(output.stdout.contains("""
            (source)
              warning  prices-not-compared  prices were compared for none of the 15 products in both configs/ExampleApp.storekit and Britain.storekit: \
            ExampleApp.storekit prices storefront USA and Britain.storekit storefront GBR, each in its own currency, and prices of different storefronts are not compared
                  configuration: configs/ExampleApp.storekit:5:24  USA
                  configuration: Britain.storekit:5:24  GBR
            """), "\(output.stdout)")
        #expect(output.stdout.hasSuffix("✔ passed: 0 errors, 1 warning in 2 sources (15 products checked)\n"))
        #expect(!output.stdout.contains("consistent"))
        #expect(try CLIRunner.run(["check", "--no-config", "--strict", "configs/ExampleApp.storekit", "Britain.storekit"], in: directory).status == 1)
    }

    @Test func anOfferMismatchPointsAtTheDifferingValuesNotTheOffersBrace() throws {
        // Given: the catalogue's annual plan gets a two-week trial instead of one.
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = directory.appendingPathComponent("catalog/products.yaml")
        try CLIRunner.edit(catalog, replacing: "introductory_offer: {type: free-trial, period: P1W}", with: "introductory_offer: {type: free-trial, period: P2W}")
        // When
        let output = try CLIRunner.run(["check", "--no-config"], in: directory)
        // Then: each side's line and column are those of its period's value.
        #expect(output.status == 1)
        let config = try String(contentsOf: directory.appendingPathComponent("configs/ExampleApp.storekit"), encoding: .utf8)
        let yaml = try String(contentsOf: catalog, encoding: .utf8)
        let configAt = try #require(Self.position(of: "\"P1W\"", after: "\"internalID\" : \"9B9B1325\"", in: config))
        let catalogAt = try #require(Self.position(of: "P2W", after: "introductory_offer: {type: free-trial, period: P2W}", in: yaml, sameLine: true))
        #expect(output.stdout.contains("""
                  configuration: configs/ExampleApp.storekit:\(configAt)  free trial of 1 week
                  catalog: catalog/products.yaml:\(catalogAt)  free trial of 2 weeks
            """), "\(output.stdout)")
    }

    /// `line:column` (1-based) of the first `needle` on or after the line holding `anchor`.
    static func position(of needle: String, after anchor: String, in text: String, sameLine: Bool = false) -> String? {
        let lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.contains(anchor) }) else { return nil }
        for index in (sameLine ? start : start + 1)..<lines.count {
            if let range = lines[index].range(of: needle) {
                return "\(index + 1):\(lines[index].distance(from: lines[index].startIndex, to: range.lowerBound) + 1)"
            }
        }
        return nil
    }
}
