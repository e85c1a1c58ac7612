#if Fetch  // TallyFetchTests need the network stack: swift test --traits Fetch
import FlyingFox
import Foundation
import TallyFetch
import Testing

/// `tally fetch` through the built binary against hostile stand-ins on 127.0.0.1, for every store:
/// credentials stay on the API's origin, and nothing a server sends can crash, exhaust or outlast
/// Tally (issue 26). Every limit is lowered for the test, so no test waits longer than the limit it proves.
@Suite(.serialized) struct HostileFetchTests {
    /// No output of a fetch holds a credential it sent, an escape character or a bell.
    static func expectClean(_ output: Tally.Output, _ setup: HostileSetup, sourceLocation: SourceLocation = #_sourceLocation) {
        for credential in setup.credentials {
            #expect(!output.all.contains(credential), "a credential was printed: \(output.all)", sourceLocation: sourceLocation)
        }
        #expect(!output.all.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B },
                "a control character reached the terminal", sourceLocation: sourceLocation)
        #expect(!output.all.contains("Fatal error") && !output.all.contains("Backtrace"), "\(output.all)", sourceLocation: sourceLocation)
    }

    @Test(.timeLimit(.minutes(5)), arguments: Store.allCases, [301, 302, 307])
    func aRedirectToAnotherOriginIsRefusedAndGetsNoCredential(store: Store, status: Int) async throws {
        let recorder = RecordingServer()
        try await recorder.start()
        let other = recorder.baseURL
        let setup = try await HostileSetup(store) { request, context in
            request.path == context.firstList ? Hostile.json(status, [:], headers: ["Location": other + request.target.rawValue]) : nil
        }
        defer { Task { await setup.finish(); await recorder.stop() } }
        let fetched = try await setup.fetch()
        #expect(fetched.status == 2, "\(fetched.all)")
        #expect(fetched.stderr.contains("redirected (HTTP \(status)) to another origin, \(other)"), "\(fetched.stderr)")
        #expect(recorder.headers.isEmpty, "the other origin was asked: \(recorder.headers)")
        #expect(!recorder.headers.contains { $0.keys.contains { $0.lowercased() == "authorization" } })
        #expect(!FileManager.default.fileExists(atPath: setup.output) && setup.leftovers.isEmpty, "\(setup.leftovers)")
        Self.expectClean(fetched, setup)
    }

    @Test(.timeLimit(.minutes(5)), arguments: Store.allCases, ["1e300", "10000000000000000", "Fri, 31 Dec 9999 23:59:59 GMT"])
    func aHugeRetryAfterIsCappedAndMeetsTheDeadline(store: Store, retryAfter: String) async throws {
        let setup = try await HostileSetup(store) { request, context in
            request.path == context.firstList ? Hostile.json(429, [:], headers: ["Retry-After": retryAfter]) : nil
        }
        defer { Task { await setup.finish() } }
        // The cap (60 s) is longer than what is left of a 5 s run: stopped now, not after a wait.
        let fetched = try await setup.fetch(["--timeout", "5"])
        #expect(fetched.status == 2, "\(fetched.all)")
        #expect(fetched.stderr.contains("429 rate limit: the wait before a retry (60 s) would pass the fetch's deadline"), "\(fetched.stderr)")
        #expect(setup.leftovers.isEmpty, "\(setup.leftovers)")
        Self.expectClean(fetched, setup)
    }

    @Test(.timeLimit(.minutes(5)), arguments: Store.allCases)
    func environmentKnobsAreReadWithBounds(store: Store) async throws {
        let setup = try await HostileSetup(store)
        defer { Task { await setup.finish() } }
        for (name, value) in [("TALLY_FETCH_BACKOFF_SCALE", "1e300"), ("TALLY_FETCH_MAX_PAGES", "0"), ("TALLY_FETCH_RESPONSE_SECONDS", "nan"),
                              ("TALLY_FETCH_MAX_RESPONSE_BYTES", "10000000000000000000000")] {
            let fetched = try await setup.fetch(environment: [name: value])
            #expect(fetched.status == 2, "\(fetched.all)")
            #expect(fetched.stderr.contains("\(name) must be a number from"), "\(fetched.stderr)")
        }
        let timeout = try await setup.fetch(["--timeout", "1e300"])
        #expect(timeout.status == 2 && timeout.stderr.contains("--timeout must be a number of seconds from 1 to 86400"), "\(timeout.all)")
        #expect(setup.requests.isEmpty, "nothing is requested with a setting out of bounds")
    }

    @Test(.timeLimit(.minutes(5)), arguments: Store.allCases)
    func anErrorWithEscapeSequencesIsEscapedAndCapped(store: Store) async throws {
        let forged = "\u{1B}]0;owned\u{07}\u{1B}[2J\u{1B}[31mFORGED: tally: all prices match\u{1B}[0m\u{9B}2J\u{202E}" + String(repeating: "A", count: 200_000)
        let setup = try await HostileSetup(store) { request, context in
            request.path == context.firstList ? Hostile.error(context.store, 400, forged) : nil
        }
        defer { Task { await setup.finish() } }
        let fetched = try await setup.fetch()
        #expect(fetched.status == 2, "\(fetched.all)")
        // RevenueCat's errors are shown as the JSON they came in, where ESC is the text \u001b.
        let escaped = store == .revenueCat ? "\\u001b]0;owned\\u0007\\u001b[2J" : "\\u{1B}]0;owned\\u{7}\\u{1B}[2J"
        #expect(fetched.stderr.contains(escaped), "\(fetched.stderr.prefix(600))")
        #expect(fetched.stderr.contains("more characters)"), "the detail is capped")
        #expect(fetched.stderr.utf8.count < 4_000, "\(fetched.stderr.utf8.count) bytes")
        Self.expectClean(fetched, setup)
    }

    @Test(.timeLimit(.minutes(5)), arguments: Store.allCases)
    func anErrorThatEchoesTheAuthorizationHeaderPrintsNoCredential(store: Store) async throws {
        let setup = try await HostileSetup(store) { request, context in
            guard request.path == context.firstList else { return nil }
            let sent = request.headers[.authorization] ?? "none"
            let token = String(sent.dropFirst("Bearer ".count))
            return Hostile.error(context.store, 400, "Invalid request. Headers: Authorization: \(sent); token=\(token)")
        }
        defer { Task { await setup.finish() } }
        let fetched = try await setup.fetch()
        #expect(fetched.status == 2, "\(fetched.all)")
        #expect(!setup.credentials.isEmpty)
        #expect(fetched.stderr.contains("Authorization: [redacted]; token=[redacted]"), "\(fetched.stderr)")
        Self.expectClean(fetched, setup)
    }

    @Test(.timeLimit(.minutes(5)), arguments: Store.allCases)
    func anEndlessBodyStopsAtTheByteLimit(store: Store) async throws {
        let setup = try await HostileSetup(store) { request, context in
            request.path == context.firstList ? Hostile.endless(chunk: 64 << 10, every: .zero) : nil
        }
        defer { Task { await setup.finish() } }
        let fetched = try await setup.fetch(environment: ["TALLY_FETCH_MAX_RESPONSE_BYTES": "1048576"])
        #expect(fetched.status == 2, "\(fetched.all)")
        #expect(fetched.stderr.contains("the response passed 1 MiB, the limit of one response (TALLY_FETCH_MAX_RESPONSE_BYTES)"), "\(fetched.stderr)")
        #expect(setup.leftovers.isEmpty, "\(setup.leftovers)")
        Self.expectClean(fetched, setup)
    }

    @Test(.timeLimit(.minutes(5)), arguments: Store.allCases)
    func aTricklingBodyStopsAtTheTimeLimit(store: Store) async throws {
        let setup = try await HostileSetup(store) { request, context in
            request.path == context.firstList ? Hostile.endless(chunk: 1, every: .milliseconds(100)) : nil
        }
        defer { Task { await setup.finish() } }
        let fetched = try await setup.fetch(environment: ["TALLY_FETCH_RESPONSE_SECONDS": "1"])
        #expect(fetched.status == 2, "\(fetched.all)")
        #expect(fetched.stderr.contains("the response took longer than 1 s in all, the limit of one response (TALLY_FETCH_RESPONSE_SECONDS)"),
                "\(fetched.stderr)")
        #expect(setup.requests.filter { $0 == setup.firstList }.count == 1, "a response past its time is not retried")
        Self.expectClean(fetched, setup)
    }

    @Test(.timeLimit(.minutes(5)), arguments: Store.allCases)
    func aServerThatNeverAnswersMeetsTheDeadline(store: Store) async throws {
        let setup = try await HostileSetup(store) { request, context in
            guard request.path == context.firstList else { return nil }
            try? await Task.sleep(for: .seconds(20))
            return nil
        }
        defer { Task { await setup.finish() } }
        let fetched = try await setup.fetch(["--timeout", "2"])
        #expect(fetched.status == 2, "\(fetched.all)")
        #expect(fetched.stderr.contains("the fetch ran past its deadline of 2 s (--timeout SECONDS raises it)"), "\(fetched.stderr)")
        #expect(!fetched.stderr.contains("cannot connect"), "\(fetched.stderr)")
        #expect(setup.leftovers.isEmpty, "\(setup.leftovers)")
    }

    @Test(.timeLimit(.minutes(5)), arguments: Store.allCases)
    func endlessPaginationStopsAtThePageLimit(store: Store) async throws {
        let counter = Counter()
        let setup = try await HostileSetup(store) { request, context in
            guard request.path == context.firstList else { return nil }
            return Hostile.page(context.store, baseURL: context.baseURL, path: context.firstList, next: counter.next())
        }
        defer { Task { await setup.finish() } }
        let fetched = try await setup.fetch(environment: ["TALLY_FETCH_MAX_PAGES": "5"])
        #expect(fetched.status == 2, "\(fetched.all)")
        #expect(fetched.stderr.contains("has more than 5 pages, its limit (TALLY_FETCH_MAX_PAGES)"), "\(fetched.stderr)")
        #expect(!fetched.stderr.contains("already fetched"), "\(fetched.stderr)")
        #expect(setup.requests.filter { $0 == setup.firstList }.count == 5)
    }

    @Test(.timeLimit(.minutes(5)), arguments: Store.allCases)
    func theRequestsOfARunAreBounded(store: Store) async throws {
        let setup = try await HostileSetup(store)
        defer { Task { await setup.finish() } }
        let fetched = try await setup.fetch(environment: ["TALLY_FETCH_MAX_REQUESTS": "3"])
        #expect(fetched.status == 2, "\(fetched.all)")
        #expect(fetched.stderr.contains("the run made 3 requests, its limit (TALLY_FETCH_MAX_REQUESTS)"), "\(fetched.stderr)")
    }

    @Test(.timeLimit(.minutes(5)), arguments: Store.withNestedIDs, ["..", "."])
    func anIDThatWouldChangeThePathIsRefused(store: Store, id: String) async throws {
        let setup = try await HostileSetup(store) { request, context in Self.serving(id: id, request, context) }
        defer { Task { await setup.finish() } }
        let fetched = try await setup.fetch()
        #expect(fetched.status == 2, "\(fetched.all)")
        #expect(fetched.stderr.contains("the server named a resource \"\(id)\", which is not an ID"), "\(fetched.stderr)")
        // Nothing was asked about the resource: no price schedule, no base plan's offers, no normalised path.
        #expect(setup.requests.allSatisfy { !$0.contains("iapPriceSchedule") && !$0.contains("/premium/") && !$0.contains("/.") }, "\(setup.requests)")
    }

    @Test(.timeLimit(.minutes(5)), arguments: Store.withNestedIDs)
    func anIDWithASlashStaysOneSegment(store: Store) async throws {
        let setup = try await HostileSetup(store) { request, context in Self.serving(id: "a/b", request, context) }
        defer { Task { await setup.finish() } }
        _ = try await setup.fetch()
        #expect(setup.rawTargets.contains { $0.contains("/a%2Fb/") }, "\(setup.rawTargets)")
        #expect(!setup.rawTargets.contains { $0.contains("/a/b/") }, "\(setup.rawTargets)")
    }

    /// Issue 47: every ID a server sends reaches a request path as one percent-encoded segment,
    /// in every request (the in-app purchase's availability too): no crash, no staging folder
    /// left, and never a path the ID would change (`x/../../v1/apps/999/secret` with the token).
    @Test(.timeLimit(.minutes(5)), arguments: ["?x=1", "#f", "a\u{0000}b", "ü/ö", "x/../../v1/apps/999/secret"])
    func anIDStaysOneSegmentInEveryRequest(id: String) async throws {
        let setup = try await HostileSetup(.appStoreConnect) { request, context in Self.serving(id: id, request, context) }
        defer { Task { await setup.finish() } }
        let fetched = try await setup.fetch()
        #expect(fetched.status == 0 || fetched.status == 2, "no crash: \(fetched.all)")
        #expect(setup.leftovers.isEmpty, "\(setup.leftovers)")
        #expect(!setup.rawTargets.contains { $0.contains("/v1/apps/999/secret") || $0.contains("/../") }, "\(setup.rawTargets)")
        let encoded = try APIURL.segment(id, from: try #require(URL(string: "https://api.test")))
        let asked = setup.rawTargets.filter { $0.contains("inAppPurchases/") && !$0.contains("/apps/") }
        #expect(!asked.isEmpty && asked.allSatisfy { $0.contains("/\(encoded)/") }, "each request about the resource names it encoded (\(encoded)): \(setup.rawTargets)")
    }

    /// The first list names one resource `id` (an in-app purchase without a linked price
    /// schedule; a subscription's base plan, where the wildcard offers list is not served).
    static func serving(id: String, _ request: HTTPRequest, _ context: HostileSetup.Context) -> HTTPResponse? {
        switch context.store {
        case .appStoreConnect:
            guard request.path == context.firstList else { return nil }
            return Hostile.json(200, ["data": [["type": "inAppPurchases", "id": id, "attributes": ["productId": "x"]]],
                                      "links": ["self": context.baseURL + context.firstList]])
        case .googlePlay:
            if request.path == context.firstList {
                return Hostile.json(200, ["subscriptions": [["productId": "premium", "basePlans": [["basePlanId": id]]]]])
            }
            return request.path.hasSuffix("/subscriptions/-/basePlans/-/offers") ? Hostile.error(.googlePlay, 404, "not served") : nil
        case .revenueCat:
            return nil
        }
    }

    @Test(.timeLimit(.minutes(5)), arguments: Store.allCases)
    func aFolderHoldingWhatNoFetchWroteIsRefusedBeforeAnyRequest(store: Store) async throws {
        let setup = try await HostileSetup(store)
        defer { Task { await setup.finish() } }
        #expect(try await setup.fetch().status == 0)
        try "mine".write(toFile: setup.output + "/notes.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: setup.output + "/.git", withIntermediateDirectories: false)
        let before = Scratch.contents(of: setup.output)
        let requests = setup.requests.count
        let fetched = try await setup.fetch()
        #expect(fetched.status == 2, "\(fetched.all)")
        #expect(fetched.stderr.contains("the folder holds what no fetch wrote (.git, notes.txt)"), "\(fetched.stderr)")
        #expect(setup.requests.count == requests, "no request before the folder is checked")
        #expect(Scratch.contents(of: setup.output) == before)
    }

    @Test(.timeLimit(.minutes(5)), arguments: Store.allCases)
    func aFileAddedWhileTheFetchRunsIsKept(store: Store) async throws {
        let setup = try await HostileSetup(store) { request, context in
            // The user saves a note into the folder while the fetch runs.
            if request.path == context.firstList, !FileManager.default.fileExists(atPath: context.output + "/added.txt") {
                try? "added".write(toFile: context.output + "/added.txt", atomically: true, encoding: .utf8)
            }
            return nil
        }
        defer { Task { await setup.finish() } }
        try FileManager.default.createDirectory(atPath: setup.output, withIntermediateDirectories: false)
        let fetched = try await setup.fetch()
        #expect(fetched.status == 2, "\(fetched.all)")
        #expect(fetched.stderr.contains("the folder holds what no fetch wrote (added.txt)"), "\(fetched.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: setup.output) == ["added.txt"])
        #expect(setup.leftovers.isEmpty, "\(setup.leftovers)")
    }

    @Test(.timeLimit(.minutes(5)), arguments: Store.allCases)
    func aSymlinkedFolderIsWrittenThroughAndStaysALink(store: Store) async throws {
        let setup = try await HostileSetup(store)
        defer { Task { await setup.finish() } }
        let real = setup.scratch.path("real")
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: setup.output, withDestinationPath: real)
        for _ in 0..<2 {
            let fetched = try await setup.fetch()
            #expect(fetched.status == 0, "\(fetched.all)")
            let type = try FileManager.default.attributesOfItem(atPath: setup.output)[.type] as? FileAttributeType
            #expect(type == .typeSymbolicLink)
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: setup.output) == real)
            #expect(FileManager.default.fileExists(atPath: real + "/tally-snapshot.json"))
        }
        #expect(setup.leftovers.isEmpty, "\(setup.leftovers)")
    }

    @Test(.timeLimit(.minutes(5)), arguments: Store.allCases, [SIGINT, SIGTERM])
    func aSignalMidFetchRemovesTheStagingFolder(store: Store, signal: Int32) async throws {
        let setup = try await HostileSetup(store) { request, context in
            guard request.path == context.firstList else { return nil }
            try? await Task.sleep(for: .seconds(20))
            return nil
        }
        defer { Task { await setup.finish() } }
        let process = try Tally.start(setup.arguments())
        // Wait (bounded) until the fetch has its staging folder and its first request is stalled.
        for _ in 0..<200 where !setup.requests.contains(setup.firstList) { try await Task.sleep(for: .milliseconds(50)) }
        #expect(setup.requests.contains(setup.firstList))
        #expect(setup.leftovers.contains { $0.hasPrefix(".out.tally-partial-") }, "\(setup.leftovers)")
        kill(process.processIdentifier, signal)
        let ended = try await process.wait()
        #expect(ended.status == 128 + signal, "\(ended.all)")
        #expect(ended.stderr.contains("fetch interrupted (\(signal == SIGINT ? "SIGINT" : "SIGTERM"))"), "\(ended.stderr)")
        #expect(setup.leftovers.isEmpty, "\(setup.leftovers)")
        #expect(!FileManager.default.fileExists(atPath: setup.output))
    }

    /// A second signal abandons the fetch without waiting for it to stop: the run still ends
    /// through `main` with 128 + the signal and no staging folder left.
    @Test(.timeLimit(.minutes(5)), arguments: [SIGINT, SIGTERM])
    func aSecondSignalEndsTheRunAtOnceWithoutLeftovers(signal: Int32) async throws {
        let store = try #require(Store.allCases.first)
        let setup = try await HostileSetup(store) { request, context in
            guard request.path == context.firstList else { return nil }
            try? await Task.sleep(for: .seconds(20))
            return nil
        }
        defer { Task { await setup.finish() } }
        let process = try Tally.start(setup.arguments())
        for _ in 0..<200 where !setup.requests.contains(setup.firstList) { try await Task.sleep(for: .milliseconds(50)) }
        kill(process.processIdentifier, signal)
        kill(process.processIdentifier, signal)
        let ended = try await process.wait()
        #expect(ended.status == 128 + signal, "\(ended.all)")
        #expect(ended.stderr.contains("fetch interrupted"), "\(ended.stderr)")
        #expect(setup.leftovers.isEmpty, "\(setup.leftovers)")
    }

    @Test(.timeLimit(.minutes(5)), arguments: Store.allCases)
    func theNextRunSweepsStaleStagingFolders(store: Store) async throws {
        let setup = try await HostileSetup(store)
        defer { Task { await setup.finish() } }
        // The third names no process: it is not a name Tally gives, so it is the user's and stays.
        for name in [".out.tally-partial-2147483646-dead0001", ".out.tally-old-2147483646-dead0002", ".out.tally-partial-1a2b3c4d"] {
            try FileManager.default.createDirectory(atPath: setup.scratch.path(name), withIntermediateDirectories: false)
        }
        let fetched = try await setup.fetch()
        #expect(fetched.status == 0, "\(fetched.all)")
        #expect(setup.leftovers == [".out.tally-partial-1a2b3c4d"], "\(setup.leftovers)")
        #expect(fetched.stderr.contains("removed .out.tally-partial-2147483646-dead0001, a staging folder an interrupted fetch left"), "\(fetched.stderr)")
    }

    @Test(.timeLimit(.minutes(5)), arguments: Store.allCases)
    func plainHTTPIsRefusedBeyondThisMachine(store: Store) async throws {
        let setup = try await HostileSetup(store)
        defer { Task { await setup.finish() } }
        let fetched = try await setup.fetch(apiURL: "http://api.example.invalid")
        #expect(fetched.status == 2, "\(fetched.all)")
        #expect(fetched.stderr.contains("--api-url http://api.example.invalid is plain http"), "\(fetched.stderr)")
        #expect(fetched.stderr.contains("--allow-http"), "\(fetched.stderr)")
    }

    @Test(.timeLimit(.minutes(1)))
    func aPlainHTTPTokenURLIsRefusedBeyondThisMachine() async throws {
        let setup = try await HostileSetup(.googlePlay)
        defer { Task { await setup.finish() } }
        let key = try TestServiceAccount().write(in: setup.scratch.url, tokenURI: "http://oauth.example.invalid/token", name: "plain.json")
        let fetched = try await Tally.run(["fetch", "google-play", "--package", "com.example.brightly", "--service-account", key.path,
                                           "--output", setup.output, "--api-url", setup.baseURL])
        #expect(fetched.status == 2, "\(fetched.all)")
        #expect(fetched.stderr.contains("the key's token_uri http://oauth.example.invalid/token is plain http"), "\(fetched.stderr)")
        let flag = try await setup.fetch(["--token-url", "http://user:pw@oauth.example.invalid/token"])
        #expect(flag.status == 2 && flag.stderr.contains("--token-url http://oauth.example.invalid/token is plain http"), "\(flag.all)")
        #expect(setup.requests.isEmpty)
    }

    @Test(.timeLimit(.minutes(5)), arguments: Store.allCases)
    func aPasswordInTheAPIURLIsNeitherSavedNorPrinted(store: Store) async throws {
        let setup = try await HostileSetup(store)
        defer { Task { await setup.finish() } }
        let apiURL = setup.baseURL.replacingOccurrences(of: "http://", with: "http://proxyuser:s3cretpw@")
        let fetched = try await setup.fetch(["--verbose"], apiURL: apiURL)
        #expect(!fetched.all.contains("s3cretpw"), "\(fetched.all)")
        for (name, data) in Scratch.contents(of: setup.output) {
            #expect(!String(decoding: data, as: UTF8.self).contains("s3cretpw"), "\(name)")
        }
        let refused = try await setup.fetch(apiURL: apiURL + "/nothing-here")
        #expect(!refused.all.contains("s3cretpw"), "\(refused.all)")
    }

    @Test(.timeLimit(.minutes(5)), arguments: Store.allCases)
    func anEndlessHeaderSectionIsRefused(store: Store) async throws {
        let setup = try await HostileSetup(store)
        let raw = try RawServer { connection in
            connection.send("HTTP/1.1 200 OK\r\n")
            let line = "X-Filler: " + String(repeating: "a", count: 1_000) + "\r\n"
            // Bounded: 100 MB at most, and it stops as soon as Tally closes the connection.
            for _ in 0..<100_000 where connection.send(line) {}
        }
        defer { raw.stop(); Task { await setup.finish() } }
        let fetched = try await setup.fetch(apiURL: raw.baseURL)
        #expect(fetched.status == 2, "\(fetched.all)")
        #expect(fetched.stderr.contains("no response from \(raw.baseURL)/"), "\(fetched.stderr)")
        #expect(fetched.stderr.contains("the response's header section passed 80 KiB (or 65,534 fields), the HTTP parser's limit"), "\(fetched.stderr)")
        #expect(raw.connections == 1, "a response refused for its headers is not retried")
        #expect(setup.leftovers.isEmpty, "\(setup.leftovers)")
        Self.expectClean(fetched, setup)
    }

    @Test(.timeLimit(.minutes(5)), arguments: Store.allCases)
    func aConnectionDroppedMidBodyIsRetriedThenReported(store: Store) async throws {
        let setup = try await HostileSetup(store)
        let raw = try RawServer { connection in
            connection.send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{\"data\":[")
        }
        defer { raw.stop(); Task { await setup.finish() } }
        let fetched = try await setup.fetch(apiURL: raw.baseURL)
        #expect(fetched.status == 2, "\(fetched.all)")
        #expect(fetched.stderr.contains("no response from \(raw.baseURL)/"), "\(fetched.stderr)")
        #expect(fetched.stderr.contains("the connection was dropped before a whole response arrived (5 attempts)"), "\(fetched.stderr)")
        #expect(raw.connections == 5, "\(raw.connections) connections: 5 attempts in all")
        #expect(setup.leftovers.isEmpty, "\(setup.leftovers)")
        Self.expectClean(fetched, setup)
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func next() -> Int { lock.withLock { value += 1; return value } }
    }
}
#endif
