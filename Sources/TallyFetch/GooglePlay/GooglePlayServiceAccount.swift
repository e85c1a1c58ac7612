#if Fetch
import _CryptoExtras
#endif
import Foundation

/// A Google Cloud service account's JSON key, as the Cloud console downloads it: `client_email`,
/// `private_key` (PKCS#8 RSA, PEM), `private_key_id` and `token_uri`. The key's text is never
/// part of a message.
public struct GooglePlayServiceAccount: Sendable {
    public var clientEmail: String
    public var privateKeyID: String?
    /// The RSA key's DER bytes (swift-crypto's key is not Sendable on Linux; it is rebuilt to sign).
    public var privateKeyDER: Data
    /// Where access tokens are asked for (`token_uri`), when the key names it.
    public var tokenURI: String?

    init(clientEmail: String, privateKeyID: String?, privateKeyDER: Data, tokenURI: String?) {
        self.clientEmail = clientEmail
        self.privateKeyID = privateKeyID
        self.privateKeyDER = privateKeyDER
        self.tokenURI = tokenURI
    }

    #if Fetch
    public init(clientEmail: String, privateKeyID: String?, privateKey: _RSA.Signing.PrivateKey, tokenURI: String?) {
        self.init(clientEmail: clientEmail, privateKeyID: privateKeyID, privateKeyDER: privateKey.derRepresentation, tokenURI: tokenURI)
    }

    /// The signing key.
    public func privateKey() throws -> _RSA.Signing.PrivateKey {
        do {
            return try _RSA.Signing.PrivateKey(derRepresentation: privateKeyDER)
        } catch {
            throw FetchError.credentials("the service account's private key cannot be used to sign (an RSA key of 2048 bits or more)")
        }
    }
    #endif

    /// Reads the key file named by `--service-account`, or else by `GOOGLE_APPLICATION_CREDENTIALS`.
    public static func resolve(file: String?, environment: [String: String]) throws -> GooglePlayServiceAccount {
        let chosen = (file ?? environment["GOOGLE_APPLICATION_CREDENTIALS"])?.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let path = chosen, !path.isEmpty else {
            throw FetchError.credentials("no service account key: pass --service-account FILE (or set GOOGLE_APPLICATION_CREDENTIALS), "
                                             + "the JSON key of a service account that Play Console → Users and permissions gives access to the app")
        }
        let data = try CredentialFile.read(path, what: "the service account key", maxBytes: 64 << 10,
                                           advice: "name the JSON key file the Google Cloud console downloads (a few kilobytes)")
        return try parse(data, file: path)
    }

    /// Parses the JSON key; every problem names the file and the field.
    public static func parse(_ data: Data, file: String) throws -> GooglePlayServiceAccount {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw FetchError.credentials("\(file) is not a service account key: expected the JSON key file the Google Cloud console downloads")
        }
        if let type = object["type"] as? String, type != "service_account" {
            throw FetchError.credentials("\(file) is a \"\(type)\" credential; tally fetch google-play needs a service account key (\"type\": \"service_account\")")
        }
        func field(_ name: String) -> String? {
            (object[name] as? String).flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        }
        let missing = ["client_email", "private_key"].filter { field($0) == nil }
        guard missing.isEmpty, let email = field("client_email"), let pem = field("private_key") else {
            throw FetchError.credentials("\(file) has no \(missing.joined(separator: " and ")): download a new JSON key for the service account")
        }
        guard let key = Signing.rsaKey(pem: pem) else {
            throw FetchError.credentials("the private_key of \(file) is not an RSA private key in PEM (PKCS#8, 2048 bits or more)")
        }
        return GooglePlayServiceAccount(clientEmail: email, privateKeyID: field("private_key_id"), privateKeyDER: key, tokenURI: field("token_uri"))
    }
}
