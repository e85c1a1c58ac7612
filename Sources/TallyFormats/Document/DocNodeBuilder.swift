import TallyModel

extension DocNode {
    /// Reads the next value of any document reader into a tree that keeps every value's position,
    /// for formats whose products are found by key paths (mapped server files).
    static func read<R: DocumentReader>(from reader: inout R) throws -> DocNode {
        let position = reader.position
        switch try reader.peekKind() {
        case .object:
            var members: [(key: String, node: DocNode)] = []
            var keyPositions: [Position] = []
            var seen = Set<String>()
            try reader.forEachKey { reader, key in
                guard seen.insert(key).inserted else { throw reader.error("the key \"\(key)\" appears twice in the same object", at: reader.keyPosition) }
                keyPositions.append(reader.keyPosition)
                members.append((key, try read(from: &reader)))
            }
            return DocNode(.object(members), position: position, keyPositions: keyPositions)
        case .array:
            var elements: [DocNode] = []
            try reader.forEachElement { reader, _ in elements.append(try read(from: &reader)) }
            return DocNode(.array(elements), position: position)
        case .string: return DocNode(.scalar(try reader.readString(), .string), position: position)
        case .number: return DocNode(.scalar(try reader.readNumberText(), .number), position: position)
        case .bool: return DocNode(.scalar(try reader.readBool() ? "true" : "false", .bool), position: position)
        case .null:
            _ = try reader.readNullIfPresent()
            return DocNode(.scalar("", .null), position: position)
        }
    }

    /// The member named `key`, when this is an object that has one.
    func member(_ key: String) -> DocNode? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.node
    }

    /// The scalar's text, when this is a string, number or boolean.
    var scalarText: String? {
        guard case .scalar(let text, let kind) = value, kind != .null else { return nil }
        return text
    }

    var isNull: Bool {
        if case .scalar(_, .null) = value { return true }
        return false
    }
}
