import Foundation
import TallyReport
import TallyTesting
import Testing

/// Issue 34 through the built binary: `init` then `check` in trimmed real app repositories
/// (`../shared/fixtures/realworld/apps/`), as a new user runs them.
@Suite(.enabled(if: CLIRunner.sharedAvailable, "../shared is absent: the real app layouts are skipped"))
struct RealAppRepositoryTests {
    static let apps = CLIRunner.shared.appendingPathComponent("fixtures/realworld/apps")

    /// A repository and the product files `init` must propose (configurations, then catalogues),
    /// read from SOURCES.tsv's description of each file; none where it must write nothing.
    struct Layout: Sendable, CustomTestStringConvertible {
        var name: String
        var proposed: [String]
        var testDescription: String { name }
    }

    static let layouts: [Layout] = [
        // The Unity IAP catalogue and the Play Console CSV exported from it.
        Layout(name: "avvault-unity-codeless", proposed: ["Assets/Resources/IAPProductCatalog.json", "GooglePlayProductCatalog.csv"]),
        // Two copies of one StoreKit file; ten plists of the app (Info, entitlements, Firebase, export options) are none.
        Layout(name: "fikr-flutter-orphan-storekit", proposed: ["Products.storekit", "ios/Products.storekit"]),
        // Product IDs in .env and code only: no product file (the code is proposed, its calls not followed).
        Layout(name: "podverse-react-native", proposed: []),
        // One StoreKit file beside the app's Info.plist, entitlements and Xcode's user-data plists.
        Layout(name: "sectorzero-ios-swift", proposed: ["Products.storekit"]),
        // Play Billing code builds its IDs at run time: no product file.
        Layout(name: "tasks-android-kotlin", proposed: []),
        // An Adapty version-1 fallback (the app's only product list, read since issue 38) and Flutter's plists.
        Layout(name: "wisdom-flutter-adapty", proposed: ["assets/fallback_ios.json"]),
    ]

    @Test func everyLayoutHasARow() throws {
        let present = try FileManager.default.contentsOfDirectory(atPath: Self.apps.path).filter { !$0.hasPrefix(".") }.sorted()
        #expect(present == Self.layouts.map(\.name).sorted(), "a new app layout needs its row in RealAppRepositoryTests.layouts")
    }

    /// A scratch copy of a layout, so that `init` writes beside it and never into shared/.
    static func copy(_ name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-app-\(name)-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: apps.appendingPathComponent(name), to: directory)
        return directory
    }

    /// The product IDs a source holds, as `tally show --format json` reads them.
    static func productIDs(_ file: String, in directory: URL) throws -> Set<String> {
        let shown = try CLIRunner.run(["show", "--format", "json", file], in: directory)
        #expect(shown.status == 0, "\(file): \(shown.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        let products = try #require(document["products"] as? [[String: Any]])
        return Set(products.compactMap { $0["id"] as? String })
    }

    @Test(arguments: layouts)
    func initProposesOnlyProductFilesAndTheCheckIsTrue(_ layout: Layout) throws {
        let directory = try Self.copy(layout.name)
        defer { try? FileManager.default.removeItem(at: directory) }
        // When
        let initialised = try CLIRunner.run(["init"], in: directory)
        // Then: init proposes exactly the product files
        #expect(initialised.status == 0, "\(initialised.stderr)")
        let policyFile = directory.appendingPathComponent(".tally.yml")
        guard !layout.proposed.isEmpty else {
            // No product file, and code whose calls build their IDs at run time (issue 49): init
            // proposes the code and names each call it could not follow; check is never green.
            #expect(initialised.stdout.contains("  code:") && initialised.stdout.contains("  not followed:"), "\(initialised.stdout)")
            #expect(initialised.stdout.contains("name the IDs with ids: REGEX under code:"), "\(initialised.stdout)")
            let checked = try CLIRunner.run(["check"], in: directory)
            #expect(checked.status == 3, "\(checked.stdout) \(checked.stderr)")
            #expect(checked.stdout.contains("✘ nothing checked: the code asks for products with IDs Tally cannot follow"), "\(checked.stdout)")
            return
        }
        let lines = initialised.stdout.split(separator: "\n").map(String.init)
        func listed(_ label: String) -> [String] {
            guard let line = lines.first(where: { $0.hasPrefix("  \(label)") }) else { return [] }
            let value = line.dropFirst(label.count + 2).trimmingCharacters(in: .whitespaces)
            return value.hasPrefix("none found") ? [] : value.components(separatedBy: ", ")
        }
        #expect(listed("configurations:") + listed("catalogues:") == layout.proposed, "\(initialised.stdout)")
        #expect(!initialised.stdout.contains("unreadable:"), "\(initialised.stdout)")
        let policy = try String(contentsOf: policyFile, encoding: .utf8)
        for name in ["Info.plist", "entitlements", "xcscheme", "GoogleService", "AppFrameworkInfo", "IDEWorkspaceChecks", "ExportOptions", "xcprivacy", "pubspec"] {
            #expect(!policy.contains(name), "\(name) proposed: \(policy)")
        }
        // And check, as init set it up, ends on findings or none (never an input error), each
        // finding about a product that a product file of the repository holds.
        let checked = try CLIRunner.run(["check", "--format", "json"], in: directory)
        #expect(checked.status == 0 || checked.status == 1, "\(checked.stdout)\(checked.stderr)")
        var held = Set<String>()
        for file in layout.proposed { held.formUnion(try Self.productIDs(file, in: directory)) }
        #expect(!held.isEmpty)
        for finding in findingRecords(try jsonReport(checked)) {
            let product = finding["product"] as? String ?? "-"
            #expect(held.contains(product), "a finding about \(product), which no product file holds: \(finding["message"] ?? "")")
        }
        // The 'next' step init printed is true: check ran with no arguments.
        #expect(initialised.stdout.contains("next: 'tally check' (no arguments needed)"))
    }
}

