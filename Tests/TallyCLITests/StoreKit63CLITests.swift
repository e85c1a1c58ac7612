import Foundation
import Testing

/// Issue 38: StoreKit 6.3 (Xcode 27) subscription suites and bundles, through the binary. The
/// fixture has the shape of a real 6.3 file seen in a public app repository (a
/// `SubscriptionSuite` in `subscriptionSuiteGroups`, with `duration`, `isFamilyShareable` and
/// `members`), with a bundle group beside it, and its 5.0 predecessor.
@Suite struct StoreKit63CLITests {
    static let fixtures = CLIRunner.repository.appendingPathComponent("Tests/TallyCLITests/Fixtures/storekit63")

    static func copy() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-sk63-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: fixtures, to: directory)
        return directory
    }

    static func products(_ output: CLIRunner.Output) throws -> [String: [String: Any]] {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let list = try #require(document["products"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: list.compactMap { product in (product["id"] as? String).map { ($0, product) } })
    }

    @Test func showListsTheSuiteAndTheBundleWithTheirMembers() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try CLIRunner.run(["show", "--format", "json", "Lumen-6.3.storekit"], in: directory)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.isEmpty, "\(output.stderr)")
        let products = try Self.products(output)
        #expect(products.count == 4)
        #expect(products["com.lumen.suite.yearly"]?["kind"] as? String == "subscription-suite")
        #expect(products["com.lumen.suite.yearly"]?["period"] as? String == "P1Y")
        #expect(products["com.lumen.suite.yearly"]?["family_shareable"] as? Bool == true)
        #expect(products["com.lumen.suite.yearly"]?["members"] as? [String] == ["com.lumen.app.plus.monthly", "com.lumen.notes.pro.monthly"])
        #expect(products["com.lumen.bundle.monthly"]?["kind"] as? String == "subscription-bundle")
        #expect(products["com.lumen.bundle.monthly"]?["members"] as? [String] == ["com.lumen.app.plus.monthly"])
        #expect(products["com.lumen.app.plus.monthly"]?["members"] == nil)
        let text = try CLIRunner.run(["show", "Lumen-6.3.storekit"], in: directory)
        #expect(text.stdout.contains("4 products (1 non-consumable, 1 auto-renewable-subscription, 1 subscription-suite, 1 subscription-bundle), 3 subscription groups"), "\(text.stdout)")
    }

    @Test func checkAgainstTheCatalogueNamesAMemberAndAKindThatDiffer() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let consistent = try CLIRunner.run(["check", "--no-config", "Lumen-6.3.storekit", "catalog.yaml"], in: directory)
        #expect(consistent.status == 0, "\(consistent.stdout)")
        // The member sold by another app of the organisation is a warning in each source, not an error.
        #expect(consistent.stdout.contains("com.lumen.suite.yearly includes com.lumen.notes.pro.monthly, which no product of this source is"))
        // The catalogue drops a member and calls the bundle a plain subscription.
        try CLIRunner.edit(directory.appendingPathComponent("catalog.yaml"), replacing: "members: [com.lumen.app.plus.monthly, com.lumen.notes.pro.monthly]",
                           with: "members: [com.lumen.app.plus.monthly]")
        try CLIRunner.edit(directory.appendingPathComponent("catalog.yaml"), replacing: "kind: subscription-bundle", with: "kind: auto-renewable-subscription")
        let changed = try CLIRunner.run(["check", "--no-config", "--format", "json", "Lumen-6.3.storekit", "catalog.yaml"], in: directory)
        #expect(changed.status == 1, "\(changed.stderr)")
        let errors = findingRecords(try jsonReport(changed)).filter { $0["severity"] as? String == "error" }
            .map { "\($0["rule"] as? String ?? "?") \($0["product"] as? String ?? "-")" }.sorted()
        #expect(errors == ["kind com.lumen.bundle.monthly", "suite-members com.lumen.suite.yearly"])
        let messages = findingRecords(try jsonReport(changed)).compactMap { $0["message"] as? String }
        #expect(messages.contains("com.lumen.suite.yearly includes other subscriptions on each side: com.lumen.notes.pro.monthly only in the configuration"), "\(messages)")
        #expect(messages.contains("com.lumen.bundle.monthly is subscription-bundle in the configuration but auto-renewable-subscription in the catalogue"), "\(messages)")
    }

    @Test func diffAgainstThe50PredecessorShowsTheSuiteAndTheBundle() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try CLIRunner.run(["diff", "Lumen-5.0.storekit", "Lumen-6.3.storekit"], in: directory)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("~ kind: auto-renewable-subscription → subscription-suite"), "\(output.stdout)")
        #expect(output.stdout.contains("+ added: subscription-bundle, 14.99 USD in USA, every 1 month, group \"Lumen Bundle\" level 1"), "\(output.stdout)")
        #expect(output.stdout.contains("~ group: moved from group \"Lumen Plus\" to group \"Lumen Suite\""), "\(output.stdout)")
    }

    /// Issue 47: `diff` compares a suite's and a bundle's members as `check` does (it said "no
    /// changes" where check found 2 errors).
    @Test func diffNamesAMemberDroppedFromTheSuite() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: directory.appendingPathComponent("Lumen-6.3.storekit"), to: directory.appendingPathComponent("next.storekit"))
        try CLIRunner.edit(directory.appendingPathComponent("next.storekit"), replacing: """
                      "members" : [
                        "com.lumen.app.plus.monthly",
                        "com.lumen.notes.pro.monthly"
                      ],
            """, with: """
                      "members" : [
                        "com.lumen.app.plus.monthly"
                      ],
            """)
        let output = try CLIRunner.run(["diff", "--exit-code", "Lumen-6.3.storekit", "next.storekit"], in: directory)
        #expect(output.status == 1, "\(output.stdout) \(output.stderr)")
        #expect(output.stdout.contains("com.lumen.notes.pro.monthly"), "\(output.stdout)")
        #expect(output.stdout.contains("members"), "\(output.stdout)")
        let check = try CLIRunner.run(["check", "--no-config", "Lumen-6.3.storekit", "next.storekit"], in: directory)
        #expect(check.status == 1, "check agrees: \(check.stdout)")
    }

    @Test func convertRoundTripsThroughACatalogueAndWritesTheSameBytesTwice() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try CLIRunner.run(["convert", "Lumen-6.3.storekit", "--to", "tally-catalog-yaml", "-o", "round.yaml"], in: directory).status == 0)
        let yaml = try String(contentsOf: directory.appendingPathComponent("round.yaml"), encoding: .utf8)
        #expect(yaml.contains("kind: subscription-suite") && yaml.contains("members: [com.lumen.app.plus.monthly, com.lumen.notes.pro.monthly]"), "\(yaml)")
        let back = try CLIRunner.run(["convert", "round.yaml", "--to", "storekit", "--storekit-version", "6.3", "-o", "back.storekit"], in: directory)
        #expect(back.status == 0, "\(back.stderr)")
        let written = try String(contentsOf: directory.appendingPathComponent("back.storekit"), encoding: .utf8)
        #expect(written.contains("\"subscriptionSuiteGroups\"") && written.contains("\"type\" : \"SubscriptionSuite\"") && written.contains("\"duration\" : \"P1Y\""))
        #expect(written.contains("\"major\" : 6") && written.contains("\"minor\" : 3"))
        let checked = try CLIRunner.run(["check", "--no-config", "--format", "json", "Lumen-6.3.storekit", "back.storekit"], in: directory)
        #expect(checked.status == 0, "\(checked.stdout)")
        #expect(findingRecords(try jsonReport(checked)).allSatisfy { $0["rule"] as? String == "suite-member" })
        #expect(try CLIRunner.run(["convert", "back.storekit", "--to", "storekit", "--storekit-version", "6.3", "-o", "again.storekit"], in: directory).status == 0)
        #expect(try Data(contentsOf: directory.appendingPathComponent("again.storekit")) == Data(contentsOf: directory.appendingPathComponent("back.storekit")))
        // An older format has no suites: said per product, never dropped without a word.
        let old = try CLIRunner.run(["convert", "Lumen-6.3.storekit", "--to", "storekit", "--storekit-version", "5.0", "-o", "old.storekit"], in: directory)
        #expect(old.stderr.contains("com.lumen.suite.yearly): a subscription-suite left out: StoreKit 5.0 has none (--storekit-version 6.3 keeps it)"), "\(old.stderr)")
        #expect(old.stderr.contains("com.lumen.bundle.monthly): a subscription-bundle left out"), "\(old.stderr)")
    }

    /// What a newer Xcode adds is named with its size, in show, lint and check, never dropped in silence.
    @Test func anUnknownGroupKeyTypeAndVersionAreNamed() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try CLIRunner.edit(directory.appendingPathComponent("Lumen-6.3.storekit"), replacing: "\"subscriptionBundleGroups\" : [",
                           with: "\"subscriptionPassGroups\" : [{\"id\": \"X\", \"subscriptions\": []}, {\"id\": \"Y\"}],\n  \"subscriptionBundleGroups\" : [")
        try CLIRunner.edit(directory.appendingPathComponent("Lumen-6.3.storekit"), replacing: "\"type\" : \"SubscriptionBundle\"", with: "\"type\" : \"SubscriptionPass\"")
        try CLIRunner.edit(directory.appendingPathComponent("Lumen-6.3.storekit"), replacing: "\"minor\" : 3", with: "\"minor\" : 4")
        let shown = try CLIRunner.run(["show", "Lumen-6.3.storekit"], in: directory)
        #expect(shown.status == 0)
        #expect(shown.stderr.contains("the key \"subscriptionPassGroups\" at the top of the file is not one Tally knows and holds 2 entries, which may be products Tally does not read"), "\(shown.stderr)")
        #expect(shown.stderr.contains("product com.lumen.bundle.monthly has the type \"SubscriptionPass\", which Tally does not know"), "\(shown.stderr)")
        #expect(shown.stderr.contains("StoreKit format 6.4 is newer than Tally knows (up to 6.3)"), "\(shown.stderr)")
        let lint = try CLIRunner.run(["lint", "--no-config", "--format", "json", "Lumen-6.3.storekit"], in: directory)
        let unknown = findingRecords(try jsonReport(lint)).filter { $0["rule"] as? String == "unknown-content" }
        #expect(unknown.count == 3)
        #expect(unknown.allSatisfy { $0["severity"] as? String == "warning" })
    }

    @Test func twoIDsThatDifferOnlyByCaseAreAWarning() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try CLIRunner.edit(directory.appendingPathComponent("Lumen-6.3.storekit"), replacing: "\"productID\" : \"com.lumen.app.lifetime\"",
                           with: "\"productID\" : \"com.lumen.App.plus.monthly\"")
        let output = try CLIRunner.run(["lint", "--no-config", "--format", "json", "Lumen-6.3.storekit"], in: directory)
        let cased = findingRecords(try jsonReport(output)).filter { $0["rule"] as? String == "id-case" }
        #expect(cased.count == 1)
        #expect((cased.first?["message"] as? String)?.contains("differs from com.lumen.App.plus.monthly only by case") == true
                || (cased.first?["message"] as? String)?.contains("differs from com.lumen.app.plus.monthly only by case") == true, "\(cased)")
    }
}

