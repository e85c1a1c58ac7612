import Foundation
import Testing

/// Issue 49, item 3: the app's code, not its dependencies'. A Unity project whose `Assets/Samples/`
/// holds Unity IAP's imported samples (placeholder IDs), and a hand-written `src/**/*.js` that
/// takes in `__tests__/`: the defaults leave them out, and `code: {exclude: …}` leaves out more.
@Suite struct CodeExclusionsCLITests {
    static let sample = """
        using UnityEngine.Purchasing;
        public class Sample {
            void Start() {
                var builder = ConfigurationBuilder.Instance(StandardPurchasingModule.Instance());
                builder.AddProduct("com.mycompany.mygame.gold1", ProductType.Consumable);
            }
        }

        """

    static func app(_ id: String) -> String {
        sample.replacingOccurrences(of: "com.mycompany.mygame.gold1", with: id).replacingOccurrences(of: "class Sample", with: "class Store")
    }

    @Test func unitysImportedSamplesAreNotTheAppsCode() throws {
        let folder = try CoverageCLITests.copy([
            "Assets/Scripts/Store.cs": Self.app("com.calmly.app.sessions.5"),
            "Assets/Samples/In App Purchasing/4.12.0/Buying Consumables/BuyingConsumables.cs": Self.sample,
            "Assets/Scripts/Legacy/Old.cs": Self.app("com.calmly.app.retired"),
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try GateHostileCLITests.bash("git init -q .", in: folder)
        // init proposes the app's code, not the samples.
        let initialised = try CLIRunner.run(["init"], in: folder)
        #expect(initialised.status == 0, "\(initialised.stdout) \(initialised.stderr)")
        let policy = try String(contentsOf: folder.appendingPathComponent(".tally.yml"), encoding: .utf8)
        #expect(!policy.contains("Samples"), "\(policy)")
        // A hand-written glob over Assets/ leaves the samples out too, and exclude: leaves out more.
        try "version: 1\nsources: [configs/*.storekit]\ncode:\n  paths: [\"Assets/**/*.cs\"]\n  exclude: [\"Assets/Scripts/Legacy/**\"]\n"
            .write(to: folder.appendingPathComponent(".tally.yml"), atomically: true, encoding: .utf8)
        let run = try CLIRunner.run(["check", "--format", "json"], in: folder)
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        let findings = findingRecords(try jsonReport(run))
        #expect(!findings.contains { ($0["product"] as? String)?.contains("mygame") == true || $0["product"] as? String == "com.calmly.app.retired" }, "\(findings)")
        #expect((try jsonReport(run)["comparisons"] as? [String] ?? []).contains { $0.contains("asks for 1 product ID in 1 file") }, "\(run.stdout)")
    }

    @Test func aJavaScriptGlobLeavesOutTests() throws {
        let call = "import { getProducts } from 'react-native-iap';\nexport const load = () => getProducts({ skus: ['com.calmly.app.sessions.5'] });\n"
        let test = "import { getProducts } from 'react-native-iap';\ntest('x', () => getProducts({ skus: ['com.test.placeholder.sku'] }));\n"
        let folder = try CoverageCLITests.copy(["src/store.js": call, "src/__tests__/store.test.js": test,
                                                ".tally.yml": "version: 1\nsources: [configs/*.storekit]\ncode: [\"src/**/*.js\"]\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLIRunner.run(["check", "--format", "json"], in: folder)
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        #expect(!run.stdout.contains("com.test.placeholder.sku"), "\(run.stdout)")
        // Named without a glob, a test file is read as named.
        let named = try CLIRunner.run(["check", "--no-config", "configs/ExampleApp.storekit", "src/__tests__/store.test.js"], in: folder)
        #expect(named.stdout.contains("com.test.placeholder.sku"), "\(named.stdout)")
    }
}
