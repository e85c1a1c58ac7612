#if Fetch  // TallyFetchTests need the network stack: swift test --traits Fetch
import _CryptoExtras
import Crypto
import Foundation
import Testing
import TallyFetch

/// A service account's JSON key with a fresh RSA key, as the Google Cloud console writes one.
struct TestServiceAccount: Sendable {
    let pem: String
    let publicKeyDER: Data
    let email = "tally-fetch@brightly-play.iam.gserviceaccount.com"
    let keyID = "0f3c9a7e51d2b8c4a6e0f1d2c3b4a5968778695a"

    init() throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        pem = key.pkcs8PEMRepresentation
        publicKeyDER = key.publicKey.derRepresentation
    }

    func publicKey() throws -> _RSA.Signing.PublicKey { try _RSA.Signing.PublicKey(derRepresentation: publicKeyDER) }

    func json(tokenURI: String?) throws -> Data {
        var object: [String: Any] = [
            "type": "service_account", "project_id": "brightly-play", "private_key_id": keyID, "private_key": pem,
            "client_email": email, "client_id": "104329281931530283122", "auth_uri": "https://accounts.google.com/o/oauth2/auth",
        ]
        if let tokenURI { object["token_uri"] = tokenURI }
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    }

    func write(in folder: URL, tokenURI: String?, name: String = "play-service-account.json") throws -> URL {
        let file = folder.appendingPathComponent(name)
        try json(tokenURI: tokenURI).write(to: file)
        return file
    }
}

/// The service-account assertion, on its own.
@Suite struct GooglePlayTokenTests {
    @Test func theAssertionIsAnRS256JWTGoogleAccepts() throws {
        let account = try TestServiceAccount()
        let parsed = try GooglePlayServiceAccount.parse(try account.json(tokenURI: "https://oauth2.googleapis.com/token"), file: "key.json")
        #expect(parsed.clientEmail == account.email && parsed.privateKeyID == account.keyID)
        let issued = Date(timeIntervalSince1970: 1_790_000_000)
        let jwt = try GooglePlayToken.assertion(parsed, audience: "https://oauth2.googleapis.com/token", issuedAt: issued)
        let parts = jwt.split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        func decode(_ text: String) throws -> [String: Any] {
            var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while base64.count % 4 != 0 { base64 += "=" }
            let data = try #require(Data(base64Encoded: base64))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        let header = try decode(parts[0])
        #expect(header["alg"] as? String == "RS256" && header["typ"] as? String == "JWT" && header["kid"] as? String == account.keyID)
        let claims = try decode(parts[1])
        #expect(claims["iss"] as? String == account.email)
        #expect(claims["scope"] as? String == "https://www.googleapis.com/auth/androidpublisher")
        #expect(claims["aud"] as? String == "https://oauth2.googleapis.com/token")
        #expect(claims["iat"] as? Int == 1_790_000_000 && claims["exp"] as? Int == 1_790_003_600)
        var signature = parts[2].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while signature.count % 4 != 0 { signature += "=" }
        let signatureData = try #require(Data(base64Encoded: signature))
        let valid = try account.publicKey().isValidSignature(
            _RSA.Signing.RSASignature(rawRepresentation: signatureData),
            for: SHA256.hash(data: Data("\(parts[0]).\(parts[1])".utf8)), padding: .insecurePKCS1v1_5)
        #expect(valid)
    }

    @Test func aKeyFileThatIsNotAServiceAccountSaysSo() throws {
        #expect(throws: FetchError.self) { try GooglePlayServiceAccount.parse(Data("{\"type\": \"authorized_user\"}".utf8), file: "k.json") }
        do {
            _ = try GooglePlayServiceAccount.parse(Data("{\"client_email\": \"a@b\", \"private_key\": \"not a key\"}".utf8), file: "k.json")
            Issue.record("a broken key was accepted")
        } catch let error as FetchError {
            #expect(error.description.contains("private_key of k.json is not an RSA private key"))
            #expect(!error.description.contains("not a key"), "the key's text is never shown")
        }
    }
}

/// `tally fetch google-play` through the built binary against the stand-in token endpoint and API.
@Suite(.serialized) struct FetchGooglePlayCLITests {
    static let package = "com.example.brightly"
    static let catalog = "Tests/TallyCLITests/Fixtures/google-play/catalog.json"
    static let storekit = "Tests/TallyCLITests/Fixtures/google-play/Brightly.storekit"

