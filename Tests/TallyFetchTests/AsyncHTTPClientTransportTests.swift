#if Fetch  // TallyFetchTests need the network stack: swift test --traits Fetch
import Foundation
import Testing
@testable import TallyFetch
@testable import TallyFetchHTTP

/// The real transport, request by request, against raw servers on 127.0.0.1: each bound of
/// `TransportRequest` and each failure kind `FetchClient` decides by. (Through the binary, with
/// the stores' stand-ins: `HostileFetchTests`.)
@Suite(.serialized) struct AsyncHTTPClientTransportTests {
    static func request(_ server: RawServer, path: String = "/v1/things", method: String = "GET", body: Data? = nil,
                        maxBytes: Int = 1 << 20, timeLimit: Duration = .seconds(300), idleLimit: Duration = .seconds(300)) throws -> TransportRequest {
        TransportRequest(url: try #require(URL(string: server.baseURL + path)), headers: ["Authorization": "Bearer secret-token-0123456789"],
                         method: method, body: body, maxBytes: maxBytes, timeLimit: timeLimit, idleLimit: idleLimit)
    }

    static func failure(_ transport: AsyncHTTPClientTransport, _ request: TransportRequest) async -> TransportFailure? {
        do {
            _ = try await transport.get(request)
            return nil
        } catch {
            return error as? TransportFailure
        }
    }

    static func head(_ status: String = "200 OK", _ headers: [String] = []) -> String {
        (["HTTP/1.1 \(status)", "Content-Type: application/json"] + headers).joined(separator: "\r\n") + "\r\n\r\n"
    }

    @Test(.timeLimit(.minutes(5)))
    func aResponseIsReadWhole() async throws {
        let body = "{\"data\":[" + String(repeating: "1,", count: 50_000) + "1]}"
        let server = try RawServer { $0.send(Self.head("200 OK", ["Content-Length: \(body.utf8.count)", "X-Twice: a", "x-twice: b"]) + body) }
        defer { server.stop() }
        let response = try await AsyncHTTPClientTransport().get(try Self.request(server))
        #expect(response.status == 200)
        #expect(response.body == Data(body.utf8))
        #expect(response[header: "Content-Type"] == "application/json")
        #expect(response[header: "x-twice"] == "a, b")
        #expect(server.requests.first?.hasPrefix("GET /v1/things HTTP/1.1\r\n") == true)
        #expect(server.requests.first?.contains("Authorization: Bearer secret-token-0123456789") == true)
    }

    @Test(.timeLimit(.minutes(5)))
    func aPostSendsItsBody() async throws {
        let server = try RawServer { $0.send(Self.head("200 OK", ["Content-Length: 2"]) + "{}") }
        defer { server.stop() }
        let form = Data("grant_type=urn%3Aietf&assertion=abc".utf8)
        let response = try await AsyncHTTPClientTransport().get(try Self.request(server, path: "/token", method: "POST", body: form))
        #expect(response.status == 200)
        let sent = try #require(server.requests.first)
        #expect(sent.hasPrefix("POST /token HTTP/1.1\r\n"), "\(sent)")
        #expect(sent.contains("Content-Length: \(form.count)"), "\(sent)")
        #expect(sent.hasSuffix("\r\n\r\ngrant_type=urn%3Aietf&assertion=abc"), "\(sent)")
    }

    @Test(.timeLimit(.minutes(5)), arguments: ["301 Moved Permanently", "302 Found", "307 Temporary Redirect", "308 Permanent Redirect"])
    func aRedirectIsAnsweredNotFollowed(status: String) async throws {
        let other = try RawServer { $0.send(Self.head("200 OK", ["Content-Length: 2"]) + "{}") }
        defer { other.stop() }
        let server = try RawServer { $0.send(Self.head(status, ["Location: \(other.baseURL)/v1/things", "Content-Length: 0"])) }
        defer { server.stop() }
        let response = try await AsyncHTTPClientTransport().get(try Self.request(server))
        #expect(response.status == Int(status.prefix(3)))
        #expect(response[header: "Location"] == "\(other.baseURL)/v1/things")
        #expect(other.connections == 0, "the other host was asked")
    }

