import TallyModel

/// The StoreKit configuration RevenueCat generates for an app, wrapped as
/// `{object: "store_kit_config_file", contents}`: `contents` (the configuration as an object, or
/// as a string of JSON) is read by the StoreKit reader, as the app's configuration it is.
enum StoreKitWrapper {
    static func read(_ root: LocatedNode, bytes: [UInt8], file: String, options: ReadOptions) throws -> Catalog {
        guard let contents = root["contents"] else {
            throw FormatError("a store_kit_config_file without contents", file: file, position: root.position, path: "contents")
        }
        if contents.isObject, let range = valueRange(in: bytes, at: contents.position) {
            // Blank out everything around the value so that lines and columns stay the file's own.
            var inner = bytes
            for index in inner.indices where !range.contains(index) && inner[index] != UInt8(ascii: "\n") {
                inner[index] = UInt8(ascii: " ")
            }
            return try StoreKitReader.read(bytes: inner, file: file, options: options)
        }
        if let text = contents.text, case .scalar(_, .string) = contents.node.value {
            return try StoreKitReader.read(bytes: Array(text.utf8), file: file + " (contents)", options: options)
        }
        throw FormatError("a store_kit_config_file's contents is \(contents.article); expected the StoreKit configuration",
                          file: file, position: contents.position, path: "contents")
    }

    /// The bytes of the JSON object starting at `position` (1-based line and column of its `{`).
    static func valueRange(in bytes: [UInt8], at position: Position) -> Range<Int>? {
        guard position.isKnown else { return nil }
        var line = 1
        var start = 0
        while line < Int(position.line), start < bytes.count {
            if bytes[start] == UInt8(ascii: "\n") { line += 1 }
            start += 1
        }
        start += Int(position.column) - 1
        guard start < bytes.count, bytes[start] == UInt8(ascii: "{") else { return nil }
        var depth = 0
        var inString = false
        var escaped = false
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 { return start..<(index + 1) }
            }
            index += 1
        }
        return nil
    }
}