/// Issue 34: N sources compared symmetrically; the nearest policy; TallyAssert and check agree.
@Suite struct SymmetricComparisonTests {
    /// Three sources: two StoreKit copies (of one name, in two folders) and the app's product
    /// list, which lacks three products both StoreKit files sell.
    static func threeCopies() throws -> Workspace {
        let workspace = try Workspace()
        let manager = FileManager.default
        try manager.createDirectory(at: workspace.root.appendingPathComponent("app"), withIntermediateDirectories: true)
        try manager.copyItem(at: workspace.root.appendingPathComponent("configs/ExampleApp.storekit"),
                             to: workspace.root.appendingPathComponent("app/ExampleApp.storekit"))
        let lacking = ["com.calmly.app.sessions.20", "com.calmly.app.sessions.50", "com.calmly.app.tip.tea"]
        for id in lacking {
            let text = try workspace.text("plist/CalmlyProducts.plist")
            let start = try #require(text.range(of: "\t\t<dict>\n\t\t\t<key>ProductId</key>\n\t\t\t<string>\(id)</string>"))
            let end = try #require(text.range(of: "\t\t</dict>\n", range: start.upperBound..<text.endIndex))
            try workspace.replace("plist/CalmlyProducts.plist", String(text[start.lowerBound..<end.upperBound]), "")
        }
        return workspace
    }

    static let files = ["configs/ExampleApp.storekit", "app/ExampleApp.storekit", "plist/CalmlyProducts.plist"]

    static func permutations(_ items: [String]) -> [[String]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { index in
            var rest = items
            let first = rest.remove(at: index)
            return permutations(rest).map { [first] + $0 }
        }
    }