    struct Setup: Sendable {
        let account: TestServiceAccount
        let scratch: Scratch
        let server: GooglePlayStandIn
        let keyFile: URL

        init(edits: [(file: String, old: String, new: String)] = [], faults: [String: [GooglePlayStandIn.Fault]] = [:],
             wildcardOffers: Bool = true, legacy: Bool = true, oneTimeOffers: Bool = false) async throws {
            account = try TestServiceAccount()
            scratch = try Scratch()
            var options = GooglePlayStandIn.Options(publicKey: try account.publicKey())
            options.edits = edits
            options.faults = faults
            options.wildcardOffers = wildcardOffers
            options.legacy = legacy
            options.oneTimeOffers = oneTimeOffers
            server = try GooglePlayStandIn(options)
            try await server.start()
            // The key names the stand-in's token endpoint as its token_uri, as Google's keys name theirs.
            keyFile = try account.write(in: scratch.url, tokenURI: server.tokenURL)
        }

        var output: String { scratch.path("play") }

        func fetch(_ extra: [String] = [], keyFile: URL? = nil) async throws -> Tally.Output {
            try await Tally.run(["fetch", "google-play", "--package", FetchGooglePlayCLITests.package, "--service-account",
                                 (keyFile ?? self.keyFile).path, "--output", output, "--api-url", server.baseURL] + extra)
        }

        func finish() async {
            await server.stop()
            scratch.remove()
        }
    }

    /// Issue 50: Google Play's one-time product offers (2025: discounted, pre-order, game reward)
    /// are fetched (`oneTimeProducts/-/purchaseOptions/-/offers`), read back with their products
    /// and shown, each region's discount as Google states it; the check against the catalogue is
    /// what it was (no other source states such an offer).
    @Test(.timeLimit(.minutes(5)))
    func oneTimeProductOffersAreFetchedReadAndShown() async throws {
        let setup = try await Setup(oneTimeOffers: true)
        defer { Task { await setup.finish() } }
        let fetched = try await setup.fetch()
        #expect(fetched.status == 0, "\(fetched.all)")
        #expect(fetched.stderr.contains("2 one-time products, 2 one-time product offers"), "\(fetched.stderr)")
        #expect(setup.server.requests.contains("GET \(setup.server.apiPrefix)oneTimeProducts/-/purchaseOptions/-/offers"))
        let show = try await Tally.run(["show", "--format", "json", setup.output])
        #expect(show.status == 0, "\(show.all)")
        #expect(!show.stderr.contains("unknown"), "\(show.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any]
        let products = json?["products"] as? [[String: Any]] ?? []
        let lifetime = products.first { $0["id"] as? String == "premium_lifetime" }
        let offers = lifetime?["one_time_offers"] as? [[String: Any]] ?? []
        #expect(offers.map { $0["id"] as? String } == ["launch-week"], "\(lifetime ?? [:])")
        #expect(offers.first?["type"] as? String == "discounted" && offers.first?["purchase_option"] as? String == "buy", "\(offers)")
        #expect(offers.first?["discounts"] as? [String: String] == ["USA": "10.00 USD off", "DEU": "relative 0.25"], "\(offers)")
        let coins = products.first { $0["id"] as? String == "coins_100" }
        #expect((coins?["one_time_offers"] as? [[String: Any]])?.first?["type"] as? String == "pre-order", "\(coins ?? [:])")
        let check = try await Tally.run(["check", "--no-config", Self.catalog, setup.output])
        #expect(check.status == 0, "\(check.all)")
        // The offers page alone: read, the offers' products named as missing from it.
        let page = try FileManager.default.contentsOfDirectory(atPath: setup.output).first { $0.hasSuffix("oneTimeProductOffers.json") }
        let alone = try await Tally.run(["show", "\(setup.output)/\(try #require(page))"])
        #expect(alone.status == 0 || alone.status == 3, "\(alone.all)")
        #expect(alone.stderr.contains("one-time product offer launch-week is for premium_lifetime, a one-time product this source does not list"), "\(alone.stderr)")
    }

