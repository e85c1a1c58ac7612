import Foundation
import Testing

/// Issue 50: a StoreKit configuration package (`Name.storekit/` holding `Configuration.storekit`
/// and `Assets/`, as recent Xcode saves one) is one StoreKit configuration wherever a `.storekit`
/// file is: show, lint, check, init, globs and diff at a revision, named by the package, each
/// location naming the file inside it. (tyamada/MihirakiPDFViewer's `Products.storekit/` was read
/// the same way; its files are not committed here.)
@Suite struct StoreKitPackageCLITests {
    /// A repository with `Products.storekit/` made of the example configuration (and an image).
    static func repository() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-package-\(UUID().uuidString)")
        let package = folder.appendingPathComponent("App/Products.storekit")
        try FileManager.default.createDirectory(at: package.appendingPathComponent("Assets"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLIRunner.repository.appendingPathComponent("configs/ExampleApp.storekit"),
                                         to: package.appendingPathComponent("Configuration.storekit"))
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: package.appendingPathComponent("Assets/D0F96D04.png"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("catalog"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLIRunner.repository.appendingPathComponent("catalog/products.yaml"),
                                         to: folder.appendingPathComponent("catalog/products.yaml"))
        _ = try GateHostileCLITests.bash("git init -q . && git add -A && git -c user.email=t@t -c user.name=t commit -qm one", in: folder)
        return folder
    }

    @Test func showLintCheckAndInitTakeThePackageAsOneFile() throws {
        let folder = try Self.repository()
        defer { try? FileManager.default.removeItem(at: folder) }
        let shown = try CLIRunner.run(["show", "--format", "json", "App/Products.storekit"], in: folder)
        #expect(shown.status == 0, "\(shown.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        #expect(document["file"] as? String == "App/Products.storekit")
        #expect(document["format"] as? String == "storekit")
        #expect(((document["products"] as? [Any]) ?? []).count == 15)
        let linted = try CLIRunner.run(["lint", "App/Products.storekit"], in: folder)
        #expect(linted.status == 0, "\(linted.stdout) \(linted.stderr)")
        // init proposes the package by its own name, not the file inside it.
        let initialised = try CLIRunner.run(["init"], in: folder)
        #expect(initialised.stdout.contains("configurations: App/Products.storekit\n"), "\(initialised.stdout)")
        let checked = try CLIRunner.run(["check"], in: folder)
        #expect(checked.status == 0, "\(checked.stdout) \(checked.stderr)")
        #expect(checked.stdout.contains("compared: App/Products.storekit (storefront USA) vs catalog/products.yaml"), "\(checked.stdout)")
        // A difference is located in the file inside the package.
        _ = try GateHostileCLITests.bash("sed -i 's/\"displayPrice\" : \"4.99\"/\"displayPrice\" : \"5.49\"/' App/Products.storekit/Configuration.storekit", in: folder)
        let differs = try CLIRunner.run(["check"], in: folder)
        #expect(differs.status == 1, "\(differs.stdout)")
        #expect(differs.stdout.contains("configuration: App/Products.storekit/Configuration.storekit:"), "\(differs.stdout)")
        // A glob for .storekit files finds the package; diff reads it at a revision.
        let globbed = try CLIRunner.run(["check", "--no-config", "App/*.storekit", "catalog/products.yaml"], in: folder)
        #expect(globbed.status == 1 && globbed.stdout.contains("App/Products.storekit"), "\(globbed.stdout) \(globbed.stderr)")
        let diffed = try CLIRunner.run(["diff", "App/Products.storekit@HEAD", "App/Products.storekit"], in: folder)
        #expect(diffed.stdout.contains("old: App/Products.storekit@HEAD (storekit"), "\(diffed.stdout) \(diffed.stderr)")
        #expect(diffed.stdout.contains("3 changed"), "\(diffed.stdout)")
    }

    /// At a revision, the package's `Assets/` is there too: a product's promotional image that
    /// the committed package holds is not called missing (it was: only the package's own files
    /// were copied out of git, not the `Assets/` folder).
    @Test func aPackageAtARevisionHasItsAssets() throws {
        let folder = try Self.repository()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try GateHostileCLITests.bash(#"sed -i '0,/"productID" : "com.calmly.app.tip.tea",/s//"productID" : "com.calmly.app.tip.tea",\n      "promotionalImageID" : "D0F96D04",/' App/Products.storekit/Configuration.storekit && git add -A && git -c user.email=t@t -c user.name=t commit -qm image"#, in: folder)
        let linted = try CLIRunner.run(["lint", "App/Products.storekit"], in: folder)
        #expect(linted.status == 0 && !linted.stdout.contains("promotional-image"), "\(linted.stdout)")
        let diffed = try CLIRunner.run(["diff", "App/Products.storekit@HEAD", "App/Products.storekit"], in: folder)
        #expect(diffed.status == 0, "\(diffed.stdout) \(diffed.stderr)")
        #expect(!diffed.stderr.contains("is not in the package's Assets folder"), "\(diffed.stderr)")
        // The image gone from the committed package: said at the revision.
        _ = try GateHostileCLITests.bash("git rm -q App/Products.storekit/Assets/D0F96D04.png && git -c user.email=t@t -c user.name=t commit -qm gone", in: folder)
        let gone = try CLIRunner.run(["diff", "App/Products.storekit@HEAD", "App/Products.storekit"], in: folder)
        #expect(gone.stderr.contains("Configuration.storekit@HEAD:") && gone.stderr.contains("the promotional image D0F96D04 is not in the package's Assets folder"), "\(gone.stderr)")
    }

    /// A folder named `.storekit` without `Configuration.storekit` is not a package: said so.
    @Test func aStoreKitFolderWithoutItsConfigurationIsNotRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-package-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Empty.storekit/Assets"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let shown = try CLIRunner.run(["show", "Empty.storekit"], in: folder)
        #expect(shown.status == 2)
        #expect(shown.stderr.contains("Empty.storekit: error: this is a directory"), "\(shown.stderr)")
    }
}