/// Every key of every real StoreKit file is read or skipped on purpose: a key a reader neither
/// reads nor lists as ignored would be an `unknown-content` warning, and fails here.
@Suite(.enabled(if: CLIRunner.sharedAvailable, "../shared is absent: the real-world StoreKit key test is skipped"))
struct RealStoreKitKeysTests {
    @Test func noRealStoreKitFileHoldsAKeyTallyDoesNotAccountFor() throws {
        let root = CLIRunner.shared.appendingPathComponent("fixtures/realworld")
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            let full = root.appendingPathComponent(path).path
            if path.hasSuffix(".storekit"), ((try? FileManager.default.attributesOfItem(atPath: full))?[.size] as? NSNumber)?.intValue ?? 0 > 0 {
                files.append(full)
            }
        }
        #expect(files.count >= 25, "\(files.count) real StoreKit files")
        let output = try CLIRunner.run(["lint", "--no-config", "--format", "json"] + files.sorted())
        #expect(output.status == 0, "\(output.stderr)")
        // Soteria's two files were written by hand, not by Xcode (AutoRenewableSubscription in
        // `products`, `identifier`, a group localization's `name`): naming those is the point.
        let handWritten = ["schemes/Soteria/Products.storekit", "schemes/Soteria/soteria/Products.storekit"]
        let all = findingRecords(try jsonReport(output)).filter { $0["rule"] as? String == "unknown-content" }
        func file(_ record: [String: Any]) -> String { ((record["source"] as? [String: Any])?["file"] as? String) ?? "" }
        for name in handWritten { #expect(all.contains { file($0).hasSuffix(name) }, "\(name) is named") }
        let unknown = all.filter { record in !handWritten.contains { file(record).hasSuffix($0) } }
        #expect(unknown.isEmpty, "\(unknown.map { "\(($0["source"] as? [String: Any])?["file"] ?? "?"): \($0["message"] ?? "")" })")
    }
}