    @Test func eachCopyThatLacksAProductIsNamedInEveryOrder() throws {
        let workspace = try Self.threeCopies()
        defer { workspace.remove() }
        for order in Self.permutations(Self.files) {
            let output = try workspace.run(["check", "--no-config", "--format", "json"] + order)
            #expect(output.status == 1, "\(order): \(output.stderr)")
            let findings = findingRecords(try jsonReport(output))
            let named = findings.map { finding -> String in
                let sides = [finding["configuration"], finding["catalog"]].compactMap { $0 as? [String: Any] }
                let absent = sides.first { $0["value"] is NSNull }?["file"] as? String ?? "?"
                return "\(finding["rule"] as? String ?? "?") \(finding["product"] as? String ?? "-") lacked by \(absent)"
            }.sorted()
            #expect(named == [
                "missing-in-copy com.calmly.app.sessions.20 lacked by plist/CalmlyProducts.plist",
                "missing-in-copy com.calmly.app.sessions.50 lacked by plist/CalmlyProducts.plist",
                "missing-in-copy com.calmly.app.tip.tea lacked by plist/CalmlyProducts.plist",
            ], "\(order)")
            // Two files share a name: each is named by its shortest unique path, never "the catalogue".
            let messages = findings.compactMap { $0["message"] as? String }
            #expect(messages.allSatisfy { $0.contains("ExampleApp.storekit") && $0.hasSuffix("not in CalmlyProducts.plist") }, "\(messages)")
            #expect(messages.allSatisfy { !$0.contains("catalogue") }, "\(messages)")
        }
        // Pairwise, the same three: a third source hides nothing.
        let pair = try workspace.run(["check", "--no-config", "--format", "json", "app/ExampleApp.storekit", "plist/CalmlyProducts.plist"])
        #expect(findingRecords(try jsonReport(pair)).count == 3)
    }

    @Test func twoStoreKitFilesOfOneNameAreToldApartByTheirFolders() throws {
        let workspace = try Self.threeCopies()
        defer { workspace.remove() }
        try workspace.replace("app/ExampleApp.storekit", "\"productID\" : \"com.calmly.app.lifetime\"", "\"productID\" : \"com.calmly.app.lifetime2\"")
        let output = try workspace.run(["check", "--no-config", "configs/ExampleApp.storekit", "app/ExampleApp.storekit"])
        #expect(output.status == 1)
        #expect(output.stdout.contains("com.calmly.app.lifetime is in configs/ExampleApp.storekit but not in app/ExampleApp.storekit"), "\(output.stdout)")
        #expect(output.stdout.contains("com.calmly.app.lifetime2 is in app/ExampleApp.storekit but not in configs/ExampleApp.storekit"), "\(output.stdout)")
    }

    /// The policy of the repository's top folder, from a subfolder: `check` and `diff --since`
    /// use the same `.tally.yml`.
    @Test func checkAndDiffInASubfolderUseTheSamePolicy() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        // The product plist is a source only because the policy names it (it is in no default folder).
        try "version: 1\nsources: [configs/ExampleApp.storekit, catalog/products.yaml, plist/CalmlyProducts.plist]\nrules: {price: warning}\n"
            .write(to: workspace.root.appendingPathComponent(".tally.yml"), atomically: true, encoding: .utf8)
        for arguments in [["init", "-q"], ["add", "."], ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "base"]] {
            let git = try CLIRunner.launch(URL(fileURLWithPath: "/usr/bin/git"), arguments, in: workspace.root)
            #expect(git.status == 0, "\(git.stderr)")
        }
        try workspace.replace("catalog/products.yaml", "prices: {USA: \"5.99\", GBR", "prices: {USA: \"6.49\", GBR")
        let subfolder = workspace.root.appendingPathComponent("examples")
        // check: the price is a warning, as the policy above says, and the files are the policy's
        let top = try CLIRunner.run(["check", "--format", "json"], in: workspace.root)
        let below = try CLIRunner.run(["check", "--format", "json"], in: subfolder)
        #expect(top.status == 0 && below.status == 0, "\(below.stdout)\(below.stderr)")
        func rules(_ output: CLIRunner.Output) throws -> [String] {
            try findingRecords(jsonReport(output)).map { "\($0["severity"] as? String ?? "?") \($0["rule"] as? String ?? "?") \($0["product"] as? String ?? "-")" }.sorted()
        }
        #expect(try rules(below) == ["warning price com.calmly.app.sessions.20"])
        #expect(try rules(below) == rules(top))
        #expect(below.stdout.contains("../catalog/products.yaml"), "\(below.stdout)")
        // diff --since, in the same subfolder, reads the sources the same file names
        let diff = try CLIRunner.run(["diff", "--since", "HEAD"], in: subfolder)
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdout.contains("new: plist/CalmlyProducts.plist"), "\(diff.stdout)")
        #expect(below.stdout.contains("../plist/CalmlyProducts.plist"), "\(below.stdout)")
        #expect(diff.stdout.contains("com.calmly.app.sessions.20"), "\(diff.stdout)")
    }

    /// `TallyAssert.consistent` runs the same `CheckRun` as `tally check A B`.
    @Test func tallyAssertConsistentAndCheckGiveTheSameFindings() throws {
        let workspace = try Self.threeCopies()
        defer { workspace.remove() }
        let output = try workspace.run(["check", "--no-config", "--format", "json", "configs/ExampleApp.storekit", "plist/CalmlyProducts.plist"])
        let cli = findingRecords(try jsonReport(output))
            .map { "\($0["rule"] as? String ?? "?") \($0["product"] as? String ?? "-") \($0["message"] as? String ?? "")" }.sorted()
        #expect(cli.count == 3)
        var findings: [String] = []
        withKnownIssue("each finding is a test failure, as in a team's own test") {
            let result = try TallyAssert.consistent(config: "configs/ExampleApp.storekit", catalog: "plist/CalmlyProducts.plist",
                                                    root: workspace.root.path)
            findings = result.findings.map { "\($0.ruleID) \($0.productID ?? "-") \($0.message)" }.sorted()
        }
        #expect(findings == cli)
    }
}

