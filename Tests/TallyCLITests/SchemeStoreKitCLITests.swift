import Foundation
import Testing

/// Issue 50: the StoreKit file an Xcode scheme runs the app against, on the eight real layouts of
/// ../shared/fixtures/realworld/schemes/ (schemes, `.storekit` files and workspaces as their
/// repositories hold them). References resolve from the workspace the scheme is opened in: the
/// project's own `project.xcworkspace` (`../../F`), or a `.xcworkspace` beside the project that
/// holds it (`../F`, Anstop and Soteria).
@Suite struct SchemeStoreKitCLITests {
    static let layouts = CLIRunner.shared.appendingPathComponent("fixtures/realworld/schemes")

    struct Layout: Sendable, CustomStringConvertible {
        let name: String
        let scheme: String
        /// The file the scheme runs against, from the layout's top folder.
        let file: String
        /// Whether the repository holds it (Anstop's scheme names a file its repository lacks).
        let exists: Bool
        var description: String { name }
    }

    static let expected: [Layout] = [
        Layout(name: "storekit-config-file-demo", scheme: "StoreKitConfigDemo", file: "AppStoreKitConfigFile.storekit", exists: true),
        Layout(name: "TimeKeen", scheme: "TimeKeen", file: "TimeKeen/Store.storekit", exists: true),
        Layout(name: "Top-Row", scheme: "Top Row", file: "Source Code/Top Row/Top Row/Top Row IAPs.storekit", exists: true),
        Layout(name: "RuckTracker", scheme: "RuckTracker Watch App", file: "MARCHSubscriptions.storekit", exists: true),
        Layout(name: "return-ios", scheme: "ImanPath", file: "Products.storekit", exists: true),
        Layout(name: "nutrasafe-beta", scheme: "NutraSafe Beta", file: "NutraSafe.storekit", exists: true),
        // Opened through Anstop.xcworkspace: `../Configuration.storekit` is beside the workspace, and absent.
        Layout(name: "Anstop", scheme: "Anstop", file: "Configuration.storekit", exists: false),
        // Opened through soteria.xcworkspace: the top Products.storekit, not soteria/Products.storekit.
        Layout(name: "Soteria", scheme: "soteria", file: "Products.storekit", exists: true),
    ]

    static func copy(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-scheme-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: layouts.appendingPathComponent(name), to: folder)
        _ = try GateHostileCLITests.bash("git init -q .", in: folder)
        return folder
    }

    @Test func everyLayoutHasARow() throws {
        guard CLIRunner.sharedAvailable else { return print("skipped: ../shared/fixtures/realworld is absent") }
        let present = try FileManager.default.contentsOfDirectory(atPath: Self.layouts.path).filter { !$0.hasPrefix(".") && !$0.contains(".") }.sorted()
        #expect(present == Self.expected.map(\.name).sorted())
    }

    @Test(arguments: expected)
    func initProposesTheSchemesFileAndCheckFailsWithoutIt(_ layout: Layout) throws {
        guard CLIRunner.sharedAvailable else { return print("skipped: ../shared/fixtures/realworld is absent") }
        let folder = try Self.copy(layout.name)
        defer { try? FileManager.default.removeItem(at: folder) }
        let initialised = try CLIRunner.run(["init"], in: folder)
        #expect(initialised.status == 0, "\(initialised.stderr)")
        guard layout.exists else {
            #expect(initialised.stdout.contains("scheme:         \(layout.scheme) ("), "\(initialised.stdout)")
            #expect(initialised.stdout.contains("which does not exist (\(layout.file))"), "\(initialised.stdout)")
            return
        }
        // The scheme's file is proposed first, and the scheme named.
        #expect(initialised.stdout.contains("  configurations: \(layout.file)"), "\(initialised.stdout)")
        #expect(initialised.stdout.contains("scheme:         \(layout.scheme) (") && initialised.stdout.contains("runs the app against \(layout.file)"),
                "\(initialised.stdout)")
        // With that file gone, check fails naming the scheme's file and line.
        try FileManager.default.removeItem(at: folder.appendingPathComponent(layout.file))
        let checked = try CLIRunner.run(["check"], in: folder)
        #expect(checked.status != 0, "\(checked.stdout)")
        let said = checked.stdout + checked.stderr
        let schemeLine = try #require(said.split(separator: "\n").first { $0.contains("the scheme \(layout.scheme) runs the app against \(layout.file), which does not exist") },
                                      "\(said)")
        #expect(schemeLine.contains(".xcscheme:"), "\(schemeLine)")
    }

    /// A scheme that names a StoreKit configuration but cannot be read (a merge conflict left in a
    /// real scheme) is a located warning in `check` and a line in `init`, not skipped in silence.
    @Test func anUnreadableSchemeIsAWarningAtItsLine() throws {
        guard CLIRunner.sharedAvailable else { return print("skipped: ../shared/fixtures/realworld is absent") }
        let folder = try Self.copy("TimeKeen")
        defer { try? FileManager.default.removeItem(at: folder) }
        let walker = FileManager.default.enumerator(atPath: folder.path)
        let scheme = try #require((walker?.allObjects as? [String])?.first { $0.hasSuffix(".xcscheme") })
        let url = folder.appendingPathComponent(scheme)
        var lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
        let at = try #require(lines.firstIndex { $0.contains("<LaunchAction") })
        lines.insert(contentsOf: ["<<<<<<< HEAD", "=======", ">>>>>>> feature"], at: at)
        try lines.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
        let run = try CLIRunner.run(["check", "--format", "json", "TimeKeen/Store.storekit"], in: folder)
        let findings = findingRecords(try jsonReport(run)).filter { $0["rule"] as? String == "scheme-storekit" }
        #expect(findings.count == 1, "\(run.stdout)")
        #expect(findings.first?["severity"] as? String == "warning")
        #expect((findings.first?["message"] as? String)?.contains("the scheme TimeKeen names a StoreKit configuration but cannot be read") == true, "\(findings)")
        let source = findings.first?["source"] as? [String: Any]
        #expect((source?["file"] as? String)?.hasSuffix(".xcscheme") == true && (source?["line"] as? Int ?? 0) >= at, "\(findings)")
        let initialised = try CLIRunner.run(["init"], in: folder)
        #expect(initialised.stdout.contains("names a StoreKit configuration but cannot be read"), "\(initialised.stdout)\(initialised.stderr)")
    }

    /// Another `.storekit` file checked while the scheme uses one the check does not read: a warning.
    @Test func aCheckOfAFileNoSchemeUsesIsWarned() throws {
        guard CLIRunner.sharedAvailable else { return print("skipped: ../shared/fixtures/realworld is absent") }
        let folder = try Self.copy("Soteria")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLIRunner.run(["check", "--format", "json", "soteria/Products.storekit"], in: folder)
        let findings = findingRecords(try jsonReport(run)).filter { $0["rule"] as? String == "scheme-storekit" }
        #expect(findings.count == 1, "\(run.stdout)")
        #expect(findings.first?["severity"] as? String == "warning")
        #expect((findings.first?["message"] as? String)?.contains("which this check does not read") == true, "\(findings)")
    }
}
