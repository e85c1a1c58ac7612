import Foundation

/// Signs requests for one store: gives the Authorization header of the next request (renewing
/// a token before it expires), and says which credential to check when the server refuses it.
public protocol RequestSigner: Sendable {
    func authorization() async throws -> String
    /// A sentence naming the credentials to check after a 401 or a 403.
    func authenticationHint(status: Int) -> String
}

/// GETs through a transport with a signer, retrying what is worth retrying and reporting each
/// request as a `FetchEvent`. Answers only with success (2xx); everything else is a `FetchError`.
public struct FetchClient: Sendable {
    public var transport: any HTTPTransport
    public var signer: (any RequestSigner)?
    public var retry: RetryPolicy
    public var progress: FetchProgress?
    public var userAgent: String

    public init(transport: any HTTPTransport = URLSessionTransport(), signer: (any RequestSigner)?, retry: RetryPolicy = RetryPolicy(),
                progress: FetchProgress? = nil, userAgent: String = "tally") {
        self.transport = transport
        self.signer = signer
        self.retry = retry
        self.progress = progress
        self.userAgent = userAgent
    }

    public func get(_ url: URL) async throws -> TransportResponse {
        try await send(url, method: "GET", body: nil, signer: signer)
    }

    /// POSTs an `application/x-www-form-urlencoded` form, unsigned (an OAuth 2.0 token request),
    /// with the same retries; 401 and 403 name `hint`'s credentials.
    public func postForm(_ url: URL, _ fields: [(String, String)], hint: (any RequestSigner)? = nil) async throws -> TransportResponse {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let form = fields.map { name, value in
            "\(name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)"
        }.joined(separator: "&")
        return try await send(url, method: "POST", body: Data(form.utf8), signer: nil, contentType: "application/x-www-form-urlencoded",
                              hint: hint)
    }

    private func send(_ url: URL, method: String, body: Data?, signer: (any RequestSigner)?, contentType: String? = nil,
                      hint: (any RequestSigner)? = nil) async throws -> TransportResponse {
        var attempt = 1
        while true {
            try Task.checkCancellation()
            var headers = ["Accept": "application/json", "User-Agent": userAgent]
            if let contentType { headers["Content-Type"] = contentType }
            // Signed per attempt: a retry after a long Retry-After gets a fresh token if needed.
            if let signer { headers["Authorization"] = try await signer.authorization() }
            progress?(.request(url: url, attempt: attempt))
            let response: TransportResponse
            do {
                response = try await transport.get(TransportRequest(url: url, headers: headers, method: method, body: body))
            } catch let failure as TransportFailure {
                guard failure.isTransient, attempt < retry.maxAttempts else {
                    let tries = attempt > 1 ? " (\(attempt) attempts)" : ""
                    throw FetchError.unreachable(url: url.absoluteString, reason: failure.message + tries)
                }
                try await wait(retry.backoff(after: attempt), url: url, reason: failure.message, attempt: attempt)
                attempt += 1
                continue
            }
            progress?(.response(url: url, status: response.status, bytes: response.body.count, attempt: attempt))
            switch response.status {
            case 200..<300:
                return response
            case 401, 403:
                throw FetchError.authentication(status: response.status, url: url.absoluteString, detail: Self.errorDetail(response.body),
                                                hint: (signer ?? hint)?.authenticationHint(status: response.status) ?? "Check the credentials.")
            case 429, 500..<600:
                guard attempt < retry.maxAttempts else {
                    throw FetchError.httpStatus(status: response.status, url: url.absoluteString, detail: Self.errorDetail(response.body),
                                                attempts: attempt)
                }
                let delay = retry.retryAfter(response[header: "Retry-After"]) ?? retry.backoff(after: attempt)
                let reason = response.status == 429 ? "429 rate limit" : "HTTP \(response.status)"
                try await wait(delay, url: url, reason: reason, attempt: attempt)
                attempt += 1
            default:
                throw FetchError.httpStatus(status: response.status, url: url.absoluteString, detail: Self.errorDetail(response.body), attempts: attempt)
            }
        }
    }

    private func wait(_ delay: Duration, url: URL, reason: String, attempt: Int) async throws {
        progress?(.retry(url: url, reason: reason, delay: delay, attempt: attempt))
        try await retry.sleep(delay)
    }

    /// "NOT_FOUND: The specified resource does not exist (…)" from a JSON:API `errors` document, or
    /// the start of a short text body; nil when there is nothing to say.
    static func errorDetail(_ body: Data) -> String? {
        if let document = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
           let errors = document["errors"] as? [[String: Any]], let first = errors.first {
            let parts = ["code", "title", "detail"].compactMap { first[$0] as? String }.filter { !$0.isEmpty }
            if !parts.isEmpty { return parts.joined(separator: ": ") }
        }
        if let document = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
           let error = document["error"] as? [String: Any], let message = error["message"] as? String {
            return message
        }
        let text = String(decoding: body.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, !text.contains("<") else { return nil }
        return text.split(whereSeparator: \.isNewline).first.map(String.init)
    }
}
