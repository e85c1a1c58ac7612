#if Fetch  // TallyFetchTests need the network stack: swift test --traits Fetch
import Foundation
import Testing

/// `tally fetch app-store-connect` through the built binary against the stand-in server: a full
/// fetch then check (consistent, and with one price changed on the server), a wrong key, the
/// server down, a failure half-way, 429 and 503 survived, the ASC_* variables, token renewal.
@Suite(.serialized) struct FetchAppStoreConnectCLITests {
    static let app = "1600000001"
    static let storekit = "configs/ExampleApp.storekit"

    /// A started server with the test key, and the flags that reach it.
    struct Setup: Sendable {
        let key = TestKey()
        let scratch: Scratch
        let server: StandInServer
        let keyFile: URL

        init(edits: [(file: String, old: String, new: String)] = [], faults: [String: [StandInServer.Fault]] = [:],
             broken: Set<String> = [], availability: Bool = false, seatTiers: Bool = false, winBack: Bool = false) async throws {
            scratch = try Scratch()
            keyFile = try key.write(in: scratch.url)
            var options = StandInServer.Options(publicKey: try key.publicKey)
            options.availability = availability
            options.seatTiers = seatTiers
            options.winBack = winBack
            options.edits = edits
            options.faults = faults
            options.broken = broken
            server = try StandInServer(options)
            try await server.start()
        }

        var output: String { scratch.path("asc") }

        func fetchArguments(output: String? = nil, keyFile: URL? = nil, credentials: Bool = true) -> [String] {
            var arguments = ["fetch", "app-store-connect", "--app", FetchAppStoreConnectCLITests.app, "--output", output ?? self.output,
                             "--api-url", server.baseURL]
            if credentials {
                arguments += ["--key-id", "TESTKEY123", "--issuer-id", "57246542-96fe-1a63-e053-0824d011072a",
                              "--private-key", (keyFile ?? self.keyFile).path]
            }
            return arguments
        }

        func fetch(_ extra: [String] = [], output: String? = nil, keyFile: URL? = nil, environment: [String: String] = [:]) async throws -> Tally.Output {
            try await Tally.run(fetchArguments(output: output, keyFile: keyFile) + extra, environment: environment)
        }

