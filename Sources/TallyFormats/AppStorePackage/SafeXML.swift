import Foundation
import CLibXML2
import TallyModel

/// An element of a parsed XML document: the parts Tally reads, copied out of libxml2's tree.
struct XMLElementNode: Sendable {
    /// The local name, without a namespace prefix.
    var name: String
    var attributes: [String: String]
    var children: [XMLElementNode]
    /// The element's own text and CDATA, trimmed of surrounding white space.
    var text: String
    /// Where the start tag is (line from libxml2, column of its `<`).
    var position: Position

    /// The first child element with this name.
    func child(_ name: String) -> XMLElementNode? { children.first { $0.name == name } }

    /// Every child element with this name, in document order.
    func children(_ name: String) -> [XMLElementNode] { children.filter { $0.name == name } }
}

/// Parses XML through libxml2 with every door to the outside shut: no network
/// (`XML_PARSE_NONET`), no DTD loading, no entity substitution, and any document that declares
/// an entity is refused as soon as the declaration is seen, before a single entity is expanded.
/// An XXE file (an entity reading `/etc/passwd` or a URL) and a billion-laughs file therefore
/// fail at once, in constant memory.
enum SafeXML {
    static func parse(bytes: [UInt8], file: String) throws -> XMLElementNode {
        guard bytes.count < Int(Int32.max) else {
            throw FormatError("the file is too large for the XML parser (2 GB at most)", file: file, position: .unknown)
        }
        xmlInitParser()
        guard let context = xmlNewParserCtxt() else {
            throw FormatError("cannot start the XML parser (out of memory?)", file: file, position: .unknown)
        }
        defer { xmlFreeParserCtxt(context) }
        let watch = EntityWatch()
        context.pointee._private = Unmanaged.passUnretained(watch).toOpaque()
        if let sax = context.pointee.sax {
            sax.pointee.entityDecl = { userData, name, _, _, _, _ in
                guard let userData else { return }
                let parser = userData.assumingMemoryBound(to: xmlParserCtxt.self)
                if let state = parser.pointee._private {
                    let watch = Unmanaged<EntityWatch>.fromOpaque(state).takeUnretainedValue()
                    if watch.name == nil {
                        watch.name = name.map { String(cString: $0) } ?? "?"
                        watch.line = Int(parser.pointee.input?.pointee.line ?? 0)
                    }
                }
                xmlStopParser(parser)
            }
            // Never fetch an external DTD, whatever the options say.
            sax.pointee.externalSubset = nil
        }
        let options = XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
            | XML_PARSE_BIG_LINES.rawValue | XML_PARSE_NOCDATA.rawValue
        let document = bytes.withUnsafeBufferPointer { buffer -> xmlDocPtr? in
            guard let base = buffer.baseAddress else { return nil }
            return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                xmlCtxtReadMemory(context, $0, Int32(buffer.count), nil, nil, Int32(options))
            }
        }
        defer { if let document { xmlFreeDoc(document) } }
        if let name = watch.name {
            throw FormatError(
                "the document declares the XML entity \"\(name)\": Tally refuses entity declarations, which can read local "
                    + "files or the network (XXE) or expand without bound (billion laughs). An App Store package needs none: "
                    + "remove the <!DOCTYPE ...> block",
                file: file, position: Position(line: max(watch.line, 1), column: 1))
        }
        guard let document, let root = xmlDocGetRootElement(document) else {
            throw lastError(context, file: file)
        }
        var locator = TagLocator(bytes: bytes)
        return try convert(root, file: file, locator: &locator)
    }

    /// The parser's error as a located `FormatError`.
    private static func lastError(_ context: xmlParserCtxtPtr, file: String) -> FormatError {
        guard let error = xmlCtxtGetLastError(context) else {
            return FormatError("the file is not well-formed XML", file: file, position: Position(line: 1, column: 1))
        }
        let message = error.pointee.message.map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines)
            ?? "the file is not well-formed XML"
        let line = Int(error.pointee.line)
        let column = Int(error.pointee.int2)
        return FormatError("not well-formed XML: \(message)", file: file,
                           position: line > 0 ? Position(line: line, column: max(column, 1)) : .unknown)
    }

    /// Copies an element and its descendants out of libxml2; refuses entity references.
    private static func convert(_ node: xmlNodePtr, file: String, locator: inout TagLocator) throws -> XMLElementNode {
        let name = node.pointee.name.map { String(cString: $0) } ?? ""
        let line = Int(xmlGetLineNo(node))
        let position = line > 0 ? Position(line: line, column: locator.column(of: name, line: line)) : .unknown
        var element = XMLElementNode(name: name, attributes: [:], children: [], text: "", position: position)
        var attribute = node.pointee.properties
        while let current = attribute {
            if let key = current.pointee.name.map({ String(cString: $0) }) {
                element.attributes[key] = text(of: current.pointee.children)
            }
            attribute = current.pointee.next
        }
        var text = ""
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE:
                element.children.append(try convert(current, file: file, locator: &locator))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content { text += String(cString: content) }
            case XML_ENTITY_REF_NODE:
                let reference = current.pointee.name.map { String(cString: $0) } ?? "?"
                throw FormatError("the entity reference &\(reference); is refused: Tally never expands XML entities",
                                  file: file, position: Position(line: max(Int(xmlGetLineNo(current)), 1), column: 1))
            default:
                break
            }
            child = current.pointee.next
        }
        element.text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return element
    }

    /// The text of an attribute's value nodes.
    private static func text(of first: xmlNodePtr?) -> String {
        var text = ""
        var node = first
        while let current = node {
            if let content = current.pointee.content { text += String(cString: content) }
            node = current.pointee.next
        }
        return text
    }
}

/// Set from libxml2's entity-declaration callback, on the parsing thread, during one parse.
private final class EntityWatch {
    var name: String?
    var line = 0
}

/// Finds the column of a start tag on a line (libxml2 keeps lines only). Elements are visited
/// in document order, so each search starts after the previous tag found on the same line.
struct TagLocator {
    private let bytes: [UInt8]
    private var lineStarts: [Int] = [0]
    private var cursor: (line: Int, offset: Int) = (0, 0)

    init(bytes: [UInt8]) {
        self.bytes = bytes
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { lineStarts.append(index + 1) }
    }

    /// The 1-based column of `<name` (or `<prefix:name`) on `line`; 1 when it is not found.
    mutating func column(of name: String, line: Int) -> Int {
        guard line >= 1, line <= lineStarts.count else { return 1 }
        let lineStart = lineStarts[line - 1]
        let lineEnd = line < lineStarts.count ? lineStarts[line] : bytes.count
        var index = cursor.line == line ? cursor.offset : lineStart
        let tag = Array(name.utf8)
        while index < lineEnd {
            if bytes[index] == UInt8(ascii: "<"), matches(tag, after: index + 1, before: lineEnd) {
                cursor = (line, index + 1)
                return index - lineStart + 1
            }
            index += 1
        }
        return 1
    }

    /// Whether `tag` (optionally after a `prefix:`) starts at `start` and ends the name there.
    private func matches(_ tag: [UInt8], after start: Int, before end: Int) -> Bool {
        var nameStart = start
        var scan = start
        while scan < end, isNameByte(bytes[scan]) {
            if bytes[scan] == UInt8(ascii: ":") { nameStart = scan + 1 }
            scan += 1
        }
        guard scan - nameStart == tag.count else { return false }
        for offset in 0..<tag.count where bytes[nameStart + offset] != tag[offset] { return false }
        return true
    }

    private func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"):
            return false
        default:
            return true
        }
    }
}
