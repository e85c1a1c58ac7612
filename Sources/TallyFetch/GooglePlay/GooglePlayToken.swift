import Foundation

/// Google's OAuth 2.0 service-account flow (RFC 7523): a JWT signed RS256 with the service
/// account's key — header `{alg: RS256, typ: JWT, kid: private_key_id}`, claims `{iss:
/// client_email, scope, aud: token URL, iat, exp ≤ iat + 3600}` — posted as the JWT-bearer grant
/// (`grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=JWT`, form-encoded) to the
/// token URL, which answers `{access_token, expires_in, token_type}`. The access token is reused
/// until a minute before it expires.
public actor GooglePlayToken: RequestSigner {
    public static let scope = "https://www.googleapis.com/auth/androidpublisher"
    public static let grantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"
    /// Google accepts assertions that live an hour at most.
    public static let assertionLifetime: TimeInterval = 3600

    private let account: GooglePlayServiceAccount
    public let tokenURL: URL
    /// Posts the assertion (no signer of its own); the same retries as every request.
    private let client: FetchClient
    private let clock: @Sendable () -> Date
    private let onSign: (@Sendable () -> Void)?
    private var current: (token: String, expires: Date)?

    public init(account: GooglePlayServiceAccount, tokenURL: URL, client: FetchClient,
                clock: @escaping @Sendable () -> Date = { Date() }, onSign: (@Sendable () -> Void)? = nil) {
        self.account = account
        self.tokenURL = tokenURL
        var unsigned = client
        unsigned.signer = nil
        self.client = unsigned
        self.clock = clock
        self.onSign = onSign
    }

    public func authorization() async throws -> String { "Bearer \(try await accessToken())" }

    /// The current access token, or a new one when it is about to expire.
    public func accessToken() async throws -> String {
        let now = clock()
        if let current, now < current.expires.addingTimeInterval(-60) { return current.token }
        let issued = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let assertion = try Self.assertion(account, audience: tokenURL.absoluteString, issuedAt: issued)
        let response: TransportResponse
        do {
            response = try await client.postForm(tokenURL, [("grant_type", Self.grantType), ("assertion", assertion)], hint: self)
        } catch FetchError.httpStatus(let status, let url, let detail, _) where status == 400 {
            // Google answers a bad signature, an unknown key or a wrong clock with 400 invalid_grant.
            throw FetchError.credentials("the token endpoint \(url) refused the service account's assertion (HTTP 400\(detail.map { ": \($0)" } ?? "")). "
                                             + authenticationHint(status: 401))
        }
        guard let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
              let token = object["access_token"] as? String, !token.isEmpty else {
            throw FetchError.invalidResponse(url: APIURL.shown(tokenURL), reason: "the token response has no access_token")
        }
        // Bounded like any number a server sends: at least a minute past the renewal margin, at most a day.
        let lifetime = (object["expires_in"] as? NSNumber)?.doubleValue ?? 3600
        current = (token, issued.addingTimeInterval(lifetime.isFinite ? min(max(lifetime, 61), 86_400) : 3600))
        onSign?()
        return token
    }

    public nonisolated func authenticationHint(status: Int) -> String {
        if status == 403 {
            return "The service account is valid but may not read this app: in Play Console → Users and permissions, invite its "
                + "email with access to the app (View app information), check --package, and that the Google Play Android Developer API "
                + "is enabled in the service account's Google Cloud project."
        }
        return "Check the service account key (--service-account): a JSON key of that account that is not deleted or disabled, "
            + "the token URL (--token-url, else the key's token_uri), and that this machine's clock is right."
    }

    struct Header: Encodable { var alg = "RS256"; var typ = "JWT"; var kid: String? }
    struct Claims: Encodable { var iss: String; var scope: String; var aud: String; var iat: Int; var exp: Int }

    /// The signed assertion (a JWT, RS256: RSASSA-PKCS1-v1_5 with SHA-256).
    public static func assertion(_ account: GooglePlayServiceAccount, audience: String, issuedAt: Date,
                                 lifetime: TimeInterval = assertionLifetime) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let iat = Int(issuedAt.timeIntervalSince1970)
        let header = try encoder.encode(Header(kid: account.privateKeyID))
        let claims = try encoder.encode(Claims(iss: account.clientEmail, scope: scope, aud: audience, iat: iat,
                                               exp: iat + Int(min(lifetime, assertionLifetime))))
        let input = AppStoreConnectToken.base64URL(header) + "." + AppStoreConnectToken.base64URL(claims)
        return input + "." + AppStoreConnectToken.base64URL(try Signing.rs256(Data(input.utf8), keyDER: account.privateKeyDER))
    }
}
