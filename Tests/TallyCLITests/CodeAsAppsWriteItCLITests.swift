import Foundation
import Testing

/// Issue 49's five numbered cases, each rebuilt from its description and run through the binary
/// (`tally init`, `tally check`, `tally show`) for the verdict a user would expect. Item 3 (Unity's
/// imported samples) is `CodeExclusionsCLITests`.
@Suite struct CodeAsAppsWriteItCLITests {
    /// A folder with only `files` in it, a git repository (init stops at the repository's top).
    static func app(_ files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-code-\(UUID().uuidString)")
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        _ = try GateHostileCLITests.bash("git init -q .", in: folder)
        return folder
    }

    static var storeKit: String {
        get throws { try String(contentsOf: CLIRunner.repository.appendingPathComponent("configs/ExampleApp.storekit"), encoding: .utf8) }
    }

    // MARK: 1. A React Native SKU module: a false pass before

    /// Ten iOS subscription SKUs in a `Platform.select` export of their own module; the
    /// `.storekit` file holds four. init proposes the code, check fails naming the six.
    static let skuModule = """
        import { Platform } from 'react-native';

        const subscriptionSkus = Platform.select({
          ios: [
            'com.calmly.app.plus.monthly', 'com.calmly.app.plus.annual', 'com.calmly.app.plus.weekly', 'com.calmly.app.plus.quarterly',
            'com.calmly.app.pro.monthly', 'com.calmly.app.pro.annual', 'com.calmly.app.pro.weekly',
            'com.calmly.app.max.monthly', 'com.calmly.app.max.annual', 'com.calmly.app.max.weekly',
          ],
          android: ['plus_monthly', 'plus_annual'],
        });

        export default subscriptionSkus;
        export { subscriptionSkus };

        """
    static let subscribeScreen = """
        import * as RNIap from 'react-native-iap';
        import { subscriptionSkus } from '../common/types/subscriptionSkus';

        export async function loadSubscriptions() {
          return RNIap.getSubscriptions({ skus: subscriptionSkus });
        }

        """

    @Test func aReactNativeSKUModuleIsReadWithItsCall() throws {
        let folder = try Self.app([
            "ios/Calmly/Calmly.storekit": try Self.storeKit,
            "src/common/types/subscriptionSkus.js": Self.skuModule,
            "src/screens/Subscribe.js": Self.subscribeScreen,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let initialised = try CLIRunner.run(["init"], in: folder)
        #expect(initialised.status == 0, "\(initialised.stdout) \(initialised.stderr)")
        #expect(initialised.stdout.contains("12 product IDs in 2 files"), "\(initialised.stdout)")
        let run = try CLIRunner.run(["check", "--format", "json"], in: folder)
        #expect(run.status == 1, "\(run.stdout) \(run.stderr)")
        let unknown = findingRecords(try jsonReport(run)).filter { $0["rule"] as? String == "code-unknown-product" }.compactMap { $0["product"] as? String }
        #expect(unknown.sorted() == ["com.calmly.app.max.annual", "com.calmly.app.max.monthly", "com.calmly.app.max.weekly",
                                     "com.calmly.app.pro.annual", "com.calmly.app.pro.monthly", "com.calmly.app.pro.weekly"], "\(run.stdout)")
        // The Android SKUs are asked of Google Play, which no source of the run answers for: not compared, not an error.
        let text = try CLIRunner.run(["check"], in: folder)
        #expect(text.stdout.contains("plus_monthly") && text.stdout.contains("not compared"), "\(text.stdout)")
        #expect(!unknown.contains("plus_monthly"))
    }

    // MARK: 2. A Flutter set of both stores' IDs with only a .storekit: a false fail before