    @Test(.timeLimit(.minutes(5)))
    func anEndlessBodyStopsAtTheCap() async throws {
        let server = try RawServer { connection in
            connection.send(Self.head("200 OK", ["Transfer-Encoding: chunked"]))
            let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: 0x20, count: 0x10000) + Array("\r\n".utf8)
            // Bounded: 1 GiB at most, and it stops as soon as the client closes.
            for _ in 0..<16_384 where connection.send(chunk) {}
        }
        defer { server.stop() }
        let failure = await Self.failure(AsyncHTTPClientTransport(), try Self.request(server, maxBytes: 100_000))
        #expect(failure == TransportFailure(.tooLarge, "the response passed 100000 bytes"))
    }

    @Test(.timeLimit(.minutes(5)))
    func aContentLengthPastTheCapIsRefusedBeforeTheBody() async throws {
        let server = try RawServer { connection in
            connection.send(Self.head("200 OK", ["Content-Length: 99999999999"]))
            connection.waitForClose()
        }
        defer { server.stop() }
        let failure = await Self.failure(AsyncHTTPClientTransport(), try Self.request(server, maxBytes: 1 << 20))
        #expect(failure == TransportFailure(.tooLarge, "the response passed 1 MiB"))
    }

    @Test(.timeLimit(.minutes(5)))
    func aBodyExactlyAtTheCapIsKept() async throws {
        let body = String(repeating: "x", count: 4_096)
        let server = try RawServer { $0.send(Self.head("200 OK", ["Content-Length: 4096"]) + body) }
        defer { server.stop() }
        let response = try await AsyncHTTPClientTransport().get(try Self.request(server, maxBytes: 4_096))
        #expect(response.body.count == 4_096)
    }

    @Test(.timeLimit(.minutes(5)))
    func anEndlessHeaderSectionIsRefused() async throws {
        let server = try RawServer { connection in
            connection.send("HTTP/1.1 200 OK\r\n")
            let line = "X-Filler: " + String(repeating: "a", count: 1_000) + "\r\n"
            // Bounded: 100 MB at most, and it stops as soon as the client closes.
            for _ in 0..<100_000 where connection.send(line) {}
        }
        defer { server.stop() }
        let failure = await Self.failure(AsyncHTTPClientTransport(), try Self.request(server))
        #expect(failure?.kind == .other)
        #expect(failure?.message.contains("header section passed 80 KiB") == true, "\(String(describing: failure))")
    }

    @Test(.timeLimit(.minutes(5)))
    func oneHugeHeaderIsRefused() async throws {
        let server = try RawServer { connection in
            connection.send(Self.head("200 OK", ["X-Huge: " + String(repeating: "b", count: 200_000), "Content-Length: 2"]) + "{}")
        }
        defer { server.stop() }
        let failure = await Self.failure(AsyncHTTPClientTransport(), try Self.request(server))
        #expect(failure?.kind == .other)
        #expect(failure?.message.contains("header section passed 80 KiB") == true, "\(String(describing: failure))")
    }

    @Test(.timeLimit(.minutes(5)), arguments: [true, false])
    func aConnectionDroppedMidBodyIsLost(chunked: Bool) async throws {
        let server = try RawServer { connection in
            connection.send(Self.head("200 OK", [chunked ? "Transfer-Encoding: chunked" : "Content-Length: 100000"]) + (chunked ? "9\r\n{\"data\":[" : "{\"data\":["))
        }
        defer { server.stop() }
        let failure = await Self.failure(AsyncHTTPClientTransport(), try Self.request(server))
        #expect(failure?.kind == .connectionLost, "\(String(describing: failure))")
    }

    @Test(.timeLimit(.minutes(5)))
    func aConnectionClosedBeforeAnyAnswerIsLost() async throws {
        let server = try RawServer { _ in }
        defer { server.stop() }
        let failure = await Self.failure(AsyncHTTPClientTransport(), try Self.request(server))
        #expect(failure?.kind == .connectionLost, "\(String(describing: failure))")
    }

    @Test(.timeLimit(.minutes(5)))
    func aStalledBodyStopsAtTheIdleLimit() async throws {
        let server = try RawServer { connection in
            connection.send(Self.head("200 OK", ["Content-Length: 1000"]) + "{\"data\":[")
            connection.waitForClose()
        }
        defer { server.stop() }
        let failure = await Self.failure(AsyncHTTPClientTransport(), try Self.request(server, timeLimit: .seconds(60), idleLimit: .milliseconds(300)))
        #expect(failure == TransportFailure(.timedOut, "nothing arrived for 0.3 s"))
    }

    @Test(.timeLimit(.minutes(5)))
    func aSilentServerStopsAtTheIdleLimit() async throws {
        let server = try RawServer { $0.waitForClose() }
        defer { server.stop() }
        let failure = await Self.failure(AsyncHTTPClientTransport(), try Self.request(server, timeLimit: .seconds(60), idleLimit: .milliseconds(300)))
        #expect(failure?.kind == .timedOut, "\(String(describing: failure))")
    }

    @Test(.timeLimit(.minutes(5)))
    func aDripThatKeepsTheIdleTimerAliveStopsAtTheTimeLimit() async throws {
        let server = try RawServer { connection in
            connection.send(Self.head("200 OK", ["Transfer-Encoding: chunked"]))
            // A byte every 50 ms: never idle for long; bounded at 30 s.
            for _ in 0..<600 {
                guard connection.send("1\r\n \r\n") else { return }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        defer { server.stop() }
        let failure = await Self.failure(AsyncHTTPClientTransport(), try Self.request(server, timeLimit: .seconds(1), idleLimit: .seconds(1)))
        #expect(failure == TransportFailure(.tooSlow, "the response took longer than 1 s in all"))
    }

    @Test(.timeLimit(.minutes(5)))
    func cancellingTheTaskCancelsTheRequest() async throws {
        let server = try RawServer { $0.waitForClose() }
        defer { server.stop() }
        let transport = AsyncHTTPClientTransport()
        let request = try Self.request(server)
        let task = Task { try await transport.get(request) }
        for _ in 0..<200 where server.connections == 0 { try await Task.sleep(for: .milliseconds(20)) }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test(.timeLimit(.minutes(5)))
    func nothingListeningCannotConnect() async throws {
        let server = try RawServer { _ in }
        let port = server.port
        server.stop()
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/v1/things"))
        let failure = await Self.failure(AsyncHTTPClientTransport(), TransportRequest(url: url))
        #expect(failure == TransportFailure(.cannotConnect, "the connection was refused"))
    }

    @Test(.timeLimit(.minutes(5)))
    func aServerThatDoesNotSpeakTLSIsATLSFailure() async throws {
        let server = try RawServer { $0.send(Self.head("400 Bad Request", ["Content-Length: 0"])) }
        defer { server.stop() }
        let url = try #require(URL(string: "https://127.0.0.1:\(server.port)/v1/things"))
        let failure = await Self.failure(AsyncHTTPClientTransport(), TransportRequest(url: url))
        #expect(failure?.kind == .other, "\(String(describing: failure))")
        #expect(failure?.message.hasPrefix("TLS failed: ") == true, "\(String(describing: failure))")
    }

    @Test(.timeLimit(.minutes(5)))
    func aReasonPhraseWithControlCharactersIsNotPassedOn() async throws {
        let server = try RawServer { $0.send("HTTP/1.1 418 \u{1B}]0;owned\u{07}\r\nContent-Length: 0\r\n\r\n") }
        defer { server.stop() }
        do {
            let response = try await AsyncHTTPClientTransport().get(try Self.request(server))
            #expect(response.status == 418)
        } catch let failure as TransportFailure {
            #expect(!failure.message.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(failure.message)")
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func copiesShareOneClientAndManyTransportsComeAndGo() async throws {
        let server = try RawServer { $0.send(Self.head("200 OK", ["Content-Length: 2"]) + "{}") }
        defer { server.stop() }
        // Each transport is shut down when its last copy goes: no "deinit without shutdown" trap.
        for _ in 0..<20 {
            let transport = AsyncHTTPClientTransport()
            let copy = transport
            #expect(try await copy.get(try Self.request(server)).status == 200)
        }
    }
}

/// The proxies of the environment, read as curl reads them, and the transport going through them.
@Suite(.serialized) struct ProxyTests {
    @Test func theEnvironmentNamesTheProxies() throws {
        let settings = try ProxySettings.from(environment: ["https_proxy": "http://user:p%40ss@proxy.example.test:3128", "ALL_PROXY": "fallback.test",
                                                            "NO_PROXY": " .internal.test , other.test "])
        #expect(settings.https == ProxySettings.Server(host: "proxy.example.test", port: 3128, user: "user", password: "p@ss"))
        #expect(settings.http == ProxySettings.Server(host: "fallback.test", port: 1080))
        let url = { (text: String) in URL(string: text)! }
        #expect(settings.server(for: url("https://api.appstoreconnect.apple.com/v1/apps"))?.host == "proxy.example.test")
        #expect(settings.server(for: url("http://api.example.test/v1"))?.host == "fallback.test")
        #expect(settings.server(for: url("https://a.internal.test/x")) == nil)
        #expect(settings.server(for: url("https://internal.test/x")) == nil)
        #expect(settings.server(for: url("https://other.test/x")) == nil)
        #expect(settings.server(for: url("https://notother.test/x"))?.host == "proxy.example.test")
        #expect(settings.server(for: url("http://127.0.0.1:8080/x")) == nil, "this machine is reached directly")
        #expect(settings.server(for: url("http://[::1]:8080/x")) == nil)
        // HTTP_PROXY (upper case) is not read: a CGI request's Proxy header can set it.
        #expect(try ProxySettings.from(environment: ["HTTP_PROXY": "http://evil.test:1"]).http == nil)
        #expect(try ProxySettings.from(environment: ["no_proxy": "*", "https_proxy": "p.test:1"]).server(for: url("https://x.test")) == nil)
        for bad in ["socks5://proxy.test:1080", "https://proxy.test", "http://proxy.test/path", "http://"] {
            #expect(throws: FetchError.self) { try ProxySettings.from(environment: ["https_proxy": bad]) }
        }
        #expect((try? ProxySettings.from(environment: ["https_proxy": "ftp://user:s3cret@p.test"])) == nil)
        do {
            _ = try ProxySettings.from(environment: ["https_proxy": "ftp://user:s3cret@p.test"])
        } catch {
            #expect(!"\(error)".contains("s3cret"), "\(error)")
        }
    }

    /// A proxy that opens every tunnel asked for and answers the request inside it with `body`.
    static func tunnel(_ body: String) throws -> RawServer {
        try RawServer { connection in
            guard connection.request.hasPrefix("CONNECT ") else { return }
            connection.send("HTTP/1.1 200 Connection established\r\n\r\n")
            _ = connection.receive()
            connection.send(AsyncHTTPClientTransportTests.head("200 OK", ["Content-Length: \(body.utf8.count)", "Connection: close"]) + body)
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func anHTTPRequestIsTunnelledThroughTheProxy() async throws {
        let proxy = try Self.tunnel("{}")
        defer { proxy.stop() }
        let transport = AsyncHTTPClientTransport(proxies: ProxySettings(http: .init(host: "127.0.0.1", port: Int(proxy.port), user: "u", password: "pw")))
        let response = try await transport.get(TransportRequest(url: try #require(URL(string: "http://api.example.test/v1/things?x=1"))))
        #expect(response.status == 200)
        #expect(response.body == Data("{}".utf8))
        let sent = proxy.requests
        #expect(sent.first?.hasPrefix("CONNECT api.example.test:80 HTTP/1.1\r\n") == true, "\(sent)")
        #expect(sent.first?.lowercased().contains("proxy-authorization: basic dtpwdw==") == true, "\(sent)")
        #expect(sent.dropFirst().first?.hasPrefix("GET /v1/things?x=1 HTTP/1.1\r\n") == true, "\(sent)")
    }

    @Test(.timeLimit(.minutes(5)))
    func anHTTPSRequestTunnelsThroughTheProxy() async throws {
        let proxy = try RawServer { $0.send("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n") }
        defer { proxy.stop() }
        let transport = AsyncHTTPClientTransport(proxies: ProxySettings(https: .init(host: "127.0.0.1", port: Int(proxy.port))))
        let failure = await AsyncHTTPClientTransportTests.failure(transport, TransportRequest(url: try #require(URL(string: "https://api.example.test/v1/things"))))
        #expect(proxy.requests.first?.hasPrefix("CONNECT api.example.test:443 HTTP/1.1\r\n") == true, "\(proxy.requests)")
        #expect(failure == TransportFailure(.other, "the proxy refused to open a tunnel to the server"), "\(String(describing: failure))")
    }

    @Test(.timeLimit(.minutes(5)))
    func tallyFetchGoesThroughTheProxy() async throws {
        let proxy = try Self.tunnel(#"{"object":"list","items":[],"next_page":null}"#)
        defer { proxy.stop() }
        let scratch = try Scratch()
        defer { scratch.remove() }
        let key = scratch.url.appendingPathComponent("key")
        try RevenueCatStandIn.key.write(to: key, atomically: true, encoding: .utf8)
        let fetched = try await Tally.run(["fetch", "revenuecat", "--project", RevenueCatStandIn.project, "--api-key-file", key.path,
                                           "--output", scratch.path("out"), "--api-url", "http://api.example.test", "--allow-http"],
                                          environment: ["http_proxy": "http://127.0.0.1:\(proxy.port)", "no_proxy": ""])
        #expect(fetched.status == 0, "\(fetched.all)")
        #expect(proxy.requests.first?.hasPrefix("CONNECT api.example.test:80 HTTP/1.1") == true, "\(proxy.requests)")
        #expect(proxy.requests.contains { $0.hasPrefix("GET /v2/projects/\(RevenueCatStandIn.project)/apps") }, "\(proxy.requests)")
        let refused = try await Tally.run(["fetch", "revenuecat", "--project", RevenueCatStandIn.project, "--api-key-file", key.path,
                                           "--output", scratch.path("out"), "--api-url", "http://api.example.test", "--allow-http"],
                                          environment: ["https_proxy": "socks5://user:s3cret@127.0.0.1:1080"])
        #expect(refused.status == 2, "\(refused.all)")
        #expect(refused.stderr.contains("https_proxy must be a proxy's http URL (http://host:port)"), "\(refused.stderr)")
        #expect(!refused.all.contains("s3cret"), "\(refused.all)")
    }
}
#endif
