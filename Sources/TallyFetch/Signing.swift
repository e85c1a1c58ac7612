#if Fetch
import _CryptoExtras
import Crypto
#endif
import Foundation

/// Every use of swift-crypto in TallyFetch: reading the two stores' private keys and signing their
/// JWTs (ES256 for App Store Connect, RS256 for Google's service accounts). swift-crypto compiles
/// BoringSSL on Linux, so it is built only with the package trait Fetch, like the transport
/// (docs/performance.md, "The first command"). A build without it checks a key's shape (PEM around
/// DER) so that `tally fetch` still says what is wrong with the credentials, and then stops at the
/// transport; it never signs.
enum Signing {
    /// A P-256 private key's bytes from PEM (PKCS#8 or SEC 1), or nil when the text is not one.
    static func p256Key(pem: String) -> Data? {
        #if Fetch
        return (try? P256.Signing.PrivateKey(pemRepresentation: pem))?.rawRepresentation
        #else
        return der(pem: pem)
        #endif
    }

    /// An RSA private key's DER from PEM, or nil when the text is not one.
    static func rsaKey(pem: String) -> Data? {
        #if Fetch
        return (try? _RSA.Signing.PrivateKey(pemRepresentation: pem))?.derRepresentation
        #else
        return der(pem: pem)
        #endif
    }

    /// The ES256 signature (raw r‖s) of `input` with the key `p256Key` returned.
    static func es256(_ input: Data, key: Data) throws -> Data {
        #if Fetch
        return try P256.Signing.PrivateKey(rawRepresentation: key).signature(for: input).rawRepresentation
        #else
        throw unavailable
        #endif
    }

    /// The RS256 signature (RSASSA-PKCS1-v1_5 with SHA-256) of `input` with the key `rsaKey` returned.
    static func rs256(_ input: Data, keyDER: Data) throws -> Data {
        #if Fetch
        let key: _RSA.Signing.PrivateKey
        do {
            key = try _RSA.Signing.PrivateKey(derRepresentation: keyDER)
        } catch {
            throw FetchError.credentials("the service account's private key cannot be used to sign (an RSA key of 2048 bits or more)")
        }
        return try key.signature(for: SHA256.hash(data: input), padding: .insecurePKCS1v1_5).rawRepresentation
        #else
        throw unavailable
        #endif
    }

    #if !Fetch
    static let unavailable = FetchError.usage("this tally was built without tally fetch's signing and network stack: "
                                                  + "build with the package trait Fetch (swift build -c release --traits Fetch)")

    /// The DER inside one PEM block, when it is one: base64 between BEGIN and END lines, decoding
    /// to an ASN.1 SEQUENCE.
    static func der(pem: String) -> Data? {
        let lines = pem.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let begin = lines.firstIndex(where: { $0.hasPrefix("-----BEGIN ") && $0.hasSuffix("PRIVATE KEY-----") }),
              let end = lines[begin...].firstIndex(where: { $0.hasPrefix("-----END ") }), end > begin + 1,
              let der = Data(base64Encoded: lines[(begin + 1)..<end].joined()), der.first == 0x30, der.count > 32
        else { return nil }
        return der
    }
    #endif
}