    @Test func anIDAskedOfAStoreWithNoSourceIsNotComparedNotAnError() throws {
        let folder = try Self.app([
            "ios/Runner/Products.storekit": try Self.storeKit,
            "lib/store.dart": """
                import 'package:in_app_purchase/in_app_purchase.dart';

                const Set<String> _kIds = <String>{'com.calmly.app.plus.monthly', 'plus_monthly_android'};

                Future<void> load() async {
                  final response = await InAppPurchase.instance.queryProductDetails(_kIds);
                }

                """,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try CLIRunner.run(["init"], in: folder).status == 0)
        let run = try CLIRunner.run(["check", "--format", "json"], in: folder)
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        let report = try jsonReport(run)
        #expect(!findingRecords(report).contains { $0["rule"] as? String == "code-unknown-product" }, "\(run.stdout)")
        let coverage = try CoverageCLITests.coverage(run)
        #expect("\(coverage)".contains("plus_monthly_android"), "\(coverage)")
    }

    // MARK: 4. A Kotlin-only app: init proposes the code and says what to compare it with

    @Test func aPlayOnlyAppGetsItsCodeSourceAndRunnableAdvice() throws {
        let folder = try Self.app([
            "app/build.gradle.kts": "android {\n    defaultConfig {\n        applicationId = \"com.calmly.android\"\n    }\n}\n",
            "app/src/main/java/com/calmly/android/billing/Skus.kt": """
                package com.calmly.android.billing

                object Skus {
                    private lateinit var cached: String
                    const val LIFETIME = "calmly_lifetime"

                    class Holder {
                        companion object {
                            const val YEARLY = "calmly_plus_yearly"
                        }
                    }
                }

                """,
            "app/src/main/java/com/calmly/android/billing/BillingRepository.kt": """
                package com.calmly.android.billing

                import com.android.billingclient.api.BillingClient
                import com.android.billingclient.api.QueryProductDetailsParams

                class BillingRepository(private val client: BillingClient) {
                    fun products() = listOf(
                        QueryProductDetailsParams.Product.newBuilder().setProductId(Skus.LIFETIME)
                            .setProductType(BillingClient.ProductType.INAPP).build(),
                        QueryProductDetailsParams.Product.newBuilder().setProductId(Skus.Holder.YEARLY)
                            .setProductType(BillingClient.ProductType.SUBS).build(),
                    )
                }

                """,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let initialised = try CLIRunner.run(["init"], in: folder)
        #expect(initialised.status == 0, "\(initialised.stdout) \(initialised.stderr)")
        #expect(initialised.stdout.contains("code:           app/**/*.kt, 2 product IDs in 2 files"), "\(initialised.stdout)")
        #expect(initialised.stdout.contains("tally fetch google-play --package com.calmly.android "), "\(initialised.stdout)")
        // Every advice line of init that needs no credentials runs as printed.
        let advice = initialised.stdout.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "tally convert ") else { return nil }
            return String(line[range.lowerBound...])
        }
        #expect(advice.count == 1, "\(initialised.stdout)")
        for command in advice {
            let ran = try GateHostileCLITests.bash("\"$T\" " + command.dropFirst("tally ".count), in: folder)
            #expect(ran.status == 0, "\(command): \(ran.stdout) \(ran.stderr)")
        }
        let run = try CLIRunner.run(["check"], in: folder)
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("asks for 2 product IDs in 2 files, compared with catalog/products.yaml"), "\(run.stdout)")
        #expect(run.stdout.contains("✔ consistent: 2 products checked in 2 sources"), "\(run.stdout)")
    }

