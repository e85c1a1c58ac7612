import TallyModel
import Yams

/// Parses YAML with Yams into a `DocNode` tree that keeps each node's (and each key's) line and
/// column. Aliases are refused and the tree is bounded in size and depth.
public enum YAMLDocument {
    /// More nodes than this (after resolving aliases) is refused: a "billion laughs" file
    /// must not expand without bound.
    static let maxNodes = 5_000_000

    /// The document's root; a `FormatError` with line and column for invalid YAML or an empty file.
    public static func parse(text: String, file: String) throws -> DocNode {
        let root: Node?
        do {
            // The basic resolver: no regular expression per scalar (Tally resolves kinds itself, below).
            root = try Yams.compose(yaml: text, .basic)
        } catch let error as YamlError {
            throw located(error, file: file)
        }
        guard let root else {
            throw FormatError("the file is empty", file: file, position: Position(line: 1, column: 1))
        }
        var budget = maxNodes
        return try convert(root, file: file, budget: &budget, depth: 0)
    }

    private static func position(_ node: Node) -> Position {
        node.mark.map { Position(line: $0.line, column: $0.column) } ?? .unknown
    }

    private static func convert(_ node: Node, file: String, budget: inout Int, depth: Int) throws -> DocNode {
        budget -= 1
        guard budget > 0 else {
            throw FormatError("the document expands to more than \(maxNodes) values (aliases?); refused",
                              file: file, position: position(node))
        }
        guard depth < 256 else {
            throw FormatError("nesting deeper than 256 levels (the limit for this reader)", file: file, position: position(node))
        }
        switch node {
        case .scalar(let scalar):
            return DocNode(.scalar(scalar.string, kind(of: scalar)), position: position(node))
        case .mapping(let mapping):
            var members: [(key: String, node: DocNode)] = []
            var keyPositions: [Position] = []
            members.reserveCapacity(mapping.count)
            keyPositions.reserveCapacity(mapping.count)
            for (key, value) in mapping {
                guard case .scalar(let keyScalar) = key else {
                    throw FormatError("a mapping key must be a plain value", file: file, position: position(key))
                }
                members.append((keyScalar.string, try convert(value, file: file, budget: &budget, depth: depth + 1)))
                keyPositions.append(position(key))
            }
            return DocNode(.object(members), position: position(node), keyPositions: keyPositions)
        case .sequence(let sequence):
            var elements: [DocNode] = []
            elements.reserveCapacity(sequence.count)
            for element in sequence {
                elements.append(try convert(element, file: file, budget: &budget, depth: depth + 1))
            }
            return DocNode(.array(elements), position: position(node))
        case .alias:
            throw FormatError("YAML aliases are not supported in catalogues", file: file, position: position(node))
        }
    }

    /// YAML 1.2 core schema resolution for plain scalars; quoted scalars are strings.
    private static func kind(of scalar: Node.Scalar) -> ValueKind {
        guard scalar.style == .plain else { return .string }
        let text = scalar.string
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE", "false", "False", "FALSE": return .bool
        default: break
        }
        return looksNumeric(text) ? .number : .string
    }

    private static func looksNumeric(_ text: String) -> Bool {
        var digits = 0, dots = 0
        for (offset, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "."): dots += 1
            case UInt8(ascii: "-"), UInt8(ascii: "+"): if offset != 0 { return false }
            default: return false
            }
        }
        return digits > 0 && dots <= 1
    }

    private static func located(_ error: YamlError, file: String) -> FormatError {
        switch error {
        case .scanner(let context, let problem, let mark, _),
             .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            let detail = context.map { "\(problem) (\($0.text))" } ?? problem
            return FormatError("invalid YAML: \(detail)", file: file, position: Position(line: mark.line, column: mark.column))
        case .reader(let problem, _, _, _):
            return FormatError("invalid YAML: \(problem)", file: file, position: .unknown)
        case .duplicatedKeysInMapping(let duplicates, let context):
            return FormatError("duplicate key \(duplicates.joined(separator: ", ")) in a mapping", file: file,
                               position: Position(line: context.mark.line, column: context.mark.column))
        default:
            return FormatError("invalid YAML: \(error)", file: file, position: .unknown)
        }
    }
}
