import Foundation
import TallyModel

/// Property lists (XML or binary) through Foundation, turned into a `DocNode` tree. Foundation
/// keeps no line numbers, so values are located by key path.
enum PropertyListDocument {
    /// Whether the bytes start like an XML or binary property list.
    static func looksLikePropertyList(_ bytes: [UInt8]) -> Bool {
        let head = bytes.prefix(64)
        if head.starts(with: Array("bplist".utf8)) { return true }
        var text = String(decoding: head, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.hasPrefix("<?xml") || text.hasPrefix("<plist") || text.hasPrefix("<!DOCTYPE plist")
    }

    static func parse(bytes: [UInt8], file: String) throws -> DocNode {
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            throw FormatError("not a valid property list: \(plistReason(error))", file: file, position: .unknown)
        }
        return try convert(root, file: file, depth: 0)
    }

    private static func plistReason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let debug = nsError.userInfo["NSDebugDescription"] as? String { return debug }
        return nsError.localizedDescription
    }

    private static func convert(_ value: Any, file: String, depth: Int) throws -> DocNode {
        guard depth < 256 else {
            throw FormatError("nesting deeper than 256 levels (the limit for this reader)", file: file, position: .unknown)
        }
        switch value {
        case let dictionary as [String: Any]:
            let members = try dictionary.keys.sorted().map { key in
                (key: key, node: try convert(dictionary[key] as Any, file: file, depth: depth + 1))
            }
            return DocNode(.object(members))
        case let array as [Any]:
            return DocNode(.array(try array.map { try convert($0, file: file, depth: depth + 1) }))
        case let string as String:
            return DocNode(.scalar(string, .string))
        case let bool as Bool where isBoolean(value):
            return DocNode(.scalar(bool ? "true" : "false", .bool))
        case let number as NSNumber:
            return DocNode(.scalar(number.stringValue, .number))
        case let integer as Int:
            return DocNode(.scalar(String(integer), .number))
        case let date as Date:
            return DocNode(.scalar(ISO8601DateFormatter().string(from: date), .string))
        case let data as Data:
            return DocNode(.scalar(data.base64EncodedString(), .string))
        default:
            return DocNode(.scalar(String(describing: value), .string))
        }
    }

    private static func isBoolean(_ value: Any) -> Bool {
        if value is Bool, !(value is NSNumber) { return true }
        if let number = value as? NSNumber {
            #if canImport(Darwin)
            return CFGetTypeID(number) == CFBooleanGetTypeID()
            #else
            return String(cString: number.objCType) == "c" || type(of: number) != NSNumber.self && "\(type(of: number))".contains("Bool")
            #endif
        }
        return false
    }
}