/// `--help` at 80 columns: no example is wrapped inside a command (a long one continues with `\`).
@Suite struct HelpExamplesTests {
    static let commands: [[String]] = [[], ["check"], ["lint"], ["show"], ["convert"], ["diff"], ["init"], ["rules"], ["explain"],
                                       ["fetch"], ["fetch", "app-store-connect"], ["fetch", "google-play"], ["fetch", "revenuecat"]]

    @Test(arguments: commands)
    func examplesAreNotWrappedInsideACommand(_ command: [String]) throws {
        let output = try CLIRunner.run(command + ["--help"], environment: ["COLUMNS": "80"])
        #expect(output.status == 0)
        var inExamples = false
        var previous = ""
        var examples = 0
        for line in output.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line == "Examples:" { inExamples = true; continue }
            if line.hasPrefix("USAGE:") || line.hasPrefix("OPTIONS:") || line.hasPrefix("ARGUMENTS:") || line.hasPrefix("SUBCOMMANDS:") { inExamples = false }
            guard inExamples, !line.isEmpty else { continue }
            if line.hasPrefix("      ") {
                #expect(previous.hasSuffix("\\"), "\(command): a continuation line without a '\\' before it: \(line)")
            } else {
                #expect(line.hasPrefix("  tally ") || line.hasPrefix("  #"), "\(command): an example wrapped inside a command: \(line)")
                examples += 1
            }
            #expect(line.count <= 80, "\(command): \(line)")
            previous = line
        }
        #expect(examples > 0 || command == ["rules"] || command == ["explain"] || command == ["init"], "\(command) has no examples")
    }
}

/// A real configuration tried from outside (circles-ios) keeps a 0.99 displayPrice on a free
/// promotional offer: the finding names that offer, not "a free trial" of the introductory offer.
@Suite struct OfferNamingTests {
    @Test func aFreePromotionalOfferWithAPriceIsNamedByItsID() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.replace("configs/ExampleApp.storekit", "\"displayPrice\" : \"34.99\"", "\"displayPrice\" : \"0.99\"")
        try workspace.replace("configs/ExampleApp.storekit", "\"offerID\" : \"plus_annual_winback_half\",\n              \"paymentMode\" : \"payUpFront\"",
                              "\"offerID\" : \"plus_annual_winback_half\",\n              \"paymentMode\" : \"free\"")
        let output = try workspace.run(["lint", "--no-config", "--format", "json", "configs/ExampleApp.storekit"])
        let finding = try #require(findingRecords(try jsonReport(output)).first { $0["rule"] as? String == "free-trial-with-price" })
        #expect(finding["offer"] as? String == "plus_annual_winback_half")
        #expect(finding["field"] as? String == "promotional-offers")
        #expect((finding["message"] as? String)?.contains("has a free trial (promotional offer plus_annual_winback_half) that keeps a displayPrice of 0.99 USD") == true,
                "\(finding["message"] ?? "")")
    }
}