    /// `check` with nothing to read advises `tally init`; run as printed, it writes the policy.
    @Test func checksAdviceToRunInitRunsAsPrinted() throws {
        let folder = try Self.app(["src/store.ts": "import { getProducts } from 'react-native-iap';\ngetProducts({ skus: ['calmly_tip'] });\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try CLIRunner.run(["check"], in: folder)
        #expect(first.status == 2)
        #expect(first.stderr.contains("run 'tally init'"), "\(first.stderr)")
        #expect(try CLIRunner.run(["init"], in: folder).status == 0)
        let then = try CLIRunner.run(["check"], in: folder)
        #expect(then.status == 0, "\(then.stdout) \(then.stderr)")
        #expect(then.stdout.contains("src/store.ts: nothing to compare it with"), "\(then.stdout)")
        // Its advice to keep a catalogue runs as printed, and the next check compares the two.
        let quoted = then.stdout.split(separator: "'").map(String.init).filter { $0.hasPrefix("tally convert ") }
        #expect(quoted.count == 1, "\(then.stdout)")
        for command in quoted {
            let ran = try GateHostileCLITests.bash("\"$T\" " + command.dropFirst("tally ".count), in: folder)
            #expect(ran.status == 0, "\(command): \(ran.stdout) \(ran.stderr)")
        }
        let compared = try CLIRunner.run(["check"], in: folder)
        #expect(compared.status == 0, "\(compared.stdout) \(compared.stderr)")
        #expect(compared.stdout.contains("the app's code asks for 1 product ID in 1 file, compared with catalog/products.yaml"), "\(compared.stdout)")
    }

    // MARK: 5. A call site and its constants, shown together

    @Test func showReadsSeveralFilesAFolderOrAGlobAsOneCodeSource() throws {
        let expected = ["com.calmly.app.lifetime", "com.calmly.app.plus.annual", "com.calmly.app.plus.monthly", "com.calmly.app.tip.tea"]
        for arguments in [["examples/code/ios/StoreModel.swift", "examples/code/ios/ProductID.swift"], ["examples/code/ios/"],
                          ["examples/code/**/*.swift"]] {
            let output = try CLIRunner.run(["show", "--format", "json"] + arguments)
            #expect(output.status == 0, "\(arguments): \(output.stderr)")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
            let ids = ((document["products"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }.sorted()
            #expect(ids == expected, "\(arguments)")
            // Each request names its call (StoreModel.swift) and its literal (ProductID.swift).
            let requests = ((document["code"] as? [String: Any])?["requests"] as? [[String: Any]]) ?? []
            #expect(requests.allSatisfy { ($0["call"] as? String)?.contains("StoreModel.swift") == true && ($0["at"] as? String)?.contains("ProductID.swift") == true },
                    "\(requests)")
        }
        // The call file alone cannot say: a note names the call, never a guess.
        let alone = try CLIRunner.run(["show", "examples/code/ios/StoreModel.swift"])
        #expect(alone.status == 0)
        #expect(alone.stdout.contains("0 product IDs") && alone.stdout.contains("not followed"), "\(alone.stdout)")
        // A glob that matches nothing is a usage error naming it; a source that is not code stays one file.
        let none = try CLIRunner.run(["show", "examples/nothing/**/*.kt"])
        #expect(none.status == 2 && none.stderr.contains("examples/nothing/**/*.kt matches no file"), "\(none.stderr)")
        let two = try CLIRunner.run(["show", "configs/ExampleApp.storekit", "catalog/products.yaml"])
        #expect(two.status == 2 && two.stderr.contains("show reads one source"), "\(two.stderr)")
    }

    /// On a real app layout, `show` of a glob and of a folder lists the IDs `check` compares.
    @Test func showOfARealAppsCodeListsWhatCheckCompares() throws {
        guard CLIRunner.sharedAvailable else {
            print("skipped: ../shared/fixtures/realworld is absent")
            return
        }
        let app = CLIRunner.shared.appendingPathComponent("fixtures/realworld/apps/sectorzero-ios-swift")
        var shown: [[String]] = []
        for arguments in [["EarthLord/**/*.swift"], ["EarthLord"]] {
            let output = try CLIRunner.run(["show", "--format", "json"] + arguments, in: app)
            #expect(output.status == 0, "\(arguments): \(output.stderr)")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
            shown.append(((document["products"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }.sorted())
        }
        #expect(shown[0] == shown[1])
        #expect(shown[0].count == 9, "\(shown[0])")
        let check = try CLIRunner.run(["check", "--no-config", "--format", "json", "Products.storekit", "EarthLord/**/*.swift"], in: app)
        #expect(check.status == 0, "\(check.stdout) \(check.stderr)")
        let coverage = try CoverageCLITests.coverage(check)
        let code = coverage["code_requests"] as? [String: Any] ?? [:]
        #expect(code["compared"] as? Int == shown[0].count, "\(coverage)")
    }
}
