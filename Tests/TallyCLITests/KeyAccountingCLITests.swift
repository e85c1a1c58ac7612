import Foundation
import Testing

/// Issue 38 through the binary: a key a reader neither reads nor skips on purpose (here in a
/// Unity IAP catalogue: a root list that may hold products, and a product key) is a warning that
/// names the file, the key and how many entries it holds, in `show`, `lint` and `check`, and in
/// their JSON reports. StoreKit's case is `StoreKit63CLITests`.
@Suite struct KeyAccountingCLITests {
    static let fixtures = CLIRunner.repository.appendingPathComponent("Tests/TallyCLITests/Fixtures/builtin")

    static let rootWarning = "the key \"bundles\" at the top of the file is not one Tally knows and holds 3 entries, which may be products Tally does not read"
    static let productWarning = "the product key \"sparkle\" is not one Tally knows; its value is not read"

    @Test func anUnknownKeyIsAWarningInShowLintAndCheckAndTheirJSON() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["IAPProductCatalog.json", "Lumen.storekit"] {
            try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent(name), to: directory.appendingPathComponent(name))
        }
        let catalogue = directory.appendingPathComponent("IAPProductCatalog.json")
        try CLIRunner.edit(catalogue, replacing: "\"products\":[", with: "\"bundles\":[{\"id\":\"a\"},{\"id\":\"b\"},{\"id\":\"c\"}],\"products\":[")
        try CLIRunner.edit(catalogue, replacing: "\"screenshotPath\":\"\",\"applePriceTier\":5", with: "\"sparkle\":1,\"screenshotPath\":\"\",\"applePriceTier\":5")

        // show: on standard error, with the file, line and column
        let shown = try CLIRunner.run(["show", "IAPProductCatalog.json"], in: directory)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stderr.contains("IAPProductCatalog.json:1:"), "\(shown.stderr)")
        #expect(shown.stderr.contains(Self.rootWarning) && shown.stderr.contains(Self.productWarning), "\(shown.stderr)")

        // lint and check: warnings in the JSON report, naming the file
        for arguments in [["lint", "--no-config", "--format", "json", "IAPProductCatalog.json"],
                          ["check", "--no-config", "--format", "json", "IAPProductCatalog.json", "Lumen.storekit"]] {
            let output = try CLIRunner.run(arguments, in: directory)
            let unknown = findingRecords(try jsonReport(output)).filter { $0["rule"] as? String == "unknown-content" }
            #expect(unknown.compactMap { $0["message"] as? String }.sorted() == [Self.rootWarning, Self.productWarning], "\(arguments[0]): \(unknown)")
            #expect(unknown.allSatisfy { $0["severity"] as? String == "warning" }, "\(arguments[0])")
            #expect(unknown.allSatisfy { ($0["source"] as? [String: Any])?["file"] as? String == "IAPProductCatalog.json" }, "\(arguments[0]): \(unknown)")
        }
        let text = try CLIRunner.run(["check", "--no-config", "IAPProductCatalog.json", "Lumen.storekit"], in: directory)
        #expect(text.stdout.contains("unknown-content  \(Self.rootWarning)"), "\(text.stdout)")
    }
}
