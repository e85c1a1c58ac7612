import TallyModel

/// Reads any server JSON, YAML or property list through a `tally-mapping/1` file (`--mapping`).
/// Values are located by the server file's own lines and columns (key paths for property lists).
public enum MappedReader: SourceReader {
    public static let format = SourceFormat.mapped
    public static let extensions = ["json", "yaml", "yml"]
    public static let fuzzTargets = [FuzzTarget("mapped", file: "products.json")]

    /// Never claimed from content alone: a mapped source is read only with a mapping.
    public static func sniff(_ head: String, file: String) -> Bool { false }

    /// Whether, with a mapping given, this file is read through it: every JSON or YAML file that is
    /// not `tally-catalog/1` (StoreKit configurations are named `.storekit`).
    public static func claims(bytes: [UInt8], file: String) -> Bool {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        let ext = name.contains(".") ? String(name.split(separator: ".").last ?? "").lowercased() : ""
        guard extensions.contains(ext) else { return false }
        let head = String(decoding: bytes.prefix(4096), as: UTF8.self)
        return !TallyCatalogJSONReader.sniff(head, file: file) && !TallyCatalogYAMLReader.sniff(head, file: file)
    }

    public static func read(bytes: [UInt8], file: String, options: ReadOptions) throws -> Catalog {
        guard let mapping = options.mapping else {
            throw FormatError("reading a server file as the mapped format needs a tally-mapping/1 file",
                              file: file, position: .unknown).with(.useMapping)
        }
        var applier = MappingApplier(mapping: mapping, file: file)
        return try applier.catalog(from: document(bytes: bytes, file: file, options: options))
    }

    /// The server file as a tree with positions: JSON and YAML through Tally's streaming readers,
    /// property lists through Foundation.
    static func document(bytes: [UInt8], file: String, options: ReadOptions) throws -> DocNode {
        if PropertyListDocument.looksLikePropertyList(bytes) {
            return try PropertyListDocument.parse(bytes: bytes, file: file)
        }
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            var reader = try JSONReader(bytes: bytes, file: file, maxDepth: options.maxDepth)
            let root = try DocNode.read(from: &reader)
            try reader.finish()
            return root
        }
        return try YAMLReader.tree(bytes: bytes, file: file, maxDepth: options.maxDepth)
    }
}
