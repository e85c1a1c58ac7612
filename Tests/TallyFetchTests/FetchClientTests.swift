#if Fetch  // TallyFetchTests need the network stack: swift test --traits Fetch
import Foundation
import Testing
@testable import TallyFetch

/// The retrying client against a scripted transport: what is retried, how long it waits, what it throws.
@Suite struct FetchClientTests {
    /// Answers each request with the next scripted outcome and records the waits.
    final class Script: HTTPTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var outcomes: [Result<TransportResponse, TransportFailure>]
        private(set) var requests: [TransportRequest] = []
        init(_ outcomes: [Result<TransportResponse, TransportFailure>]) { self.outcomes = outcomes }

        func get(_ request: TransportRequest) async throws -> TransportResponse {
            let next = lock.withLock { () -> Result<TransportResponse, TransportFailure> in
                requests.append(request)
                return outcomes.isEmpty ? .failure(TransportFailure(.other, "script ended")) : outcomes.removeFirst()
            }
            return try next.get()
        }
    }

    final class Waits: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var values: [Duration] = []
        func record(_ value: Duration) { lock.withLock { values.append(value) } }
    }

    struct Signer: RequestSigner {
        func authorization() async throws -> String { "Bearer test" }
        func authenticationHint(status: Int) -> String { "Check the test key." }
    }

    static let url = URL(string: "https://api.example.test/v1/things")!

    static func ok(_ status: Int = 200, headers: [String: String] = [:], body: String = "{\"data\":[]}") -> Result<TransportResponse, TransportFailure> {
        .success(TransportResponse(url: url, status: status, headers: headers, body: Data(body.utf8)))
    }

    func client(_ script: Script, _ waits: Waits, attempts: Int = 5) -> FetchClient {
        FetchClient(transport: script, signer: Signer(), retry: RetryPolicy(maxAttempts: attempts, sleep: { waits.record($0) }))
    }

    @Test func aRateLimitWaitsAsLongAsRetryAfterSays() async throws {
        let script = Script([Self.ok(429, headers: ["Retry-After": "7"]), Self.ok()])
        let waits = Waits()
        let response = try await client(script, waits).get(Self.url)
        #expect(response.status == 200)
        #expect(waits.values == [.seconds(7)])
        #expect(script.requests.count == 2)
        #expect(script.requests.allSatisfy { $0.headers["Authorization"] == "Bearer test" })
    }

    @Test func aLongRetryAfterIsCapped() async throws {
        let script = Script([Self.ok(429, headers: ["retry-after": "86400"]), Self.ok()])
        let waits = Waits()
        _ = try await client(script, waits).get(Self.url)
        #expect(waits.values == [.seconds(60)])
    }

    @Test func serverErrorsAndDroppedConnectionsBackOffExponentially() async throws {
        let script = Script([Self.ok(503), .failure(TransportFailure(.connectionLost, "dropped")), Self.ok(502), Self.ok()])
        let waits = Waits()
        let response = try await client(script, waits).get(Self.url)
        #expect(response.status == 200)
        #expect(waits.values == [.seconds(1), .seconds(2), .seconds(4)])
    }

    @Test func retriesAreBounded() async throws {
        let script = Script(Array(repeating: Self.ok(500), count: 10))
        let waits = Waits()
        await #expect(throws: FetchError.httpStatus(status: 500, url: Self.url.absoluteString, detail: "{\"data\":[]}", attempts: 3)) {
            try await client(script, waits, attempts: 3).get(Self.url)
        }
        #expect(script.requests.count == 3)
    }

    @Test func aConnectionThatCannotBeMadeNamesTheURL() async throws {
        let script = Script(Array(repeating: .failure(TransportFailure(.cannotConnect, "the connection was refused")), count: 5))
        let waits = Waits()
        do {
            _ = try await client(script, waits).get(Self.url)
            Issue.record("no error")
        } catch let error as FetchError {
            guard case .unreachable(let url, _) = error else { Issue.record("\(error)"); return }
            #expect(url == Self.url.absoluteString)
            #expect(error.description.contains("cannot connect to https://api.example.test/v1/things"))
        }
        #expect(script.requests.count == 5)
    }

    @Test func unauthorizedIsNotRetriedAndSaysWhatToCheck() async throws {
        let body = #"{"errors":[{"status":"401","code":"NOT_AUTHORIZED","title":"Authentication credentials are missing or invalid."}]}"#
        let script = Script([Self.ok(401, body: body)])
        let waits = Waits()
        do {
            _ = try await client(script, waits).get(Self.url)
            Issue.record("no error")
        } catch let error as FetchError {
            #expect(error.description.contains("401"))
            #expect(error.description.contains("NOT_AUTHORIZED"))
            #expect(error.description.contains("Check the test key."))
        }
        #expect(waits.values.isEmpty)
    }

    @Test func notFoundIsAnHTTPStatusError() async throws {
        let script = Script([Self.ok(404, body: #"{"errors":[{"code":"NOT_FOUND","title":"The specified resource does not exist"}]}"#)])
        await #expect(throws: FetchError.httpStatus(status: 404, url: Self.url.absoluteString,
                                                    detail: "NOT_FOUND: The specified resource does not exist", attempts: 1)) {
            try await client(script, Waits()).get(Self.url)
        }
    }

    @Test func retryAfterReadsSecondsAndHTTPDates() {
        let policy = RetryPolicy()
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(policy.retryAfter("1") == .seconds(1))
        #expect(policy.retryAfter("Tue, 14 Nov 2023 22:13:30 GMT", now: now) == .seconds(10))
        #expect(policy.retryAfter("soon") == nil)
        #expect(policy.retryAfter(nil) == nil)
        #expect(RetryPolicy(backoffScale: 0.01).backoff(after: 3) == .milliseconds(40))
        #expect(RetryPolicy().backoff(after: 10) == .seconds(30))
    }
}
#endif
