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
    /// The run's limits and what it has spent: shared by every copy of this client.
    public var budget: FetchBudget

    public init(transport: any HTTPTransport, signer: (any RequestSigner)?, retry: RetryPolicy = RetryPolicy(),
                progress: FetchProgress? = nil, userAgent: String = "tally", budget: FetchBudget = FetchBudget()) {
        self.transport = transport
        self.signer = signer
        self.retry = retry
        self.progress = progress
        self.userAgent = userAgent
        self.budget = budget
    }

    public var limits: FetchLimits { budget.limits }

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
        var url = url
        var redirects = 0
        let secrets = body.map { [String(decoding: $0, as: UTF8.self)] } ?? []
        while true {
            try Task.checkCancellation()
            var headers = ["Accept": "application/json", "User-Agent": userAgent]
            if let contentType { headers["Content-Type"] = contentType }
            // Signed per attempt: a retry after a long Retry-After gets a fresh token if needed.
            if let signer { headers["Authorization"] = try await signer.authorization() }
            let sent = secrets + [headers["Authorization"], headers["Authorization"].map { String($0.drop { $0 != " " }.dropFirst()) }].compactMap { $0 }
            try budget.spend(url)
            progress?(.request(url: url, attempt: attempt))
            let limits = budget.limits
            let remaining = budget.remaining
            let request = TransportRequest(url: url, headers: headers, method: method, body: body, maxBytes: limits.bytesPerResponse,
                                           timeLimit: min(limits.timePerResponse, remaining), idleLimit: min(limits.idleTime, remaining))
            let response: TransportResponse
            do {
                response = try await transport.get(request)
            } catch let failure as TransportFailure {
                let shown = APIURL.shown(url)
                switch failure.kind {
                case .tooLarge:
                    throw FetchError.limit(url: shown, what: "\(failure.message), the limit of one response (TALLY_FETCH_MAX_RESPONSE_BYTES)")
                case .tooSlow:
                    if budget.remaining <= .zero { throw budget.deadlinePassed(url) }
                    throw FetchError.limit(url: shown, what: "\(failure.message), the limit of one response (TALLY_FETCH_RESPONSE_SECONDS)")
                default:
                    break
                }
                guard failure.isTransient, attempt < retry.maxAttempts else {
                    if budget.remaining <= .zero { throw budget.deadlinePassed(url) }
                    let tries = attempt > 1 ? " (\(attempt) attempts)" : ""
                    if failure.kind == .cannotConnect { throw FetchError.unreachable(url: shown, reason: failure.message + tries) }
                    throw FetchError.noResponse(url: shown, reason: failure.message + tries)
                }
                try await wait(retry.backoff(after: attempt), url: url, reason: failure.message, attempt: attempt)
                attempt += 1
                continue
            }
            progress?(.response(url: url, status: response.status, bytes: response.body.count, attempt: attempt))
            let detail = { Self.errorDetail(response.body, secrets: sent) }
            switch response.status {
            case 200..<300:
                return response
            case 301, 302, 303, 307, 308:
                let location = response[header: "Location"] ?? ""
                guard let next = URL(string: location, relativeTo: url)?.absoluteURL, next.host != nil else {
                    throw FetchError.invalidResponse(url: APIURL.shown(url), reason: "HTTP \(response.status) without a usable Location "
                                                         + "(\"\(ServerText.clean(location, limit: 200))\")")
                }
                guard APIURL.sameOrigin(next, url) else {
                    throw FetchError.redirect(url: APIURL.shown(url), status: response.status, location: ServerText.clean(APIURL.shown(next), limit: 300))
                }
                redirects += 1
                guard redirects <= limits.redirectsPerRequest else {
                    throw FetchError.limit(url: APIURL.shown(url), what: "more than \(limits.redirectsPerRequest) redirects for one request")
                }
                url = next
            case 401, 403:
                throw FetchError.authentication(status: response.status, url: APIURL.shown(url), detail: detail(),
                                                hint: (signer ?? hint)?.authenticationHint(status: response.status) ?? "Check the credentials.")
            case 429, 500..<600:
                guard attempt < retry.maxAttempts else {
                    throw FetchError.httpStatus(status: response.status, url: APIURL.shown(url), detail: detail(), attempts: attempt)
                }
                let delay = retry.retryAfter(response[header: "Retry-After"]) ?? retry.backoff(after: attempt)
                let reason = response.status == 429 ? "429 rate limit" : "HTTP \(response.status)"
                try await wait(delay, url: url, reason: reason, attempt: attempt)
                attempt += 1
            default:
                throw FetchError.httpStatus(status: response.status, url: APIURL.shown(url), detail: detail(), attempts: attempt)
            }
        }
    }

    /// Waits before a retry, unless the wait would end past the deadline (then the run stops now).
    private func wait(_ delay: Duration, url: URL, reason: String, attempt: Int) async throws {
        guard delay < budget.remaining else {
            throw FetchError.limit(url: APIURL.shown(url), what: "\(reason): the wait before a retry (\(Quantity.seconds(delay, text: true))) "
                                       + "would pass the fetch's deadline (--timeout SECONDS raises it)")
        }
        progress?(.retry(url: url, reason: reason, delay: delay, attempt: attempt))
        try await retry.sleep(delay)
    }

    /// "NOT_FOUND: The specified resource does not exist (…)" from a JSON:API `errors` document, or
    /// the start of a short text body; nil when there is nothing to say.
    /// Cleaned (`ServerText`): control characters escaped, length capped, `secrets` (what was just
    /// sent: the token, the form) and any bearer value or JWT redacted.
    static func errorDetail(_ body: Data, secrets: [String] = []) -> String? {
        rawDetail(body).map { ServerText.clean($0, secrets: secrets) }
    }

    private static func rawDetail(_ body: Data) -> String? {
        if let document = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
           let errors = document["errors"] as? [[String: Any]], let first = errors.first {
            let parts = ["code", "title", "detail"].compactMap { first[$0] as? String }.filter { !$0.isEmpty }
            if !parts.isEmpty { return parts.joined(separator: ": ") }
        }
        if let document = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
           let error = document["error"] as? [String: Any], let message = error["message"] as? String {
            return message
        }
        let text = String(decoding: body.prefix(400), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, !text.contains("<") else { return nil }
        return text.split(whereSeparator: \.isNewline).first.map(String.init)
    }
}