    @Test(.timeLimit(.minutes(5)))
    func aFullFetchChecksConsistentWithTheCatalogueAndTheTrio() async throws {
        let setup = try await Setup()
        defer { Task { await setup.finish() } }
        let fetched = try await setup.fetch()
        #expect(fetched.status == 0, "\(fetched.all)")
        #expect(fetched.stderr.contains("fetched \(setup.output): Google Play snapshot of app com.example.brightly"), "\(fetched.stderr)")
        #expect(fetched.stderr.contains("1 subscription, 3 base plans, 2 subscription offers, 2 one-time products, 2 legacy in-app products"),
                "\(fetched.stderr)")
        #expect(setup.server.rejections.isEmpty, "\(setup.server.rejections)")
        // One token for the whole fetch; every list followed through its page tokens (one item a page).
        let prefix = setup.server.apiPrefix
        #expect(setup.server.requests.filter { $0 == "POST /token" }.count == 1)
        #expect(setup.server.requests.filter { $0 == "GET \(prefix)subscriptions/-/basePlans/-/offers" }.count == 2)
        #expect(setup.server.requests.filter { $0 == "GET \(prefix)oneTimeProducts" }.count == 2)
        #expect(setup.server.requests.filter { $0 == "GET \(prefix)inappproducts" }.count == 2)
        let files = try FileManager.default.contentsOfDirectory(atPath: setup.output).sorted()
        #expect(files.first == "0001-subscriptions.json" && files.contains("tally-snapshot.json"), "\(files)")

        let check = try await Tally.run(["check", "--no-config", Self.catalog, setup.output])
        #expect(check.status == 0, "\(check.all)")
        #expect(check.stdout.contains("4 products in both"), "\(check.stdout)")
        let trio = try await Tally.run(["check", "--no-config", Self.storekit, Self.catalog, setup.output])
        #expect(trio.status == 0, "\(trio.all)")
        let show = try await Tally.run(["show", setup.output])
        #expect(show.stdout.hasPrefix("snapshot: Google Play snapshot of app com.example.brightly"), "\(show.stdout)")

        // The key is in no file of the snapshot, and in no output.
        let body = setup.account.pem.split(separator: "\n").dropFirst().first.map(String.init) ?? "-"
        for (name, data) in Scratch.contents(of: setup.output) {
            #expect(!String(decoding: data, as: UTF8.self).contains(body), "\(name)")
            #expect(!String(decoding: data, as: UTF8.self).contains("ya29."), "\(name)")
        }
        #expect(!fetched.all.contains(body))
    }

    @Test(.timeLimit(.minutes(5)))
    func aPriceChangedOnPlayFailsTheNextCheck() async throws {
        let setup = try await Setup(edits: [("01-subscriptions.json", "\"units\": \"34\"", "\"units\": \"36\"")])
        defer { Task { await setup.finish() } }
        #expect(try await setup.fetch().status == 0)
        let check = try await Tally.run(["check", "--no-config", Self.catalog, setup.output, "--format", "json"])
        #expect(check.status == 1, "\(check.all)")
        #expect(check.stdout.contains("premium:yearly costs 36.99 GBP in GBR in Google Play but 34.99 GBP in the catalogue"), "\(check.stdout)")
    }

