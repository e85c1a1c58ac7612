import TallyModel

extension TallyMapping {
    /// Reads a mapping file. Strict: an unknown or repeated key, a path that cannot be parsed or
    /// a value map onto something Tally does not know is an error naming the line.
    public static func load(path: String) throws -> TallyMapping {
        try parse(bytes: SourceLoader.readBytes(path: path, maxBytes: 16 << 20, whose: "a mapping file"), file: path)
    }

    /// Reads a mapping from bytes already in memory, as if they were the file `file`.
    public static func parse(bytes: [UInt8], file: String) throws -> TallyMapping {
        guard !bytes.isEmpty else { throw FormatError("the mapping file is empty (0 bytes)", file: file, position: .unknown) }
        var reader = TreeReader(root: try YAMLReader.tree(bytes: bytes, file: file), file: file)
        var parser = MappingParser()
        do {
            let mapping = try parser.parse(&reader)
            if let error = parser.log.combined() { throw error }
            return mapping
        } catch is FormatErrorLog.Stop {
            throw parser.log.combined(stoppedAtLimit: true) ?? FormatError("internal: stopped without errors", file: file, position: .unknown)
        } catch let error as FormatError where !parser.log.isEmpty {
            // The error may itself combine the collected ones: each is reported once.
            throw parser.log.combined(adding: error) ?? error
        }
    }
}

/// Reads the YAML of a `tally-mapping/1` file. Mistakes are collected (up to
/// `FormatError.limit`) so that one run shows every error of the file.
struct MappingParser {
    static let topKeys = ["format", "default_territory", "amounts", "products", "fields", "values"]
    static let sourceKeys = ["at", "kind"]
    static let fieldKeys = ["id", "kind", "name", "family_shareable", "price", "prices", "period", "group", "level", "introductory_offer"]
    static let priceKeys = ["at", "territory", "amount"]
    static let offerKeys = ["at", "type", "period", "count", "price"]
    static let valueKeys = ["kind", "period", "offer_type", "territory"]

    var sources: [TallyMapping.ProductSource] = []
    var fields: TallyMapping.Fields?
    var values = TallyMapping.Values()
    var log = FormatErrorLog()

    mutating func report(_ error: FormatError) throws {
        try log.report(error)
    }

    /// Reads one value; an error (a wrong type, a path that cannot be parsed) is reported and the value skipped (nil).
    mutating func attempt<T>(_ reader: inout TreeReader, _ read: (inout TreeReader) throws -> T) throws -> T? {
        do {
            return try read(&reader)
        } catch let error as FormatError {
            try report(error)
            if reader.isAtValue { try reader.skipValue() }
            return nil
        }
    }

    /// Reports a repeated key (skipping its value); true when the key is new.
    mutating func firstTime(_ key: String, in keys: inout KeySet, _ reader: inout TreeReader) throws -> Bool {
        try log.firstTime(key, in: &keys, &reader)
    }

    mutating func unknown(_ key: String, in place: String, allowed: [String], _ reader: inout TreeReader) throws {
        try report(TallyCatalogReader.unknownKey(key, in: place, allowed: allowed, reader: reader))
        try reader.skipValue()
    }

    /// Whether the next value is an object; if not, it is reported and skipped.
    mutating func expectObject(_ reader: inout TreeReader) throws -> Bool {
        let found = try reader.peekKind()
        guard found != .object else { return true }
        try report(reader.error("expected an object, found \(found.article)"))
        try reader.skipValue()
        return false
    }


