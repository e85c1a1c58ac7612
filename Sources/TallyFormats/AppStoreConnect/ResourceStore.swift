import Foundation
import TallyModel

/// Every resource of an export, merged across pages, with the links between them: the
/// relationships the pages give, the links a related list's page implies (a page answering
/// `/v1/subscriptions/6444000001/prices` lists that subscription's prices), and the reverse of
/// each link, so that an introductory offer naming its subscription is found from the subscription.
struct ResourceStore {
    private(set) var resources: [ResourceKey: Resource] = [:]
    /// Keys in order of first appearance, pages in order.
    private(set) var order: [ResourceKey] = []
    /// Target → the resources linking to it, and by which relationship.
    private var backLinks: [ResourceKey: [(source: ResourceKey, relationship: String)]] = [:]
    /// The pages' `unknown-content` warnings, pages in order.
    private(set) var issues: [SourceIssue] = []

    /// Adds a page's resources and the parent link its `links.self` implies.
    mutating func add(_ page: JSONAPIPage) {
        issues += page.issues
        for resource in page.resources { add(resource) }
        if let selfLink = page.selfLink, let parent = Self.parent(of: selfLink) {
            link(parent.key, parent.relationship, to: page.primaryKeys.filter { $0 != parent.key })
        }
    }

    /// Merges a resource: a copy from a page's `data` wins over one from `included`; otherwise
    /// the first copy's values stay and later copies fill the gaps. Links are united.
    mutating func add(_ resource: Resource) {
        for (name, targets) in resource.relationships {
            for target in targets { backLinks[target, default: []].append((resource.key, name)) }
        }
        guard var existing = resources[resource.key] else {
            resources[resource.key] = resource
            order.append(resource.key)
            return
        }
        let newWins = resource.isPrimary && !existing.isPrimary
        for (name, attribute) in resource.attributes where newWins || existing.attributes[name] == nil {
            existing.attributes[name] = attribute
        }
        for (name, targets) in resource.relationships {
            var merged = existing.relationships[name] ?? []
            for target in targets where !merged.contains(target) { merged.append(target) }
            existing.relationships[name] = merged
        }
        if newWins {
            existing.position = resource.position
            existing.isPrimary = true
        }
        resources[resource.key] = existing
    }

    /// Records that `parent`'s relationship links to `children` (creating a bare parent if needed).
    mutating func link(_ parent: ResourceKey, _ relationship: String, to children: [ResourceKey]) {
        var resource = resources[parent] ?? Resource(key: parent, position: .unknown, isPrimary: false)
        var merged = resource.relationships[relationship] ?? []
        for child in children where !merged.contains(child) {
            merged.append(child)
            backLinks[child, default: []].append((parent, relationship))
        }
        resource.relationships[relationship] = merged
        if resources[parent] == nil { order.append(parent) }
        resources[parent] = resource
    }

    subscript(key: ResourceKey) -> Resource? { resources[key] }

    /// Resources of one type, in order of appearance.
    func all(_ type: String) -> [Resource] {
        order.compactMap { $0.type == type ? resources[$0] : nil }
    }

    /// Whether any resource of the type is in the export.
    func contains(type: String) -> Bool { order.contains { $0.type == type } }

    /// The resources a relationship of `resource` links to, plus those of `type` whose
    /// `inverse` relationship links back to it; each once, in order of appearance.
    func related(_ resource: Resource, _ relationship: String, inverse: String? = nil, type: String? = nil) -> [Resource] {
        var keys = resource.relationships[relationship] ?? []
        if let inverse {
            for link in backLinks[resource.key] ?? [] where link.relationship == inverse && (type == nil || link.source.type == type) {
                if !keys.contains(link.source) { keys.append(link.source) }
            }
        }
        return keys.compactMap { resources[$0] ?? Resource(key: $0, position: .unknown, isPrimary: false) }
    }

    /// The resources of `type` that link to `key` through `relationship`.
    func owners(of key: ResourceKey, type: String, via relationship: String) -> [Resource] {
        (backLinks[key] ?? []).filter { $0.source.type == type && $0.relationship == relationship }.compactMap { resources[$0.source] }
    }

    /// The parent and relationship a related-list URL names: `/v1/subscriptions/ID/prices` and
    /// `/v1/subscriptions/ID/relationships/prices` give (`subscriptions ID`, `prices`).
    static func parent(of link: String) -> (key: ResourceKey, relationship: String)? {
        let path = URLComponents(string: link)?.path ?? link
        var parts = path.split(separator: "/").map(String.init)
        guard let version = parts.firstIndex(where: { $0.count >= 2 && $0.hasPrefix("v") && Int($0.dropFirst()) != nil }) else { return nil }
        parts = Array(parts[(version + 1)...])
        if parts.count == 4, parts[2] == "relationships" { parts.remove(at: 2) }
        guard parts.count == 3 else { return nil }
        return (ResourceKey(type: parts[0], id: parts[1]), parts[2])
    }
}
