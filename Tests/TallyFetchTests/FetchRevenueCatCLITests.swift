#if Fetch  // TallyFetchTests need the network stack: swift test --traits Fetch
import Foundation
import Testing
import TallyFetch

/// `tally fetch revenuecat` through the built binary against the stand-in API.
@Suite(.serialized) struct FetchRevenueCatCLITests {
    static let storekit = "Tests/TallyCLITests/Fixtures/paywall/Lumen.storekit"
    static let play = "Tests/TallyCLITests/Fixtures/paywall/play"

    struct Setup: Sendable {
        let scratch: Scratch
        let server: RevenueCatStandIn

        init(faults: [String: [RevenueCatStandIn.Fault]] = [:]) async throws {
            scratch = try Scratch()
            server = try RevenueCatStandIn(faults: faults)
            try await server.start()
        }

        var output: String { scratch.path("revenuecat") }

        func fetch(_ extra: [String] = [], key: String = RevenueCatStandIn.key) async throws -> Tally.Output {
            try await Tally.run(["fetch", "revenuecat", "--project", RevenueCatStandIn.project, "--output", output,
                                 "--api-url", server.baseURL] + extra, environment: ["REVENUECAT_API_KEY": key])
        }

        func finish() async {
            await server.stop()
            scratch.remove()
        }
    }

    static let prefix = "/v2/projects/\(RevenueCatStandIn.project)/"

