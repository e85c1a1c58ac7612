import Foundation

/// What the fetcher needs from one App Store Connect API page (a JSON:API document): the
/// resources' types, IDs and linkage, and `links.next`. The page itself is saved as it came.
struct ConnectPage {
    struct Resource {
        var type: String
        var id: String
        /// Relationship → linked IDs, for relationships that give `data`.
        var links: [String: [String]]
        /// Relationship → `meta.paging.total`, where given.
        var totals: [String: Int]
        /// String and number attributes (numbers as text), for the few a request or a count depends on
        /// (`planType`, `multiSeatStatus`, `minimumSeats`).
        var attributes: [String: String] = [:]
    }

    var data: [Resource]
    var included: [Resource]
    var next: String?
    /// The page as it is saved: the bytes received, or (when the server left out `links.self`,
    /// which readers use to join a related list to its parent) the document with it added.
    var saved: Data

    init(_ body: Data, url: URL) throws {
        guard let document = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw FetchError.invalidResponse(url: APIURL.shown(url), reason: "the body is not a JSON object")
        }
        guard document.keys.contains("data") else {
            throw FetchError.invalidResponse(url: APIURL.shown(url), reason: "the document has no \"data\" (not a JSON:API response)")
        }
        switch document["data"] {
        case let list as [[String: Any]]: data = list.compactMap(Self.resource)
        case let one as [String: Any]: data = [one].compactMap(Self.resource)
        default: data = []
        }
        included = (document["included"] as? [[String: Any]] ?? []).compactMap(Self.resource)
        let links = document["links"] as? [String: Any]
        next = (links?["next"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        if links?["self"] is String {
            saved = body
        } else {
            var patched = document
            var newLinks = links ?? [:]
            newLinks["self"] = APIURL.shown(url)
            patched["links"] = newLinks
            saved = (try? JSONSerialization.data(withJSONObject: patched, options: [.prettyPrinted, .sortedKeys])) ?? body
        }
    }

    private static func resource(_ object: [String: Any]) -> Resource? {
        guard let type = object["type"] as? String, let id = object["id"] as? String else { return nil }
        var links: [String: [String]] = [:]
        var totals: [String: Int] = [:]
        for (name, value) in object["relationships"] as? [String: Any] ?? [:] {
            guard let relationship = value as? [String: Any] else { continue }
            switch relationship["data"] {
            case let list as [[String: Any]]: links[name] = list.compactMap { $0["id"] as? String }
            case let one as [String: Any]: links[name] = [one["id"] as? String].compactMap { $0 }
            default: break
            }
            if let meta = relationship["meta"] as? [String: Any], let paging = meta["paging"] as? [String: Any],
               let total = paging["total"] as? Int {
                totals[name] = total
            }
        }
        var attributes: [String: String] = [:]
        for (name, value) in object["attributes"] as? [String: Any] ?? [:] {
            if let text = value as? String {
                attributes[name] = text
            } else if let number = value as? NSNumber {
                // A number (or a flag: Foundation does not always tell them apart), as text.
                attributes[name] = number.stringValue
            }
        }
        return Resource(type: type, id: id, links: links, totals: totals, attributes: attributes)
    }
}
