#if Fetch  // TallyFetchTests need the network stack: swift test --traits Fetch
import Foundation
import Testing
@testable import TallyFetch
import TallyFetchHTTP

/// The shared transport's rules, one by one: redirects, numbers, server text, URLs, IDs, limits.
@Suite struct TransportHardeningTests {
    typealias Script = FetchClientTests.Script

    static let url = URL(string: "https://api.example.test/v1/things")!

    func client(_ script: Script, limits: FetchLimits = FetchLimits()) -> FetchClient {
        FetchClient(transport: script, signer: FetchClientTests.Signer(), retry: RetryPolicy(sleep: { _ in }), budget: FetchBudget(limits: limits))
    }

    @Test func aSameOriginRedirectIsFollowedWithItsCredentials() async throws {
        let script = Script([FetchClientTests.ok(307, headers: ["Location": "/v1/moved?x=1"]), FetchClientTests.ok()])
        let response = try await client(script).get(Self.url)
        #expect(response.status == 200)
        #expect(script.requests.map(\.url.absoluteString) == [Self.url.absoluteString, "https://api.example.test/v1/moved?x=1"])
        #expect(script.requests.allSatisfy { $0.headers["Authorization"] == "Bearer test" })
    }

    @Test(arguments: ["https://evil.example.test/v1/things", "http://api.example.test/v1/things", "https://api.example.test:8443/v1/things",
                      "//evil.example.test/x"])
    func aRedirectToAnotherOriginIsNotFollowed(location: String) async throws {
        let script = Script([FetchClientTests.ok(302, headers: ["Location": location]), FetchClientTests.ok()])
        await #expect(throws: FetchError.self) { try await client(script).get(Self.url) }
        #expect(script.requests.count == 1)
    }

