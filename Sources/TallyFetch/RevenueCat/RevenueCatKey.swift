import Foundation

/// A RevenueCat REST API v2 secret key, sent as `Authorization: Bearer`. It is read from a file
/// or the environment, held in memory for the fetch, and never printed or written.
public struct RevenueCatKey: RequestSigner, CustomStringConvertible {
    /// The environment variable that holds the key when no file is named.
    public static let environmentVariable = "REVENUECAT_API_KEY"
    private let secret: String

    public init(secret: String) throws {
        let trimmed = secret.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw FetchError.credentials("the RevenueCat API key is empty") }
        guard !trimmed.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            throw FetchError.credentials("the RevenueCat API key has spaces or several lines: give the secret key alone")
        }
        self.secret = trimmed
    }

    /// The key from `file` (`--api-key-file`), else `REVENUECAT_API_KEY`.
    public static func resolve(file: String?, environment: [String: String]) throws -> RevenueCatKey {
        if let file {
            let data = try CredentialFile.read(file, what: "the RevenueCat API key file", maxBytes: 4096,
                                               advice: "it should hold the secret key alone")
            return try RevenueCatKey(secret: String(decoding: data, as: UTF8.self))
        }
        guard let value = environment[environmentVariable], !value.isEmpty else {
            throw FetchError.credentials("no RevenueCat API key: set \(environmentVariable), or name a file holding it (--api-key-file); "
                                         + "create a v2 secret key in RevenueCat → Project settings → API keys, with read access to the project configuration")
        }
        return try RevenueCatKey(secret: value)
    }

    public func authorization() async throws -> String { "Bearer \(secret)" }

    public func authenticationHint(status: Int) -> String {
        status == 403
            ? "The RevenueCat key lacks a permission: it needs read access to the project configuration (apps, products, offerings, entitlements)."
            : "Check the RevenueCat API key (\(Self.environmentVariable) or --api-key-file): a v2 secret key of this project."
    }

    /// Never the key itself.
    public var description: String { "RevenueCat API key (hidden)" }
}
