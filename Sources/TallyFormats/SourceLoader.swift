import Foundation
import TallyModel

/// Finds the format of a source file and reads it into a `Catalog`.
public enum SourceLoader {
    /// Files larger than this are refused before they are read.
    public static let defaultMaxBytes = 512 * 1024 * 1024

    /// Reads a file, choosing the reader by extension and content (or `format` when given).
    public static func load(path: String, format: SourceFormat? = nil, maxBytes: Int = defaultMaxBytes) throws -> Catalog {
        let bytes = try readBytes(path: path, maxBytes: maxBytes)
        return try load(bytes: bytes, file: path, format: format)
    }

    /// Reads bytes already in memory, as if they were the file `file`.
    public static func load(bytes: [UInt8], file: String, format: SourceFormat? = nil) throws -> Catalog {
        let chosen = try format ?? detect(bytes: bytes, file: file)
        switch chosen {
        case .storeKit: return try StoreKitReader.read(bytes: bytes, file: file)
        case .tallyCatalogJSON: return try TallyCatalogReader.readJSON(bytes: bytes, file: file)
        case .tallyCatalogYAML: return try TallyCatalogReader.readYAML(bytes: bytes, file: file)
        }
    }

    /// The format of a file, from its extension and its first bytes.
    public static func detect(bytes: [UInt8], file: String) throws -> SourceFormat {
        let lower = file.lowercased()
        if lower.hasSuffix(".storekit") {
            if bytes.isEmpty { throw emptyFile(file) }
            return .storeKit
        }
        if lower.hasSuffix(".yaml") || lower.hasSuffix(".yml") {
            if bytes.isEmpty { throw emptyFile(file) }
            return .tallyCatalogYAML
        }
        if lower.hasSuffix(".json") {
            if bytes.isEmpty { throw emptyFile(file) }
            let head = String(decoding: bytes.prefix(4096), as: UTF8.self)
            if head.contains("tally-catalog/") { return .tallyCatalogJSON }
            if head.contains("\"productID\"") || head.contains("\"subscriptionGroups\"") || head.contains("\"nonRenewingSubscriptions\"") {
                return .storeKit
            }
            return .tallyCatalogJSON
        }
        throw FormatError("cannot tell the format of this file from its name: use .storekit for StoreKit configurations, .json, .yaml or .yml for tally-catalog/1 catalogues",
                          file: file, position: .unknown)
    }

    private static func emptyFile(_ file: String) -> FormatError {
        FormatError("the file is empty (0 bytes): nothing to read", file: file, position: .unknown)
    }

    /// Reads a regular file whole, refusing directories, special files and files over the limit.
    public static func readBytes(path: String, maxBytes: Int) throws -> [UInt8] {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FormatError("no such file", file: path, position: .unknown)
        }
        guard !isDirectory.boolValue else {
            throw FormatError("this is a directory, not a file", file: path, position: .unknown)
        }
        let attributes = try? manager.attributesOfItem(atPath: path)
        if let type = attributes?[.type] as? FileAttributeType, type != .typeRegular {
            throw FormatError("not a regular file", file: path, position: .unknown)
        }
        if let size = (attributes?[.size] as? NSNumber)?.intValue, size > maxBytes {
            throw FormatError("the file is \(size / 1_048_576) MB, over the \(maxBytes / 1_048_576) MB input limit (raise it with --max-input-mb)",
                              file: path, position: .unknown)
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw FormatError("cannot open the file for reading (permissions?)", file: path, position: .unknown)
        }
        defer { try? handle.close() }
        do {
            let data = try handle.readToEnd() ?? Data()
            guard data.count <= maxBytes else {
                throw FormatError("the file is over the \(maxBytes / 1_048_576) MB input limit", file: path, position: .unknown)
            }
            return [UInt8](data)
        } catch let error as FormatError {
            throw error
        } catch {
            throw FormatError("cannot read the file: \(error.localizedDescription)", file: path, position: .unknown)
        }
    }
}