/// A kind no source states stays unknown: a product list of IDs says nothing of kinds, and `diff`,
/// its release notes and JSON say so instead of inventing a non-consumable.
@Suite struct UnstatedKindTests {
    @Test func anAddedIDOfAProductListHasNoInventedKind() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-kind-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><array>"
        try (head + "<string>com.a.one</string></array></plist>\n").write(to: directory.appendingPathComponent("old.plist"), atomically: true, encoding: .utf8)
        try (head + "<string>com.a.one</string><string>com.a.two</string></array></plist>\n")
            .write(to: directory.appendingPathComponent("new.plist"), atomically: true, encoding: .utf8)
        for format in ["text", "release-notes", "json"] {
            let output = try CLIRunner.run(["diff", "old.plist", "new.plist", "--format", format], in: directory)
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout.contains("kind not stated"), "\(format): \(output.stdout)")
            #expect(!output.stdout.contains("non-consumable"), "\(format): \(output.stdout)")
        }
        let shown = try CLIRunner.run(["show", "--format", "json", "new.plist"], in: directory)
        #expect(!shown.stdout.contains("\"kind\""), "\(shown.stdout)")
    }
}

/// Files that together form one copy are pooled only when the policy says so (issue 34).
@Suite struct PooledCopyTests {
    /// The example catalogue split in two files: the one-time products in one, the subscription groups in the other.
    static func split() throws -> Workspace {
        let workspace = try Workspace()
        let text = try workspace.text("catalog/products.yaml")
        let cut = try #require(text.range(of: "\nsubscription_groups:"))
        let head = String(text[..<cut.lowerBound]) + "\n"
        let header = "format: tally-catalog/1\ndefault_territory: USA\n"
        try FileManager.default.createDirectory(at: workspace.root.appendingPathComponent("server"), withIntermediateDirectories: true)
        try head.write(to: workspace.root.appendingPathComponent("server/one-time.yaml"), atomically: true, encoding: .utf8)
        try (header + "subscription_groups:" + String(text[cut.upperBound...]))
            .write(to: workspace.root.appendingPathComponent("server/subscriptions.yaml"), atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: workspace.root.appendingPathComponent("catalog"))
        return workspace
    }

    @Test func aCatalogueSplitInTwoFilesIsOneCopyWhenThePolicySaysSo() throws {
        let workspace = try Self.split()
        defer { workspace.remove() }
        #expect(try workspace.run(["lint", "--no-config", "server/one-time.yaml", "server/subscriptions.yaml"]).status == 0)

        // By default each file is a copy of its own: each lacks what the other holds.
        try "version: 1\nsources: [configs/ExampleApp.storekit, \"server/*.yaml\"]\n"
            .write(to: workspace.root.appendingPathComponent(".tally.yml"), atomically: true, encoding: .utf8)
        let apart = try workspace.run(["check", "--format", "json"])
        #expect(apart.status == 1)
        #expect(findingRecords(try jsonReport(apart)).contains { $0["rule"] as? String == "missing-in-catalog" })

        // Named as one copy: pooled, consistent with the configuration, and the two are not compared.
        try "version: 1\nsources:\n  - configs/ExampleApp.storekit\n  - {path: \"server/*.yaml\", copy: server}\n"
            .write(to: workspace.root.appendingPathComponent(".tally.yml"), atomically: true, encoding: .utf8)
        let pooled = try workspace.run(["check", "--format", "json"])
        #expect(pooled.status == 0, "\(pooled.stdout)\(pooled.stderr)")
        #expect(findingRecords(try jsonReport(pooled)).isEmpty)
        #expect(!pooled.stdout.contains("server/one-time.yaml (storefront USA) vs server/subscriptions.yaml"))

        // A product none of the copy's files has is still missing from the copy, named once.
        let oneTime = workspace.root.appendingPathComponent("server/one-time.yaml")
        let text = try String(contentsOf: oneTime, encoding: .utf8)
        let start = try #require(text.range(of: "  - id: com.calmly.app.tip.tea"))
        let end = text[start.upperBound...].range(of: "\n  - id:")?.lowerBound ?? text.endIndex
        try (String(text[..<start.lowerBound]) + String(text[end...]).drop(while: { $0 == "\n" })).write(to: oneTime, atomically: true, encoding: .utf8)
        let lacking = try workspace.run(["check", "--format", "json"])
        #expect(lacking.status == 1, "\(lacking.stderr)")
        let named = findingRecords(try jsonReport(lacking)).map { "\($0["rule"] as? String ?? "?") \($0["product"] as? String ?? "-")" }
        #expect(named == ["missing-in-catalog com.calmly.app.tip.tea"], "\(named)")
    }
}
