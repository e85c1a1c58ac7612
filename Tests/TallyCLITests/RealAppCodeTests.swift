import Foundation
import Testing

/// Issue 35 on the real app layouts of ../shared/fixtures/realworld/apps/: the code source finds
/// every product ID the app's code asks for and nothing else, and says where the code asks with
/// IDs it cannot follow.
@Suite struct RealAppCodeTests {
    static let apps = CLIRunner.shared.appendingPathComponent("fixtures/realworld/apps")

    struct Expected: Sendable, CustomStringConvertible {
        let app: String
        let file: String
        /// The IDs the file's code asks for (what an independent reading of the file finds).
        let ids: [String]
        /// Whether the code asks with IDs Tally cannot follow (a note, never a guess).
        let unresolved: Bool
        var description: String { "\(app)/\(file)" }
    }

    static let expected: [Expected] = [
        Expected(app: "sectorzero-ios-swift", file: "EarthLord/Managers/StoreKitManager.swift", ids: [
            "com.sectorzero.energy.20", "com.sectorzero.energy.5", "com.sectorzero.energy.50",
            "com.sectorzero.sub.archon.monthly", "com.sectorzero.sub.archon.yearly", "com.sectorzero.sub.pioneer.monthly",
            "com.sectorzero.sub.pioneer.yearly", "com.sectorzero.sub.scavenger.monthly", "com.sectorzero.sub.scavenger.yearly",
        ], unresolved: false),
        // Play Billing with the SKU passed in at run time: no literal to take.
        Expected(app: "tasks-android-kotlin", file: "app/src/googleplay/java/org/tasks/billing/BillingClientImpl.kt", ids: [], unresolved: true),
        // IDs made with String.format("%s_%02d", …): none to find.
        Expected(app: "tasks-android-kotlin", file: "app/src/main/java/org/tasks/billing/PurchaseActivityViewModel.kt", ids: [], unresolved: false),
        Expected(app: "tasks-android-kotlin", file: "app/src/main/java/org/tasks/billing/Sku.kt", ids: [], unresolved: false),
        // react-native-iap with Platform.select of react-native-config values: from the environment.
        Expected(app: "podverse-react-native", file: "src/services/purchaseShared.ts", ids: [], unresolved: true),
        Expected(app: "podverse-react-native", file: "src/services/purchase.ios.ts", ids: [], unresolved: false),
        // Codeless IAP buttons: no ID in code.
        Expected(app: "avvault-unity-codeless", file: "Assets/SocialAppTemplate/Scripts/Controllers/ViewController.cs", ids: [], unresolved: false),
        // Adapty calls, all commented out at this commit.
        Expected(app: "wisdom-flutter-adapty", file: "lib/core/services/purchase_observer.dart", ids: [], unresolved: false),
    ]

    @Test(arguments: expected)
    func theCodeSourceFindsExactlyTheIDsTheCodeAsksFor(_ expected: Expected) throws {
        guard CLIRunner.sharedAvailable else {
            print("skipped: ../shared/fixtures/realworld is absent")
            return
        }
        let output = try CLIRunner.run(["show", "--format", "json", expected.file], in: Self.apps.appendingPathComponent(expected.app))
        #expect(output.status == 0, "\(expected): \(output.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(document["format"] as? String == "code")
        let ids = ((document["products"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }.sorted()
        #expect(ids == expected.ids, "\(expected)")
        let code = try #require(document["code"] as? [String: Any])
        let unresolved = (code["unresolved"] as? [[String: Any]]) ?? []
        #expect(unresolved.isEmpty != expected.unresolved, "\(expected): \(unresolved)")
    }

    /// `init` in a copy of each app: the code is proposed only where it asks for IDs, and the
    /// `check` that follows exits 0 on these consistent repositories.
    @Test func initThenCheckOnEveryRealApp() throws {
        guard CLIRunner.sharedAvailable else {
            print("skipped: ../shared/fixtures/realworld is absent")
            return
        }
        for app in try FileManager.default.contentsOfDirectory(atPath: Self.apps.path).sorted() {
            let copy = FileManager.default.temporaryDirectory.appendingPathComponent("tally-app-\(UUID().uuidString)")
            try FileManager.default.copyItem(at: Self.apps.appendingPathComponent(app), to: copy)
            defer { try? FileManager.default.removeItem(at: copy) }
            try FileManager.default.createDirectory(at: copy.appendingPathComponent(".git"), withIntermediateDirectories: true)
            let initialised = try CLIRunner.run(["init"], in: copy)
            #expect(initialised.status == 0, "\(app): \(initialised.stderr)")
            let proposesCode = initialised.stdout.contains("  code:")
            // sectorzero's code asks for 9 IDs; podverse's and tasks' calls build theirs at run time (named, issue 49).
            let codeApps = ["sectorzero-ios-swift", "podverse-react-native", "tasks-android-kotlin"]
            #expect(proposesCode == codeApps.contains(app), "\(app): \(initialised.stdout)")
            guard FileManager.default.fileExists(atPath: copy.appendingPathComponent(".tally.yml").path) else { continue }
            let check = try CLIRunner.run(["check"], in: copy)
            let unfollowedOnly = app != "sectorzero-ios-swift" && proposesCode
            #expect(check.status == (unfollowedOnly ? 3 : 0), "\(app): \(check.stdout)\(check.stderr)")
            if unfollowedOnly { continue }
            if proposesCode {
                #expect(check.stdout.contains("the app's code asks for 9 product IDs in 1 file, compared with Products.storekit"), "\(app): \(check.stdout)")
            }
        }
    }
}