        func finish() async {
            await server.stop()
            scratch.remove()
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func aFullFetchChecksConsistentAndShowsItsManifest() async throws {
        let setup = try await Setup()
        defer { Task { await setup.finish() } }
        let fetched = try await setup.fetch()
        #expect(fetched.status == 0, "\(fetched.all)")
        #expect(fetched.stderr.split(separator: "\n").count == 1, "one summary line when standard error is not a terminal: \(fetched.stderr)")
        #expect(fetched.stderr.contains("fetched \(setup.output): App Store Connect snapshot of app 1600000001"), "\(fetched.stderr)")
        #expect(fetched.stderr.contains("8 in-app purchases, 2 subscription groups, 9 subscriptions"), "\(fetched.stderr)")
        #expect(fetched.stderr.contains("5 promotional offers"), "\(fetched.stderr)")
        #expect(setup.server.rejections.isEmpty, "\(setup.server.rejections)")
        #expect(setup.server.requests.contains("/v1/subscriptionPromotionalOffers/7450000003/prices"))
        // Small pages: the list was followed through links.next.
        #expect(setup.server.requests.filter { $0 == "/v1/apps/1600000001/inAppPurchasesV2" }.count == 3)

        let check = try await Tally.run(["check", "--no-config", Self.storekit, setup.output])
        #expect(check.status == 0, "\(check.all)")
        #expect(check.stdout.contains("promotional-offers") && !check.stdout.contains("skipped promotional-offers"), "\(check.stdout)")

        let show = try await Tally.run(["show", setup.output])
        #expect(show.status == 0, "\(show.all)")
        #expect(show.stdout.hasPrefix("snapshot: App Store Connect snapshot of app 1600000001, fetched "), "\(show.stdout)")
        #expect(show.stdout.contains("from \(setup.server.baseURL)"), "\(show.stdout)")

        // The key is in no file of the snapshot, and in no output.
        let body = setup.key.pem.split(separator: "\n").dropFirst().first.map(String.init) ?? "-"
        for (name, data) in Scratch.contents(of: setup.output) {
            #expect(!String(decoding: data, as: UTF8.self).contains(body), "\(name)")
            #expect(!String(decoding: data, as: UTF8.self).contains("Bearer"), "\(name)")
        }
        #expect(!fetched.all.contains(body))
    }

    @Test(.timeLimit(.minutes(5)))
    func aPriceChangedOnTheServerFailsTheNextCheckAndShowsInTheDiff() async throws {
        let before = try await Setup()
        defer { Task { await before.finish() } }
        let first = try await before.fetch()
        #expect(first.status == 0, "\(first.all)")
        let old = before.scratch.path("asc-last-week")
        try FileManager.default.copyItem(atPath: before.output, toPath: old)

        let changed = try await Setup(edits: [(file: "03-iap-prices-sessions-20.json", old: "\"customerPrice\": \"5.99\"", new: "\"customerPrice\": \"6.49\"")])
        defer { Task { await changed.finish() } }
        // A new fetch into the same folder replaces the earlier snapshot.
        let second = try await Tally.run(changed.fetchArguments(output: before.output, keyFile: changed.keyFile))
        #expect(second.status == 0, "\(second.all)")
        let check = try await Tally.run(["check", "--no-config", Self.storekit, before.output])
        #expect(check.status == 1, "\(check.all)")
        #expect(check.stdout.contains("com.calmly.app.sessions.20 costs 5.99 USD in USA in the configuration but 6.49 USD"), "\(check.stdout)")

        let diff = try await Tally.run(["diff", old, before.output])
        #expect(diff.stdout.contains("com.calmly.app.sessions.20"), "\(diff.all)")
        #expect(diff.stdout.contains("6.49"), "\(diff.all)")
    }

    @Test(.timeLimit(.minutes(5)))
    func promotionalOffersFromTheSnapshotAreCompared() async throws {
        let setup = try await Setup(edits: [(file: "promotional-offer-prices-7450000003.json", old: "\"customerPrice\": \"34.99\"",
                                             new: "\"customerPrice\": \"29.99\"")])
        defer { Task { await setup.finish() } }
        #expect(try await setup.fetch().status == 0)
        let check = try await Tally.run(["check", "--no-config", Self.storekit, setup.output])
        #expect(check.status == 1, "\(check.all)")
        #expect(check.stdout.contains("promo-offer  com.calmly.app.plus.annual promotional offer plus_annual_winback_half differs"), "\(check.stdout)")
        #expect(check.stdout.contains("34.99") && check.stdout.contains("29.99"), "\(check.stdout)")
    }

    @Test(.timeLimit(.minutes(5)))
    func aWrongKeyExitsTwoSaysWhichCredentialToCheckAndLeavesTheFolder() async throws {
        let setup = try await Setup()
        defer { Task { await setup.finish() } }
        #expect(try await setup.fetch().status == 0)
        let before = Scratch.contents(of: setup.output)
        let otherKey = try TestKey().write(in: setup.scratch.url, name: "AuthKey_OTHER.p8")
        let output = try await setup.fetch(keyFile: otherKey)
        #expect(output.status == 2, "\(output.all)")
        #expect(output.stderr.contains("401"), "\(output.stderr)")
        #expect(output.stderr.contains("--key-id or ASC_KEY_ID") && output.stderr.contains(".p8"), "\(output.stderr)")
        #expect(Scratch.contents(of: setup.output) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: setup.scratch.url.path).filter { $0.hasPrefix(".") }.isEmpty)
    }

    @Test(.timeLimit(.minutes(5)))
    func aServerThatIsDownExitsTwoWithTheURL() async throws {
        let setup = try await Setup()
        defer { Task { await setup.finish() } }
        await setup.server.stop()
        let output = try await setup.fetch()
        #expect(output.status == 2, "\(output.all)")
        #expect(output.stderr.contains("cannot connect to \(setup.server.baseURL)/v1/apps/1600000001/inAppPurchasesV2"), "\(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: setup.output))
    }

    @Test(.timeLimit(.minutes(5)))
    func aFailureHalfWayLeavesTheEarlierSnapshotExactlyAsItWas() async throws {
        let good = try await Setup()
        defer { Task { await good.finish() } }
        #expect(try await good.fetch().status == 0)
        let before = Scratch.contents(of: good.output)

        let failing = try await Setup(broken: ["/v1/subscriptions/6450000203/promotionalOffers"])
        defer { Task { await failing.finish() } }
        let output = try await Tally.run(failing.fetchArguments(output: good.output, keyFile: failing.keyFile))
        #expect(output.status == 2, "\(output.all)")
        #expect(output.stderr.contains("HTTP 500"), "\(output.stderr)")
        #expect(output.stderr.contains("/v1/subscriptions/6450000203/promotionalOffers"), "\(output.stderr)")
        #expect(Scratch.contents(of: good.output) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: good.scratch.url.path).filter { $0.hasPrefix(".") }.isEmpty)
    }

    @Test(.timeLimit(.minutes(5)))
    func rateLimitsAndUnavailableServersAreSurvived() async throws {
        let setup = try await Setup(faults: [
            "/v1/apps/1600000001/subscriptionGroups": [.status(429, retryAfter: "1")],
            "/v1/subscriptions/6450000203/prices": [.status(503, retryAfter: nil)],
        ])
        defer { Task { await setup.finish() } }
        let output = try await setup.fetch(["--verbose"])
        #expect(output.status == 0, "\(output.all)")
        #expect(setup.server.requests.filter { $0 == "/v1/apps/1600000001/subscriptionGroups" }.count == 2)
        #expect(output.stderr.contains("429 rate limit: retrying in 1 s"), "\(output.stderr)")
        #expect(output.stderr.contains("HTTP 503: retrying"), "\(output.stderr)")
        #expect(output.stderr.contains("GET /v1/apps/1600000001/inAppPurchasesV2?include=iapPriceSchedule&limit=200"), "\(output.stderr)")
        #expect(output.stderr.contains("2 retries)"), "\(output.stderr)")
        #expect(try await Tally.run(["check", "--no-config", Self.storekit, setup.output]).status == 0)
    }

    @Test(.timeLimit(.minutes(5)))
    func theEnvironmentGivesTheCredentials() async throws {
        let setup = try await Setup()
        defer { Task { await setup.finish() } }
        let base = ["fetch", "app-store-connect", "--app", Self.app, "--output", setup.output, "--api-url", setup.server.baseURL]
        let environment = ["ASC_KEY_ID": "TESTKEY123", "ASC_ISSUER_ID": "57246542-96fe-1a63-e053-0824d011072a"]
        let fromPath = try await Tally.run(base, environment: environment.merging(["ASC_PRIVATE_KEY_PATH": setup.keyFile.path]) { $1 })
        #expect(fromPath.status == 0, "\(fromPath.all)")
        let fromText = try await Tally.run(base, environment: environment.merging(["ASC_PRIVATE_KEY": setup.key.pem]) { $1 })
        #expect(fromText.status == 0, "\(fromText.all)")
        let missing = try await Tally.run(base, environment: ["ASC_KEY_ID": "TESTKEY123"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("--issuer-id or ASC_ISSUER_ID"), "\(missing.stderr)")
    }

    @Test(.timeLimit(.minutes(5)))
    func aLongFetchRenewsItsToken() async throws {
        // Tokens live 3 s here; the rate limit makes the fetch wait 2 s, past the renewal margin.
        let setup = try await Setup(faults: ["/v1/apps/1600000001/subscriptionGroups": [.status(429, retryAfter: "2")]])
        defer { Task { await setup.finish() } }
        let output = try await setup.fetch(environment: ["TALLY_ASC_TOKEN_LIFETIME": "3"])
        #expect(output.status == 0, "\(output.all)")
        #expect(setup.server.tokens.count >= 2, "\(setup.server.tokens.count) tokens")
        #expect(setup.server.rejections.isEmpty, "\(setup.server.rejections)")
    }
}
#endif
