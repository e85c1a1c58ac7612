#if Fetch  // TallyFetchTests need the network stack: swift test --traits Fetch
import Crypto
import Foundation
import Testing
@testable import TallyFetch

/// App Store Connect tokens as Apple documents them, renewal before expiry, credentials from flags or the environment.
@Suite struct TokenTests {
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var now = Date(timeIntervalSince1970: 1_700_000_000)
        func read() -> Date { lock.withLock { now } }
        func advance(_ seconds: TimeInterval) { lock.withLock { now.addTimeInterval(seconds) } }
    }

    static func decode(_ part: String) throws -> [String: Any] {
        let data = try #require(StandInServer.base64URL(part))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func theTokenIsAnES256JWTWithApplesClaimsAndARawSignature() throws {
        let key = P256.Signing.PrivateKey()
        let credentials = AppStoreConnectCredentials(keyID: "2X9R4HXF34", issuerID: "issuer-1", privateKey: key)
        let token = try AppStoreConnectToken.sign(credentials, issuedAt: Date(timeIntervalSince1970: 1_700_000_000), lifetime: 1140)
        let parts = token.split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        #expect(!token.contains("=") && !token.contains("+") && !token.contains("/"))
        let header = try Self.decode(parts[0])
        #expect(header["alg"] as? String == "ES256")
        #expect(header["kid"] as? String == "2X9R4HXF34")
        #expect(header["typ"] as? String == "JWT")
        let claims = try Self.decode(parts[1])
        #expect(claims["iss"] as? String == "issuer-1")
        #expect(claims["aud"] as? String == "appstoreconnect-v1")
        #expect(claims["iat"] as? Int == 1_700_000_000)
        #expect(claims["exp"] as? Int == 1_700_001_140)
        let signature = try #require(StandInServer.base64URL(parts[2]))
        #expect(signature.count == 64)
        let ecdsa = try P256.Signing.ECDSASignature(rawRepresentation: signature)
        #expect(key.publicKey.isValidSignature(ecdsa, for: Data((parts[0] + "." + parts[1]).utf8)))
    }

    @Test func aTokenIsReusedThenRenewedBeforeItExpires() async throws {
        let clock = Clock()
        let credentials = AppStoreConnectCredentials(keyID: "K", issuerID: "I", privateKey: P256.Signing.PrivateKey())
        let provider = AppStoreConnectToken(credentials: credentials, lifetime: 20 * 60, clock: { clock.read() })
        let first = try await provider.token()
        clock.advance(18 * 60)
        #expect(try await provider.token() == first)
        clock.advance(61)  // 19 min 1 s: less than the one-minute margin is left
        let second = try await provider.token()
        #expect(second != first)
        let claims = try Self.decode(String(second.split(separator: ".")[1]))
        #expect(claims["iat"] as? Int == 1_700_000_000 + 19 * 60 + 1)
    }

    @Test func theLifetimeNeverExceedsTwentyMinutes() {
        let credentials = AppStoreConnectCredentials(keyID: "K", issuerID: "I", privateKey: P256.Signing.PrivateKey())
        #expect(AppStoreConnectToken(credentials: credentials, lifetime: 3600).lifetime == 1200)
    }

    @Test func credentialsComeFromFlagsBeforeTheEnvironment() throws {
        let key = TestKey()
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try key.write(in: scratch.url)
        let fromFlags = try AppStoreConnectCredentials.resolve(keyID: "FLAG", issuerID: nil, privateKeyFile: file.path,
                                                              environment: ["ASC_KEY_ID": "ENV", "ASC_ISSUER_ID": "issuer"])
        #expect(fromFlags.keyID == "FLAG")
        #expect(fromFlags.issuerID == "issuer")
        #expect(try fromFlags.privateKey.publicKey.rawRepresentation == (try key.publicKey).rawRepresentation)
        // CI secrets: the PEM text itself, even with its line breaks written as \n.
        let escaped = key.pem.replacingOccurrences(of: "\n", with: "\\n")
        let fromSecret = try AppStoreConnectCredentials.resolve(keyID: nil, issuerID: nil, privateKeyFile: nil,
                                                               environment: ["ASC_KEY_ID": "ENV", "ASC_ISSUER_ID": "issuer", "ASC_PRIVATE_KEY": escaped])
        #expect(fromSecret.keyID == "ENV")
        #expect(try fromSecret.privateKey.publicKey.rawRepresentation == (try key.publicKey).rawRepresentation)
    }

    @Test func missingAndBrokenCredentialsSayWhatToSetAndNeverShowTheKey() throws {
        do {
            _ = try AppStoreConnectCredentials.resolve(keyID: nil, issuerID: "I", privateKeyFile: nil, environment: [:])
            Issue.record("no error")
        } catch let error as FetchError {
            #expect(error.description.contains("--key-id or ASC_KEY_ID"))
            #expect(error.description.contains("ASC_PRIVATE_KEY_PATH"))
            #expect(!error.description.contains("--issuer-id"))
        }
        let secret = "-----BEGIN PRIVATE KEY-----\nTk9UQUtFWVNFQ1JFVA==\n-----END PRIVATE KEY-----"
        do {
            _ = try AppStoreConnectCredentials.resolve(keyID: "K", issuerID: "I", privateKeyFile: nil, environment: ["ASC_PRIVATE_KEY": secret])
            Issue.record("no error")
        } catch let error as FetchError {
            #expect(error.description.contains("ASC_PRIVATE_KEY is not an App Store Connect API private key"))
            #expect(!error.description.contains("Tk9UQUtFWVNFQ1JFVA"))
        }
    }
}
#endif