    mutating func parse(_ reader: inout TreeReader) throws -> TallyMapping {
        guard try reader.peekKind() == .object else {
            throw reader.error("a mapping file is a YAML mapping with format, products and fields; found \(try reader.peekKind().article)")
        }
        var keys = KeySet()
        var formatSeen = false
        var territory = Territory.usa
        var amounts = TallyMapping.AmountUnit.decimal
        try reader.forEachKey { reader, key in
            guard try firstTime(key, in: &keys, &reader) else { return }
            let at = reader.position
            switch key {
            case "format":
                guard let value = try attempt(&reader, { try $0.readString() }) else { return }
                formatSeen = true
                guard value == TallyMapping.formatName else {
                    return try report(reader.error("unsupported mapping format \"\(value)\": this Tally reads \(TallyMapping.formatName)", at: at))
                }
            case "default_territory":
                guard let code = try attempt(&reader, { try $0.readString() }) else { return }
                guard let parsed = Territory(code) else {
                    return try report(reader.error("\"\(code)\" is not an App Store storefront code (three capital letters, like USA)", at: at))
                }
                territory = parsed
            case "amounts":
                guard let text = try attempt(&reader, { try $0.readString() }) else { return }
                guard let unit = TallyMapping.AmountUnit(rawValue: text) else {
                    return try report(reader.error("amounts is \"\(text)\"; expected decimal (4.99) or minor-units (499 cents)", at: at))
                }
                amounts = unit
            case "products":
                let before = sources.count
                if try reader.peekKind() == .array {
                    try reader.forEachElement { reader, _ in try readSource(&reader) }
                } else {
                    try readSource(&reader)
                }
                if sources.count == before { try report(reader.error("products lists no paths", at: at)) }
            case "fields": fields = try readFields(&reader)
            case "values": try readValues(&reader)
            default:
                try unknown(key, in: "the mapping", allowed: Self.topKeys, &reader)
            }
        }
        let top = Position(line: 1, column: 1)
        if !formatSeen { try report(FormatError("missing \"format: \(TallyMapping.formatName)\" in the mapping", file: reader.file, position: top)) }
        if sources.isEmpty, !keys.contains("products") {
            try report(FormatError("the mapping has no products: say where the products are, e.g. 'products: {at: data.items[*]}'", file: reader.file, position: top))
        }
        guard let fields else {
            if !keys.contains("fields") {
                try report(FormatError("the mapping has no fields: say at least where the product ID is, e.g. 'fields: {id: sku}'", file: reader.file, position: top))
            }
            throw log.combined() ?? FormatError("the mapping's fields could not be read", file: reader.file, position: top)
        }
        return TallyMapping(file: reader.file, defaultTerritory: territory, amounts: amounts, productSources: sources,
                            fields: fields, values: values)
    }

    /// `products: data.items[*]`, or `{at: ..., kind: ...}`.
    private mutating func readSource(_ reader: inout TreeReader) throws {
        let at = reader.position
        if try reader.peekKind() != .object {
            if let path = try attempt(&reader, { try Self.path(&$0, wildcards: true) }) {
                sources.append(TallyMapping.ProductSource(at: path, position: at))
            }
            return
        }
        var source: TallyMapping.ProductSource?
        var kind: ProductKind?
        var keys = KeySet()
        var failed = false
        try reader.forEachKey { reader, key in
            guard try firstTime(key, in: &keys, &reader) else { return }
            let position = reader.position
            switch key {
            case "at":
                guard let path = try attempt(&reader, { try Self.path(&$0, wildcards: true) }) else { failed = true; return }
                source = TallyMapping.ProductSource(at: path, position: position)
            case "kind":
                guard let text = try attempt(&reader, { try $0.readString() }) else { return }
                guard let value = ProductKind(rawValue: text) else {
                    return try report(reader.error("unknown kind \"\(text)\" (expected \(Self.kinds))", at: position))
                }
                kind = value
            default:
                try unknown(key, in: "a products entry", allowed: Self.sourceKeys, &reader)
            }
        }
        guard var source else {
            if !failed { try report(reader.error("this products entry has no 'at' path", at: at)) }
            return
        }
        source.kind = kind
        sources.append(source)
    }

    /// A field's path; nil (reported) when it cannot be read.
    private mutating func fieldPath(_ reader: inout TreeReader) throws -> DocumentPath? {
        try attempt(&reader) { try Self.path(&$0) }
    }

    private mutating func readFields(_ reader: inout TreeReader) throws -> TallyMapping.Fields? {
        let start = reader.position
        guard try expectObject(&reader) else { return nil }
        var id: DocumentPath?
        var idFailed = false
        var result = TallyMapping.Fields(id: try DocumentPath("id"))
        var keys = KeySet()
        try reader.forEachKey { reader, key in
            guard try firstTime(key, in: &keys, &reader) else { return }
            switch key {
            case "id":
                id = try fieldPath(&reader)
                idFailed = id == nil
            case "kind": result.kind = try fieldPath(&reader)
            case "name": result.name = try fieldPath(&reader)
            case "family_shareable": result.familyShareable = try fieldPath(&reader)
            case "price": result.price = try fieldPath(&reader)
            case "prices": result.prices = try readPrices(&reader)
            case "period": result.period = try fieldPath(&reader)
            case "group": result.group = try fieldPath(&reader)
            case "level": result.level = try fieldPath(&reader)
            case "introductory_offer": result.introductoryOffer = try readOffer(&reader)
            default:
                try unknown(key, in: "fields", allowed: Self.fieldKeys, &reader)
            }
        }
        guard let id else {
            if !idFailed { try report(reader.error("fields has no id: say where each product's ID is, e.g. 'id: sku'", at: start)) }
            return nil
        }
        if result.price != nil, result.prices != nil {
            try report(reader.error("fields has both price and prices: use price for one price in default_territory, prices for one per territory", at: start))
            return nil
        }
        result.id = id
        return result
    }

