import TallyModel

/// Reads Tally's own server catalogue format, `tally-catalog/1`, from JSON or YAML.
/// The format is strict: an unknown or repeated key is an error naming the key and its line,
/// so that a typo (`perod:`) is never silently ignored. See docs/catalog-format.md.
public enum TallyCatalogReader {
    public static let formatName = "tally-catalog/1"

    public static func readJSON(bytes: [UInt8], file: String, options: ReadOptions = ReadOptions()) throws -> Catalog {
        var reader = try JSONReader(bytes: bytes, file: file, maxDepth: options.maxDepth)
        let catalog = try decode(&reader, format: .tallyCatalogJSON)
        try reader.finish()
        return catalog
    }

    public static func readYAML(bytes: [UInt8], file: String, options: ReadOptions = ReadOptions()) throws -> Catalog {
        if bytes.count >= 2, (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF) {
            throw FormatError("the file is UTF-16 encoded; save it as UTF-8", file: file, position: Position(line: 1, column: 1))
        }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw FormatError("the file is not valid UTF-8", file: file, position: Position(line: 1, column: 1))
        }
        var reader = try YAMLReader(bytes: bytes, file: file, maxDepth: options.maxDepth)
        let catalog = try decode(&reader, format: .tallyCatalogYAML)
        try reader.finish()
        return catalog
    }

    /// Decodes from a reader the caller made (tests use it to drive small stream windows).
    public static func decodeForTesting(_ reader: inout JSONReader) throws -> Catalog {
        let catalog = try decode(&reader, format: .tallyCatalogJSON)
        try reader.finish()
        return catalog
    }

    static func decode<R: DocumentReader>(_ reader: inout R, format: SourceFormat) throws -> Catalog {
        var decoder = CatalogDecoder(file: reader.file)
        guard try reader.peekKind() == .object else {
            throw reader.error("a tally-catalog/1 file is an object with format, products and subscription_groups; found \(try reader.peekKind().article)")
        }
        var keys = KeySet()
        var formatSeen = false
        var catalogueKeySeen = false
        var unknown: [FormatError] = []
        var unknownKeys: [String] = []
        do {
            try reader.forEachKey { reader, key in
                guard try decoder.firstTime(key, in: &keys, &reader) else { return }
                switch key {
                case "format":
                    let at = reader.position
                    guard let value = try decoder.attempt(&reader, { try $0.readString() }) else { return }
                    formatSeen = true
                    guard value == formatName else {
                        return try decoder.report(reader.error("unsupported format \"\(value)\": this Tally reads \(formatName)", at: at))
                    }
                case "default_territory":
                    decoder.defaultTerritory = try decoder.readTerritory(&reader) ?? decoder.defaultTerritory
                case "known_fields":
                    try decoder.readKnownFields(&reader)
                case "products":
                    guard try decoder.expect(.array, &reader) else { return }
                    try reader.forEachElement { reader, _ in try decoder.readProduct(&reader, group: nil) }
                case "subscription_groups":
                    guard try decoder.expect(.array, &reader) else { return }
                    try reader.forEachElement { reader, _ in try decoder.readGroup(&reader) }
                default:
                    // Until the file says it is a catalogue, an unknown key may only mean it is
                    // some other JSON or YAML (a schema, a server's own file): held back, below.
                    guard formatSeen else {
                        unknown.append(TallyCatalogReader.unknownKey(key, in: "the catalogue", allowed: CatalogDecoder.topKeys, reader: reader))
                        unknownKeys.append(key)
                        return try reader.skipValue()
                    }
                    try decoder.unknown(key, in: "the catalogue", allowed: CatalogDecoder.topKeys, &reader)
                }
                if key != "format" && CatalogDecoder.topKeys.contains(key) { catalogueKeySeen = true }
            }
            if formatSeen || catalogueKeySeen {
                for error in unknown { try decoder.report(error) }
            }
            if !formatSeen {
                // Said in the file's own syntax: `"format": "tally-catalog/1"` in JSON. A file
                // with no catalogue key at all gets this one error, naming what it holds instead.
                let line = format == .tallyCatalogJSON ? #""format": "\#(formatName)""# : "\"format: \(formatName)\""
                let holds = formatSeen || catalogueKeySeen || unknown.isEmpty ? ""
                    : "; it holds " + unknownKeys.prefix(5).map { "\"\(Elision.value($0, limit: 40))\"" }.joined(separator: ", ")
                        + (unknownKeys.count > 5 ? " and \(unknownKeys.count - 5) more keys" : "") + ", none of a catalogue's keys"
                try decoder.report(FormatError("missing \(line) at the top of the catalogue" + holds + mappingHint,
                                               file: reader.file, position: Position(line: 1, column: 1)).with(.useMapping))
            }
            try decoder.checkKinds()
        } catch is FormatErrorLog.Stop {
            throw decoder.log.combined(stoppedAtLimit: true) ?? FormatError("internal: stopped without errors", file: reader.file, position: .unknown)
        } catch let error as FormatError {
            // The document cannot be parsed past this point: report what was found before it.
            throw decoder.log.combined(adding: error) ?? error
        }
        if let error = decoder.log.combined() { throw error }
        return decoder.catalog(format: format)
    }

    /// For a file that does not declare tally-catalog/1: it may be a server's own file. Said once,
    /// on the missing `format`; the error's remedy (`.useMapping`) says how, in the caller's words.
    static let mappingHint = "; a server's own file is read through a mapping"

    static func unknownKey<R: DocumentReader>(_ key: String, in place: String, allowed: [String], reader: R) -> FormatError {
        var message = "unknown key \"\(key)\" in \(place)"
        if let near = NearMatch.best(for: key, among: allowed) { message += "; did you mean \"\(near)\"?" }
        message += " (allowed: \(allowed.joined(separator: ", ")))"
        return reader.error(message, at: reader.keyPosition)
    }
}