    @Test func redirectsAreBounded() async throws {
        let script = Script(Array(repeating: FetchClientTests.ok(302, headers: ["Location": "/v1/again"]), count: 10))
        await #expect(throws: FetchError.limit(url: "https://api.example.test/v1/again", what: "more than 5 redirects for one request")) {
            try await client(script).get(Self.url)
        }
    }

    @Test(arguments: ["1e300", "10000000000000000", "-1e300", "inf", "nan", "Fri, 31 Dec 9999 23:59:59 GMT", String(repeating: "9", count: 400)])
    func aRetryAfterOfAnySizeIsCappedNotATrap(header: String) {
        let wait = RetryPolicy().retryAfter(header)
        #expect(wait == nil || (wait.map { $0 >= .zero && $0 <= .seconds(60) } ?? false), "\(String(describing: wait))")
    }

    @Test func retryAfterIsSecondsOrADate() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(RetryPolicy().retryAfter("7") == .seconds(7))
        #expect(RetryPolicy().retryAfter("1e300") == .seconds(60))
        #expect(RetryPolicy().retryAfter("Fri, 15 Jan 2027 08:00:10 GMT", now: Date(timeIntervalSince1970: 1_800_000_000 - 0)) != nil)
        #expect(RetryPolicy().retryAfter(HTTPDate.format(now.addingTimeInterval(20)), now: now) == .seconds(20))
    }

    @Test func theBackoffScaleIsBounded() {
        #expect(RetryPolicy(backoffScale: 1e300).backoff(after: 5) == .seconds(16) * 100)
        #expect(RetryPolicy(backoffScale: .nan).backoff(after: 1) == .seconds(1))
        #expect(throws: FetchError.self) { try FetchSettings.from(environment: ["TALLY_FETCH_BACKOFF_SCALE": "1e300"], timeout: nil, transport: AsyncHTTPClientTransport.init(proxies:)) }
        #expect(throws: FetchError.self) { try FetchSettings.from(environment: [:], timeout: 0, transport: AsyncHTTPClientTransport.init(proxies:)) }
        let settings = try? FetchSettings.from(environment: ["TALLY_FETCH_MAX_PAGES": "7", "TALLY_FETCH_RESPONSE_SECONDS": "0.5"], timeout: 30,
                                               transport: AsyncHTTPClientTransport.init(proxies:))
        #expect(settings?.limits.pagesPerList == 7)
        #expect(settings?.limits.timePerResponse == .milliseconds(500))
        #expect(settings?.limits.idleTime == .milliseconds(500))
        #expect(settings?.limits.deadline == .seconds(30))
    }

    @Test func serverTextIsEscapedCappedAndRedacted() {
        #expect(ServerText.clean("a\u{1B}]0;t\u{07}b\nc\u{9B}\u{202E}") == "a\\u{1B}]0;t\\u{7}b\\u{A}c\\u{9B}\\u{202E}")
        #expect(ServerText.clean(String(repeating: "x", count: 1_000), limit: 10) == "xxxxxxxxxx… (990 more characters)")
        #expect(ServerText.clean("sent Authorization: Bearer abc.def-ghi, again bearer   xyz") == "sent Authorization: Bearer [redacted], again bearer   [redacted]")
        #expect(ServerText.clean("token ya29.a0AfB_secretvalue here", secrets: ["ya29.a0AfB_secretvalue"]) == "token [redacted] here")
        #expect(ServerText.clean("jwt eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJ4In0.c2lnbmF0dXJl end") == "jwt [redacted JWT] end")
        #expect(ServerText.clean("prix: 10,90 € — ok") == "prix: 10,90 € — ok")
    }

    @Test func theErrorDetailRedactsWhatWasSent() {
        let body = Data(#"{"errors":[{"code":"X","detail":"you sent secret-token-123456"}]}"#.utf8)
        #expect(FetchClient.errorDetail(body, secrets: ["secret-token-123456"]) == "X: you sent [redacted]")
    }

    @Test func urlsAreShownWithoutAUserOrPassword() throws {
        let url = try #require(URL(string: "http://user:pw@127.0.0.1:8080/prefix?q=1"))
        #expect(APIURL.shown(url) == "http://127.0.0.1:8080/prefix?q=1")
        #expect(APIURL.origin(url) == "http://127.0.0.1:8080")
        #expect(FetchError.unreachable(url: url.absoluteString, reason: "x").description.contains("pw") == false)
    }

    @Test func httpsIsRequiredBeyondLoopbackHosts() throws {
        for loopback in ["http://127.0.0.1:1", "http://localhost:2", "http://[::1]:3", "https://api.example.test"] {
            _ = try APIURL.checked(try #require(URL(string: loopback)), example: "https://x")
        }
        for remote in ["http://api.example.test", "http://127.0.0.1.example.test", "ftp://127.0.0.1"] {
            #expect(throws: FetchError.self) { try APIURL.checked(try #require(URL(string: remote)), example: "https://x") }
        }
        _ = try APIURL.checked(try #require(URL(string: "http://proxy.example.test")), example: "https://x", allowHTTP: true)
    }

    @Test func idsBecomeOneEncodedSegment() throws {
        #expect(try APIURL.segment("a/b", from: Self.url) == "a%2Fb")
        #expect(try APIURL.segment("6450000104", from: Self.url) == "6450000104")
        #expect(try APIURL.segment("a b?c#d%", from: Self.url) == "a%20b%3Fc%23d%25")
        for refused in ["", ".", ".."] {
            #expect(throws: FetchError.self) { try APIURL.segment(refused, from: Self.url) }
        }
        let url = try APIURL.url(on: try #require(URL(string: "https://proxy.test/p%20x/")), "/v1/\(try APIURL.segment("a/b", from: Self.url))/c", [])
        #expect(url.absoluteString == "https://proxy.test/p%20x/v1/a%2Fb/c")
    }

    @Test func aResponsePastTheByteLimitIsALimitError() async throws {
        let script = Script([.failure(TransportFailure(.tooLarge, "the response passed 1 MiB"))])
        await #expect(throws: FetchError.limit(url: Self.url.absoluteString,
                                               what: "the response passed 1 MiB, the limit of one response (TALLY_FETCH_MAX_RESPONSE_BYTES)")) {
            try await client(script).get(Self.url)
        }
        #expect(script.requests.first?.maxBytes == FetchLimits().bytesPerResponse)
    }

    @Test func theRequestsOfARunAreCountedAcrossCopiesOfTheClient() async throws {
        let script = Script([FetchClientTests.ok(), FetchClientTests.ok(), FetchClientTests.ok()])
        let first = client(script, limits: FetchLimits(requestsPerRun: 2))
        let copy = first
        _ = try await first.get(Self.url)
        _ = try await copy.get(Self.url)
        await #expect(throws: FetchError.self) { try await first.get(Self.url) }
        #expect(script.requests.count == 2)
    }
}

/// An HTTP date (IMF-fixdate) for tests.
enum HTTPDate {
    static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
#endif