    @Test(.timeLimit(.minutes(5)))
    func aWrongKeyExitsTwoAndLeavesTheFolderAsItWas() async throws {
        let setup = try await Setup()
        defer { Task { await setup.finish() } }
        #expect(try await setup.fetch().status == 0)
        let before = Scratch.contents(of: setup.output)
        let other = try TestServiceAccount().write(in: setup.scratch.url, tokenURI: setup.server.tokenURL, name: "other.json")
        let output = try await setup.fetch(keyFile: other)
        #expect(output.status == 2, "\(output.all)")
        #expect(output.stderr.contains("rejected the credentials (401 Unauthorized)"), "\(output.stderr)")
        #expect(output.stderr.contains("Check the service account key (--service-account)"), "\(output.stderr)")
        #expect(output.stderr.contains("\(setup.output) was left as it was"), "\(output.stderr)")
        #expect(Scratch.contents(of: setup.output) == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: setup.scratch.url.path).filter { $0.contains("tally-partial") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test(.timeLimit(.minutes(5)))
    func rateLimitsAndUnavailableServersAreSurvived() async throws {
        let prefix = "/androidpublisher/v3/applications/\(Self.package)/"
        let setup = try await Setup(faults: [
            prefix + "subscriptions": [.status(429, retryAfter: "0")],
            prefix + "oneTimeProducts": [.status(503, retryAfter: nil)],
        ])
        defer { Task { await setup.finish() } }
        let output = try await setup.fetch(["--verbose"])
        #expect(output.status == 0, "\(output.all)")
        #expect(output.stderr.contains("429 rate limit: retrying"), "\(output.stderr)")
        #expect(output.stderr.contains("HTTP 503: retrying"), "\(output.stderr)")
        #expect(output.stderr.contains("2 retries)"), "\(output.stderr)")
        #expect(try await Tally.run(["check", "--no-config", Self.catalog, setup.output]).status == 0)
    }

    @Test(.timeLimit(.minutes(5)))
    func aServerWithoutTheWildcardOffersListOrTheLegacyListStillGivesOffers() async throws {
        let setup = try await Setup(wildcardOffers: false, legacy: false)
        defer { Task { await setup.finish() } }
        let output = try await setup.fetch()
        #expect(output.status == 0, "\(output.all)")
        let prefix = setup.server.apiPrefix
        #expect(setup.server.requests.contains("GET \(prefix)subscriptions/premium/basePlans/yearly/offers"))
        #expect(output.stderr.contains("2 subscription offers") && !output.stderr.contains("legacy"), "\(output.stderr)")
        let check = try await Tally.run(["check", "--no-config", Self.catalog, setup.output])
        #expect(check.status == 0, "\(check.all)")
        #expect(check.stdout.contains("introductory-offer"), "\(check.stdout)")
    }

    @Test(.timeLimit(.minutes(5)))
    func anUnreachableServerAndMissingCredentialsExitTwo() async throws {
        let setup = try await Setup()
        defer { Task { await setup.finish() } }
        let down = try await Tally.run(["fetch", "google-play", "--package", Self.package, "--service-account", setup.keyFile.path,
                                        "--output", setup.output, "--api-url", "http://127.0.0.1:9", "--token-url", "http://127.0.0.1:9/token"])
        #expect(down.status == 2, "\(down.all)")
        #expect(down.stderr.contains("cannot connect to http://127.0.0.1:9/token"), "\(down.stderr)")
        #expect(!FileManager.default.fileExists(atPath: setup.output))
        let missing = try await Tally.run(["fetch", "google-play", "--package", Self.package, "--output", setup.output],
                                          environment: ["GOOGLE_APPLICATION_CREDENTIALS": ""])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("--service-account FILE"), "\(missing.stderr)")
        let badPackage = try await setup.fetch().status
        #expect(badPackage == 0)
        let wrong = try await Tally.run(["fetch", "google-play", "--package", "brightly", "--service-account", setup.keyFile.path,
                                         "--output", setup.output])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("--package must be the app's package name"), "\(wrong.stderr)")
    }
}
#endif
