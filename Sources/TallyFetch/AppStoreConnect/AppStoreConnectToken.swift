import Foundation

/// Signs the App Store Connect API's bearer tokens, as Apple documents them: a JWT with header
/// `{alg: ES256, kid, typ: JWT}` and payload `{iss, iat, exp, aud: "appstoreconnect-v1"}`, the
/// signature raw r‖s in base64url. A token lives `lifetime` (at most 20 minutes); a new one is
/// signed when less than `margin` of it is left, so a long fetch never sends an expired token.
public actor AppStoreConnectToken: RequestSigner {
    public static let audience = "appstoreconnect-v1"
    /// Apple refuses tokens that live longer than 20 minutes.
    public static let maximumLifetime: TimeInterval = 20 * 60
    /// The default lifetime: a minute under the maximum, for clocks that differ a little.
    public static let defaultLifetime: TimeInterval = 19 * 60

    private let credentials: AppStoreConnectCredentials
    public nonisolated let lifetime: TimeInterval
    private let clock: @Sendable () -> Date
    private let onSign: (@Sendable () -> Void)?
    private var current: (token: String, expires: Date)?

    public init(credentials: AppStoreConnectCredentials, lifetime: TimeInterval = defaultLifetime,
                clock: @escaping @Sendable () -> Date = { Date() }, onSign: (@Sendable () -> Void)? = nil) {
        self.credentials = credentials
        self.lifetime = min(max(1, lifetime), Self.maximumLifetime)
        self.clock = clock
        self.onSign = onSign
    }

    /// How long before expiry a token is replaced: a minute, or half the lifetime when shorter.
    public nonisolated var margin: TimeInterval { min(60, lifetime / 2) }

    /// The current token, or a new one when the current one is about to expire.
    public func token() throws -> String {
        let now = clock()
        if let current, now < current.expires.addingTimeInterval(-margin) { return current.token }
        let issued = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let token = try Self.sign(credentials, issuedAt: issued, lifetime: lifetime)
        current = (token, issued.addingTimeInterval(lifetime))
        onSign?()
        return token
    }

    public func authorization() throws -> String { "Bearer \(try token())" }

    public nonisolated func authenticationHint(status: Int) -> String {
        if status == 403 {
            return "The key is valid but may not read this app: give it the App Manager role or higher "
                + "(Users and Access → Integrations → App Store Connect API → Team Keys), and check --app."
        }
        return "Check the key ID (--key-id or ASC_KEY_ID), the issuer ID (--issuer-id or ASC_ISSUER_ID), "
            + "and that the private key (--private-key, ASC_PRIVATE_KEY_PATH or ASC_PRIVATE_KEY) is the .p8 file of that key ID, "
            + "which must not be revoked; also that this machine's clock is right."
    }

    struct Header: Encodable { var alg = "ES256"; var kid: String; var typ = "JWT" }
    struct Claims: Encodable { var iss: String; var iat: Int; var exp: Int; var aud: String }

    /// A signed JWT.
    public static func sign(_ credentials: AppStoreConnectCredentials, issuedAt: Date, lifetime: TimeInterval) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let iat = Int(issuedAt.timeIntervalSince1970)
        let header = try encoder.encode(Header(kid: credentials.keyID))
        let claims = try encoder.encode(Claims(iss: credentials.issuerID, iat: iat, exp: iat + Int(lifetime), aud: audience))
        let input = base64URL(header) + "." + base64URL(claims)
        return input + "." + base64URL(try Signing.es256(Data(input.utf8), key: credentials.keyBytes))
    }

    public static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
