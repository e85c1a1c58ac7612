import Foundation
import TallyModel

/// A value of a JSON document with its position and key path, for the built-in readers of
/// tools' own JSON shapes (Unity IAP, storeconfig): members and elements keep both, so every
/// value a reader drops or refuses is named where it is written.
struct LocatedNode {
    let node: DocNode
    /// `subscriptionGroups[0].subscriptions[2]`.
    let path: String

    /// The document of `bytes` (JSON, through Tally's reader with positions).
    static func root(bytes: [UInt8], file: String, maxDepth: Int) throws -> LocatedNode {
        var reader = try JSONReader(bytes: bytes, file: file, maxDepth: maxDepth)
        let root = try DocNode.read(from: &reader)
        try reader.finish()
        return LocatedNode(node: root, path: "")
    }

    var position: Position { node.position }

    /// The member `key` of an object, nil when absent, null, or this is not an object.
    subscript(_ key: String) -> LocatedNode? {
        guard let child = node.member(key), !child.isNull else { return nil }
        return LocatedNode(node: child, path: PathMatch.render(path, key: key))
    }

    /// The elements of a list; empty for anything else.
    var elements: [LocatedNode] {
        guard case .array(let items) = node.value else { return [] }
        return items.enumerated().map { LocatedNode(node: $1, path: "\(path)[\($0)]") }
    }

    var isObject: Bool {
        if case .object = node.value { return true }
        return false
    }

    var isArray: Bool {
        if case .array = node.value { return true }
        return false
    }

    /// A string, number or boolean's text.
    var text: String? { node.scalarText }

    /// A non-empty string's text (after trimming spaces).
    var nonEmptyText: String? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        return text
    }

    var bool: Bool? {
        guard case .scalar(let text, .bool) = node.value else { return nil }
        return text == "true"
    }

    var int: Int? {
        guard case .scalar(let text, .number) = node.value else { return nil }
        return Int(text)
    }

    /// "a string", "an object", for messages.
    var article: String { node.kind.article }
}