/// `tally-catalog/1` as JSON.
public enum TallyCatalogJSONReader: SourceReader {
    public static let format = SourceFormat.tallyCatalogJSON
    public static let extensions = ["json"]
    public static let fuzzTargets = [FuzzTarget("catalog-json", file: "catalog.json")]
    public static func sniff(_ head: String, file: String) -> Bool { head.contains("tally-catalog/") && head.first { !$0.isWhitespace } == "{" }
    public static func read(bytes: [UInt8], file: String, options: ReadOptions) throws -> Catalog {
        try TallyCatalogReader.readJSON(bytes: bytes, file: file, options: options)
    }

    /// Streams the file: a 70 MB catalogue never sits in memory whole.
    public static func read(path: String, options: ReadOptions) throws -> Catalog {
        var reader = try JSONReader(path: path, maxDepth: options.maxDepth)
        let catalog = try TallyCatalogReader.decode(&reader, format: .tallyCatalogJSON)
        try reader.finish()
        return catalog
    }
}

/// `tally-catalog/1` as YAML.
public enum TallyCatalogYAMLReader: SourceReader {
    public static let format = SourceFormat.tallyCatalogYAML
    public static let extensions = ["yaml", "yml"]
    public static let fuzzTargets = [FuzzTarget("catalog-yaml", file: "catalog.yaml")]
    /// `format: tally-catalog/1` in any spelling YAML allows: plain, double- or single-quoted
    /// (key or value), with any spaces before the colon's value, in block or flow style.
    public static func sniff(_ head: String, file: String) -> Bool {
        head.contains(formatKey)
    }

    nonisolated(unsafe) private static let formatKey =
        #/(?m)(^|[{,])[ \t]*(format|"format"|'format')[ \t]*:[ \t]*["']?tally-catalog\//#

    public static func read(bytes: [UInt8], file: String, options: ReadOptions) throws -> Catalog {
        try TallyCatalogReader.readYAML(bytes: bytes, file: file, options: options)
    }
}

/// Tracks the keys seen in one object to refuse duplicates.
struct KeySet {
    private var seen: [String] = []

    func contains(_ key: String) -> Bool { seen.contains(key) }

    mutating func add(_ key: String) { seen.append(key) }

    mutating func insert<R: DocumentReader>(_ key: String, reader: R) throws {
        if seen.contains(key) { throw reader.error("the key \"\(key)\" appears twice in the same object") }
        seen.append(key)
    }
}
