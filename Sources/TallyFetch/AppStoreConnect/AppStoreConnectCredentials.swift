#if Fetch
import Crypto
#endif
import Foundation

/// An App Store Connect API key: its key ID, the team's issuer ID and the private key (the .p8
/// file App Store Connect lets you download once: PKCS#8, P-256). Flags win over the environment:
/// `ASC_KEY_ID`, `ASC_ISSUER_ID`, `ASC_PRIVATE_KEY_PATH`, or `ASC_PRIVATE_KEY` (the PEM text itself,
/// for CI secrets). The key's text is never part of a message.
public struct AppStoreConnectCredentials: Sendable {
    public var keyID: String
    public var issuerID: String
    /// The private key's scalar (swift-crypto's key type is not `Sendable` on every platform); in a
    /// build without the trait Fetch, the key's DER, checked for shape only (Signing).
    let keyBytes: Data

    init(keyID: String, issuerID: String, keyBytes: Data) {
        self.keyID = keyID
        self.issuerID = issuerID
        self.keyBytes = keyBytes
    }

    #if Fetch
    public init(keyID: String, issuerID: String, privateKey: P256.Signing.PrivateKey) {
        self.init(keyID: keyID, issuerID: issuerID, keyBytes: privateKey.rawRepresentation)
    }

    public var privateKey: P256.Signing.PrivateKey {
        get throws { try P256.Signing.PrivateKey(rawRepresentation: keyBytes) }
    }
    #endif

    public static func resolve(keyID: String?, issuerID: String?, privateKeyFile: String?,
                               environment: [String: String]) throws -> AppStoreConnectCredentials {
        func value(_ flag: String?, _ variable: String) -> String? {
            let text = (flag ?? environment[variable])?.trimmingCharacters(in: .whitespacesAndNewlines)
            return text?.isEmpty == false ? text : nil
        }
        var missing: [String] = []
        let keyID = value(keyID, "ASC_KEY_ID")
        if keyID == nil { missing.append("the key ID (--key-id or ASC_KEY_ID)") }
        let issuerID = value(issuerID, "ASC_ISSUER_ID")
        if issuerID == nil { missing.append("the issuer ID (--issuer-id or ASC_ISSUER_ID)") }
        let path = value(privateKeyFile, "ASC_PRIVATE_KEY_PATH")
        let inline = path == nil ? value(nil, "ASC_PRIVATE_KEY") : nil
        if path == nil && inline == nil {
            missing.append("the private key (--private-key FILE, ASC_PRIVATE_KEY_PATH, or ASC_PRIVATE_KEY with the .p8 text)")
        }
        guard missing.isEmpty, let keyID, let issuerID else {
            throw FetchError.credentials("App Store Connect API credentials are missing: \(missing.joined(separator: ", ")). "
                                             + "Create a key in App Store Connect: Users and Access → Integrations → App Store Connect API → Team Keys.")
        }
        let pem: String
        let origin: String
        if let path {
            origin = "the private key file \(path)"
            let data = try CredentialFile.read((path as NSString).expandingTildeInPath, what: "the private key file", maxBytes: 64 << 10,
                                               advice: "name the .p8 file App Store Connect downloads (a few hundred bytes)")
            guard let text = String(data: data, encoding: .utf8) else {
                throw FetchError.credentials("cannot read \(origin): it is not UTF-8 text (a .p8 file is PEM text)")
            }
            pem = text
        } else {
            origin = "ASC_PRIVATE_KEY"
            pem = inline ?? ""
        }
        return AppStoreConnectCredentials(keyID: keyID, issuerID: issuerID, keyBytes: try privateKey(pem: pem, origin: origin))
    }

    /// A P-256 private key from PEM text: PKCS#8 ("BEGIN PRIVATE KEY", what a .p8 holds) or SEC 1.
    /// CI secrets often arrive with `\n` written out, or without the PEM lines: both are accepted.
    static func privateKey(pem text: String, origin: String) throws -> Data {
        var pem = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if !pem.contains("\n"), pem.contains("\\n") { pem = pem.replacingOccurrences(of: "\\n", with: "\n") }
        if !pem.contains("-----BEGIN") {
            let body = pem.filter { !$0.isWhitespace }
            pem = "-----BEGIN PRIVATE KEY-----\n" + stride(from: 0, to: body.count, by: 64).map { start -> String in
                let from = body.index(body.startIndex, offsetBy: start)
                return String(body[from..<(body.index(from, offsetBy: 64, limitedBy: body.endIndex) ?? body.endIndex)])
            }.joined(separator: "\n") + "\n-----END PRIVATE KEY-----"
        }
        guard let key = Signing.p256Key(pem: pem) else {
            throw FetchError.credentials("\(origin) is not an App Store Connect API private key (a .p8 file: PKCS#8, P-256, "
                                             + "beginning with -----BEGIN PRIVATE KEY-----)")
        }
        return key
    }
}