    /// On a terminal the progress is one live line, rewritten in place with the renderer's own
    /// control (`FetchProgressText.rewriteLine`), which is written as it is; everything else on
    /// standard error passes through `SafeText` (issue 37), so the control must not come out as
    /// the text `\u{1B}[K`. Run under `script`, which gives the command a pseudo-terminal.
    @Test(.timeLimit(.minutes(5)), .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func theLiveLineOnATerminalRewritesItselfWithARealControl() async throws {
        let setup = try await Setup()
        defer { Task { await setup.finish() } }
        let command = ([Tally.executable.path, "fetch", "revenuecat", "--project", RevenueCatStandIn.project, "--output", setup.output,
                        "--api-url", setup.server.baseURL]).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command.joined(separator: " "), "/dev/null"]
        var environment = ProcessInfo.processInfo.environment
        environment["REVENUECAT_API_KEY"] = RevenueCatStandIn.key
        environment["TALLY_FETCH_BACKOFF_SCALE"] = "0.01"
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: out.fileHandleForReading.readDataToEndOfFile()) }
        }
        process.waitUntilExit()
        let terminal = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(terminal)")
        #expect(terminal.contains(FetchProgressText.rewriteLine + "RevenueCat project \(RevenueCatStandIn.project): "), "\(terminal.debugDescription)")
        #expect(!terminal.contains("\\u{1B}") && !terminal.contains("\\u{D}"), "\(terminal.debugDescription)")
        #expect(terminal.contains("fetched \(setup.output)"), "\(terminal.debugDescription)")
    }

    @Test(.timeLimit(.minutes(5)))
    func theSnapshotIsThePagesServedAndChecksConsistent() async throws {
        let setup = try await Setup()
        defer { Task { await setup.finish() } }
        let fetched = try await setup.fetch()
        #expect(fetched.status == 0, "\(fetched.all)")
        #expect(fetched.stderr.contains("RevenueCat snapshot of app \(RevenueCatStandIn.project)"), "\(fetched.stderr)")
        #expect(fetched.stderr.contains("2 apps, 8 products, 2 offerings, 1 entitlement (7 requests)"), "\(fetched.stderr)")
        // Every list followed through next_page: 2 apps, 8 products, 2 offerings, 1 entitlement at 2 a page.
        let paths = setup.server.requests.map { $0.split(separator: "?").first.map(String.init) ?? $0 }
        #expect(paths == ["apps", "products", "products", "products", "products", "offerings", "entitlements"].map { "GET \(Self.prefix)\($0)" },
                "\(setup.server.requests)")
        #expect(setup.server.requests.contains { $0.contains("offerings?") && $0.contains("expand=items.package.product") })
        #expect(setup.server.requests.contains { $0.contains("entitlements?") && $0.contains("expand=items.product") })
        // The snapshot holds exactly the pages served, byte for byte, in order, and a manifest.
        let files = try FileManager.default.contentsOfDirectory(atPath: setup.output).sorted()
        #expect(files.last == "tally-snapshot.json", "\(files)")
        let pages = try files.dropLast().map { try Data(contentsOf: URL(fileURLWithPath: setup.output).appendingPathComponent($0)) }
        #expect(pages == setup.server.served)
        #expect(files.first == "0001-apps.json", "\(files)")

        let check = try await Tally.run(["check", "--no-config", setup.output, Self.storekit, Self.play])
        #expect(check.status == 0, "\(check.all)")
        #expect(check.stdout.contains("(RevenueCat): 2 offerings (current: default), 4 packages, 8 products, 1 entitlement"), "\(check.stdout)")
        // The key is in no file of the snapshot, and in no output.
        for (name, data) in Scratch.contents(of: setup.output) {
            #expect(!String(decoding: data, as: UTF8.self).contains(RevenueCatStandIn.key), "\(name)")
        }
        #expect(!fetched.all.contains(RevenueCatStandIn.key))
    }

    @Test(.timeLimit(.minutes(5)))
    func aWrongKeyExitsTwoWithoutTheKeyAndLeavesTheFolderAsItWas() async throws {
        let setup = try await Setup()
        defer { Task { await setup.finish() } }
        #expect(try await setup.fetch().status == 0)
        let before = Scratch.contents(of: setup.output)
        let wrong = "sk_WrongKeyThatMustNeverBePrinted42"
        let output = try await setup.fetch(key: wrong)
        #expect(output.status == 2, "\(output.all)")
        #expect(output.stderr.contains("rejected the credentials (401 Unauthorized)"), "\(output.stderr)")
        #expect(output.stderr.contains("REVENUECAT_API_KEY"), "\(output.stderr)")
        #expect(output.stderr.contains("\(setup.output) was left as it was"), "\(output.stderr)")
        #expect(!output.all.contains(wrong) && !output.all.contains(RevenueCatStandIn.key))
        #expect(Scratch.contents(of: setup.output) == before)
    }

    @Test(.timeLimit(.minutes(5)))
    func aKeyFileWorksAndNoKeyIsAUsageError() async throws {
        let setup = try await Setup()
        defer { Task { await setup.finish() } }
        let file = setup.scratch.url.appendingPathComponent("revenuecat.key")
        try (RevenueCatStandIn.key + "\n").write(to: file, atomically: true, encoding: .utf8)
        let fetched = try await setup.fetch(["--api-key-file", file.path], key: "")
        #expect(fetched.status == 0, "\(fetched.all)")
        let none = try await Tally.run(["fetch", "revenuecat", "--project", RevenueCatStandIn.project, "--output", setup.scratch.path("other"),
                                        "--api-url", setup.server.baseURL], environment: ["REVENUECAT_API_KEY": ""])
        #expect(none.status == 2, "\(none.all)")
        #expect(none.stderr.contains("no RevenueCat API key"), "\(none.stderr)")
    }

    @Test(.timeLimit(.minutes(5)))
    func aRateLimitIsWaitedOut() async throws {
        let setup = try await Setup(faults: [Self.prefix + "offerings": [.rateLimited(retryAfter: "1")]])
        defer { Task { await setup.finish() } }
        let output = try await setup.fetch(["--verbose"])
        #expect(output.status == 0, "\(output.all)")
        #expect(output.stderr.contains("429 rate limit: retrying"), "\(output.stderr)")
        #expect(setup.server.requests.filter { $0.hasPrefix("GET \(Self.prefix)offerings?") }.count == 2)
        #expect(try await Tally.run(["check", "--no-config", setup.output, Self.storekit, Self.play]).status == 0)
    }

    @Test(.timeLimit(.minutes(5)))
    func a401MidwayExitsTwoAndLeavesNoSnapshot() async throws {
        let setup = try await Setup(faults: [Self.prefix + "entitlements": [.unauthorized]])
        defer { Task { await setup.finish() } }
        let output = try await setup.fetch()
        #expect(output.status == 2, "\(output.all)")
        #expect(output.stderr.contains("401"), "\(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: setup.output))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: setup.scratch.url.path).filter { $0.contains("tally-partial") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }
}
#endif