    private mutating func readPrices(_ reader: inout TreeReader) throws -> TallyMapping.PriceList? {
        let start = reader.position
        if try reader.peekKind() != .object { return try fieldPath(&reader).map { TallyMapping.PriceList(at: $0) } }
        var at: DocumentPath?
        var list = TallyMapping.PriceList(at: try DocumentPath("prices"))
        var keys = KeySet()
        try reader.forEachKey { reader, key in
            guard try firstTime(key, in: &keys, &reader) else { return }
            switch key {
            case "at": at = try fieldPath(&reader)
            case "territory": list.territory = try fieldPath(&reader)
            case "amount": list.amount = try fieldPath(&reader)
            default: try unknown(key, in: "prices", allowed: Self.priceKeys, &reader)
            }
        }
        guard let at else {
            if !keys.contains("at") { try report(reader.error("prices has no 'at': the path of the prices inside a product", at: start)) }
            return nil
        }
        list.at = at
        return list
    }

    private mutating func readOffer(_ reader: inout TreeReader) throws -> TallyMapping.OfferFields? {
        let start = reader.position
        guard try expectObject(&reader) else { return nil }
        var at: DocumentPath?
        var type: DocumentPath?
        var period: DocumentPath?
        var count: DocumentPath?
        var price: DocumentPath?
        var keys = KeySet()
        try reader.forEachKey { reader, key in
            guard try firstTime(key, in: &keys, &reader) else { return }
            switch key {
            case "at": at = try fieldPath(&reader)
            case "type": type = try fieldPath(&reader)
            case "period": period = try fieldPath(&reader)
            case "count": count = try fieldPath(&reader)
            case "price": price = try fieldPath(&reader)
            default: try unknown(key, in: "introductory_offer", allowed: Self.offerKeys, &reader)
            }
        }
        guard let type, let period else {
            if !keys.contains("type") || !keys.contains("period") {
                try report(reader.error("introductory_offer needs at least type and period (paths inside the offer)", at: start))
            }
            return nil
        }
        return TallyMapping.OfferFields(at: at, type: type, period: period, count: count, price: price)
    }

    private mutating func readValues(_ reader: inout TreeReader) throws {
        guard try expectObject(&reader) else { return }
        var keys = KeySet()
        try reader.forEachKey { reader, key in
            guard try firstTime(key, in: &keys, &reader) else { return }
            switch key {
            case "kind": values.kind = try table(&reader, expected: Self.kinds) { ProductKind(rawValue: $0) }
            case "period": values.period = try table(&reader, expected: "an ISO 8601 period like P1M") { Period(iso8601: $0) }
            case "offer_type":
                values.offerType = try table(&reader, expected: "free-trial, pay-as-you-go or pay-up-front") { OfferMode(rawValue: $0) }
            case "territory":
                values.territory = try table(&reader, expected: "an App Store storefront code like USA") { Territory($0) }
            default:
                try unknown(key, in: "values", allowed: Self.valueKeys, &reader)
            }
        }
    }

    /// A map of the server's words to Tally's values; a target Tally does not know is an error at its line.
    private mutating func table<Value>(_ reader: inout TreeReader, expected: String, _ convert: (String) -> Value?) throws -> [String: Value] {
        var result: [String: Value] = [:]
        guard try expectObject(&reader) else { return result }
        var keys = KeySet()
        try reader.forEachKey { reader, key in
            guard try firstTime(key, in: &keys, &reader) else { return }
            let at = reader.position
            guard let text = try attempt(&reader, { try $0.readString() }) else { return }
            guard let value = convert(text) else {
                return try report(reader.error("\"\(key)\" maps to \"\(text)\", which is not \(expected)", at: at))
            }
            result[key] = value
        }
        return result
    }

    /// A key path; wildcards only where products are found.
    private static func path(_ reader: inout TreeReader, wildcards: Bool = false) throws -> DocumentPath {
        let at = reader.position
        let text = try reader.readString()
        let path: DocumentPath
        do {
            path = try DocumentPath(text)
        } catch {
            throw reader.error(error.message, at: at)
        }
        if path.hasWildcard, !wildcards {
            throw reader.error("\"\(text)\": wildcards ([*] and *) are for products paths; a field's path leads to one value", at: at)
        }
        return path
    }

    static let kinds = ProductKind.allCases.map(\.rawValue).joined(separator: ", ")
}
