import Foundation
import Testing

/// Issue 51, must show: in a repository with `configs/ExampleApp.storekit`, `catalog/products.yaml`,
/// an app `Info.plist` in `configs/` and no `.tally.yml`, `tally check` passes and `tally diff
/// --since HEAD` read `configs/Info.plist` as a product list and exited 2: its default folders
/// skipped the content check `check` makes. Now both read the same two sources.
@Suite struct DiffSincePlanCLITests {
    static let infoPlist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.calmly.app</string><key>CFBundleShortVersionString</key><string>1.0</string></dict></plist>
    """

    @Test func diffSinceReadsTheSourcesCheckReads() throws {
        let folder = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(".tally.yml"))
        try Self.infoPlist.write(to: folder.appendingPathComponent("configs/Info.plist"), atomically: true, encoding: .utf8)
        _ = try GateHostileCLITests.bash("git init -q . && git add -A && git -c user.email=t@t -c user.name=t commit -qm one", in: folder)
        let check = try CLIRunner.run(["check"], in: folder)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("compared: configs/ExampleApp.storekit (storefront USA) vs catalog/products.yaml"), "\(check.stdout)")
        let diff = try CLIRunner.run(["diff", "--since", "HEAD"], in: folder)
        #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
        #expect(!diff.stderr.contains("Info.plist") && !diff.stdout.contains("Info.plist"), "\(diff.stdout)\(diff.stderr)")
        #expect(diff.stdout.contains("new: configs/ExampleApp.storekit (storekit"), "\(diff.stdout)")
        #expect(diff.stdout.contains("new: catalog/products.yaml (tally-catalog-yaml"), "\(diff.stdout)")
        // A change since HEAD is still seen.
        _ = try GateHostileCLITests.bash("sed -i 's/\"displayPrice\" : \"4.99\"/\"displayPrice\" : \"5.49\"/' configs/ExampleApp.storekit", in: folder)
        let changed = try CLIRunner.run(["diff", "--since", "HEAD", "--exit-code"], in: folder)
        #expect(changed.status == 1, "\(changed.stdout)\(changed.stderr)")
    }

    /// The default folders are one definition (`SourceTree.defaultSources`) for the working tree
    /// and a revision: a StoreKit configuration package in `configs/` (a folder) is a source of
    /// `check`, and so of `diff --since` at the revision too (its own listing took files only).
    @Test func aStoreKitPackageInConfigsIsDiffedAtARevision() throws {
        let folder = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(".tally.yml"))
        _ = try GateHostileCLITests.bash("mkdir configs/Products.storekit && git init -q . && git mv -f configs/ExampleApp.storekit configs/Products.storekit/Configuration.storekit 2>/dev/null "
            + "|| mv configs/ExampleApp.storekit configs/Products.storekit/Configuration.storekit; git add -A && git -c user.email=t@t -c user.name=t commit -qm one", in: folder)
        let check = try CLIRunner.run(["check"], in: folder)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("configs/Products.storekit"), "\(check.stdout)")
        let same = try CLIRunner.run(["diff", "--since", "HEAD", "--exit-code"], in: folder)
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(same.stdout.contains("configs/Products.storekit"), "\(same.stdout)")
        _ = try GateHostileCLITests.bash("sed -i 's/\"displayPrice\" : \"4.99\"/\"displayPrice\" : \"5.49\"/' configs/Products.storekit/Configuration.storekit", in: folder)
        let changed = try CLIRunner.run(["diff", "--since", "HEAD", "--exit-code"], in: folder)
        #expect(changed.status == 1, "\(changed.stdout)\(changed.stderr)")
        #expect(changed.stdout.contains("5.49"), "\(changed.stdout)")
    }

    /// A policy's globs are resolved by one function for the working tree and a revision
    /// (`PolicyFile.resolveSources(in:)`): a catalog report (`.txt`, an ending notes share) that
    /// `catalog/*` matches is read by `check`, and now by `diff --since` too, which skipped it and
    /// said "no changes" over the other file alone.
    @Test func aPolicyGlobMatchesTheSameFilesAtARevision() throws {
        let folder = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = CLIRunner.repository.appendingPathComponent("Tests/TallyFormatsTests/Fixtures/catalog-report/in-app-purchases.txt")
        try FileManager.default.copyItem(at: report, to: folder.appendingPathComponent("catalog/report.txt"))
        try "version: 1\nsources:\n  - catalog/*\n".write(to: folder.appendingPathComponent(".tally.yml"), atomically: true, encoding: .utf8)
        _ = try GateHostileCLITests.bash("git init -q . && git add -A && git -c user.email=t@t -c user.name=t commit -qm one", in: folder)
        // The report holds two apps' products: both commands read it, and both say which app to name.
        let check = try CLIRunner.run(["check"], in: folder)
        #expect(check.status == 2 && check.stderr.contains("catalog/report.txt: error: the report holds the in-app purchases of 2 apps"),
                "\(check.stdout)\(check.stderr)")
        let diff = try CLIRunner.run(["diff", "--since", "HEAD"], in: folder)
        #expect(diff.status == 2, "\(diff.stdout)\(diff.stderr)")
        #expect(diff.stderr.contains("catalog/report.txt@HEAD: error: the report holds the in-app purchases of 2 apps"), "\(diff.stderr)")
        #expect(!diff.stdout.contains("no changes"), "\(diff.stdout)")
    }
}
