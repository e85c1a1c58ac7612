import TallyModel

/// A key path into a JSON, YAML or property-list document, as a `tally-mapping/1` file writes it:
/// `data.products[*]`, `groups[*].plans[*]`, `prices.USA`, `["display.name"]`, `^.id`, `@key`.
///
/// - `name` or `["name with . or spaces"]`: a member of an object;
/// - `[3]`: an element of a list; `[*]`: every element;
/// - `*`: every member of an object (the member's key is then `@key`);
/// - a leading `^` steps out to the object that holds the current one's list or member
///   (`^^` two levels), so a subscription can take its group from the object around it;
/// - `@key`: the key under which the product sits, when products are matched with `*`.
public struct DocumentPath: Sendable, Hashable, CustomStringConvertible {
    enum Step: Sendable, Hashable {
        case key(String)
        case index(Int)
        case anyElement
        case anyMember
    }

    /// How many enclosing objects to step out of first.
    let parents: Int
    /// Whether the path is `@key`.
    let isProductKey: Bool
    let steps: [Step]
    /// The text as written.
    public let description: String

    /// Whether the path has a wildcard (`[*]` or `*`).
    public var hasWildcard: Bool { steps.contains { $0 == .anyElement || $0 == .anyMember } }

    /// Parses a path; the error names what is wrong and where in the text.
    public init(_ text: String) throws(DocumentPathError) {
        description = text
        let characters = Array(text)
        var index = 0
        var parents = 0
        while index < characters.count, characters[index] == "^" {
            parents += 1
            index += 1
        }
        self.parents = parents
        if characters[index...].elementsEqual("@key") {
            isProductKey = true
            steps = []
            return
        }
        isProductKey = false
        var steps: [Step] = []
        var expectName = false
        while index < characters.count {
            let character = characters[index]
            if character == "." {
                guard !steps.isEmpty || parents > 0, !expectName else { throw DocumentPathError(text: text, offset: index, problem: "an empty step") }
                expectName = true
                index += 1
            } else if character == "[" {
                let close = characters[index...].firstIndex(of: "]")
                guard let close else { throw DocumentPathError(text: text, offset: index, problem: "a '[' without its ']'") }
                let inside = String(characters[(index + 1)..<close])
                if inside == "*" {
                    steps.append(.anyElement)
                } else if let number = Int(inside), number >= 0 {
                    steps.append(.index(number))
                } else if inside.count >= 2, inside.first == "\"", inside.last == "\"" {
                    steps.append(.key(String(inside.dropFirst().dropLast())))
                } else {
                    throw DocumentPathError(text: text, offset: index, problem: "[\(inside)] is neither [*], an index like [0] nor a quoted key like [\"a.b\"]")
                }
                expectName = false
                index = close + 1
            } else if character == "*" {
                steps.append(.anyMember)
                expectName = false
                index += 1
            } else {
                var end = index
                while end < characters.count, characters[end] != ".", characters[end] != "[" { end += 1 }
                let name = String(characters[index..<end])
                guard !name.contains("*"), !name.contains("^"), !name.contains("]") else {
                    throw DocumentPathError(text: text, offset: index, problem: "\"\(name)\" mixes a name with * ^ or ] (quote odd keys: [\"\(name)\"])")
                }
                if !steps.isEmpty, !expectName {
                    throw DocumentPathError(text: text, offset: index, problem: "a '.' is missing before \"\(name)\"")
                }
                steps.append(.key(name))
                expectName = false
                index = end
            }
        }
        if expectName { throw DocumentPathError(text: text, offset: characters.count, problem: "the path ends with '.'") }
        if steps.isEmpty, parents == 0 { throw DocumentPathError(text: text, offset: 0, problem: "an empty path") }
        self.steps = steps
    }
}

/// A key path that cannot be parsed.
public struct DocumentPathError: Error, Sendable, Hashable {
    public var text: String
    /// Where in the text (0-based characters).
    public var offset: Int
    public var problem: String

    public var message: String { "invalid key path \"\(text)\": \(problem) at character \(offset + 1)" }
}

/// A value found by a key path: the node, its rendered path, and what encloses it.
struct PathMatch {
    var node: DocNode
    /// `data.products[3]`.
    var path: String
    /// Enclosing objects, outermost first, for `^`.
    var ancestors: [(node: DocNode, path: String)]
    /// The member key the match was found under, for `@key`.
    var key: String?

    static func root(_ node: DocNode) -> PathMatch {
        PathMatch(node: node, path: "", ancestors: [], key: nil)
    }

    /// Every value `keyPath` reaches from here, in document order.
    func resolve(_ keyPath: DocumentPath) -> [PathMatch] {
        var start = self
        for _ in 0..<keyPath.parents {
            guard let outer = start.ancestors.popLast() else { return [] }
            start = PathMatch(node: outer.node, path: outer.path, ancestors: start.ancestors, key: nil)
        }
        if keyPath.isProductKey {
            guard let key else { return [] }
            return [PathMatch(node: DocNode(.scalar(key, .string), position: node.position), path: path, ancestors: ancestors, key: key)]
        }
        var current = [start]
        for step in keyPath.steps {
            current = current.flatMap { $0.step(step) }
        }
        return current
    }

    /// The single value `keyPath` reaches, or nil when it reaches none.
    func first(_ keyPath: DocumentPath) -> PathMatch? {
        resolve(keyPath).first
    }

    /// The members of an object, each with its key; empty for anything else.
    var members: [(key: String, match: PathMatch)] {
        guard case .object(let members) = node.value else { return [] }
        return members.map { ($0.key, child($0.node, PathMatch.render(path, key: $0.key), key: key, inObject: true)) }
    }

    /// The elements of a list; empty for anything else.
    var elements: [PathMatch] { step(.anyElement) }

    private func step(_ step: DocumentPath.Step) -> [PathMatch] {
        switch (step, node.value) {
        case (.key(let name), .object(let members)):
            guard let member = members.first(where: { $0.key == name }) else { return [] }
            return [child(member.node, PathMatch.render(path, key: name), key: key, inObject: true)]
        case (.anyMember, .object(let members)):
            return members.map { child($0.node, PathMatch.render(path, key: $0.key), key: $0.key, inObject: true) }
        case (.index(let index), .array(let elements)):
            guard index < elements.count else { return [] }
            return [child(elements[index], "\(path)[\(index)]", key: key, inObject: false)]
        case (.anyElement, .array(let elements)):
            return elements.enumerated().map { child($1, "\(path)[\($0)]", key: key, inObject: false) }
        default:
            return []
        }
    }

    private func child(_ node: DocNode, _ path: String, key: String?, inObject: Bool) -> PathMatch {
        PathMatch(node: node, path: path, ancestors: inObject ? ancestors + [(self.node, self.path)] : ancestors, key: key)
    }

    static func render(_ path: String, key: String) -> String {
        let plain = !key.isEmpty && key.unicodeScalars.allSatisfy { $0 == "_" || $0 == "-" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
        if plain { return path.isEmpty ? key : "\(path).\(key)" }
        return "\(path)[\"\(key)\"]"
    }
}
