import TallyModel

extension TallyMapping {
    /// Reads a mapping file. Strict: an unknown or repeated key, a path that cannot be parsed or
    /// a value map onto something Tally does not know is an error naming the line.
    public static func load(path: String) throws -> TallyMapping {
        try parse(bytes: SourceLoader.readBytes(path: path, maxBytes: 16 * 1024 * 1024), file: path)
    }

    /// Reads a mapping from bytes already in memory, as if they were the file `file`.
    public static func parse(bytes: [UInt8], file: String) throws -> TallyMapping {
        guard !bytes.isEmpty else { throw FormatError("the mapping file is empty (0 bytes)", file: file, position: .unknown) }
        var reader = TreeReader(root: try YAMLReader.tree(bytes: bytes, file: file), file: file)
        var parser = MappingParser()
        return try parser.parse(&reader)
    }
}

/// Reads the YAML of a `tally-mapping/1` file.
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

    mutating func parse(_ reader: inout TreeReader) throws -> TallyMapping {
        guard try reader.peekKind() == .object else {
            throw reader.error("a mapping file is a YAML mapping with format, products and fields; found \(try reader.peekKind().article)")
        }
        var keys = KeySet()
        var formatSeen = false
        var territory = Territory.usa
        var amounts = TallyMapping.AmountUnit.decimal
        try reader.forEachKey { reader, key in
            try keys.insert(key, reader: reader)
            let at = reader.position
            switch key {
            case "format":
                let value = try reader.readString()
                guard value == TallyMapping.formatName else {
                    throw reader.error("unsupported mapping format \"\(value)\": this Tally reads \(TallyMapping.formatName)", at: at)
                }
                formatSeen = true
            case "default_territory":
                let code = try reader.readString()
                guard let parsed = Territory(code) else {
                    throw reader.error("\"\(code)\" is not an App Store storefront code (three capital letters, like USA)", at: at)
                }
                territory = parsed
            case "amounts":
                let text = try reader.readString()
                guard let unit = TallyMapping.AmountUnit(rawValue: text) else {
                    throw reader.error("amounts is \"\(text)\"; expected decimal (4.99) or minor-units (499 cents)", at: at)
                }
                amounts = unit
            case "products":
                if try reader.peekKind() == .array {
                    try reader.forEachElement { reader, _ in try readSource(&reader) }
                } else {
                    try readSource(&reader)
                }
                if sources.isEmpty { throw reader.error("products lists no paths", at: at) }
            case "fields": fields = try readFields(&reader)
            case "values": try readValues(&reader)
            default:
                throw TallyCatalogReader.unknownKey(key, in: "the mapping", allowed: Self.topKeys, reader: reader)
            }
        }
        let top = Position(line: 1, column: 1)
        guard formatSeen else { throw FormatError("missing \"format: \(TallyMapping.formatName)\" in the mapping", file: reader.file, position: top) }
        guard !sources.isEmpty else {
            throw FormatError("the mapping has no products: say where the products are, e.g. 'products: {at: data.items[*]}'", file: reader.file, position: top)
        }
        guard let fields else {
            throw FormatError("the mapping has no fields: say at least where the product ID is, e.g. 'fields: {id: sku}'", file: reader.file, position: top)
        }
        return TallyMapping(file: reader.file, defaultTerritory: territory, amounts: amounts, productSources: sources,
                            fields: fields, values: values)
    }

    /// `products: data.items[*]`, or `{at: ..., kind: ...}`.
    private mutating func readSource(_ reader: inout TreeReader) throws {
        let at = reader.position
        if try reader.peekKind() != .object {
            sources.append(TallyMapping.ProductSource(at: try path(&reader, wildcards: true), position: at))
            return
        }
        var source: TallyMapping.ProductSource?
        var kind: ProductKind?
        var keys = KeySet()
        try reader.forEachKey { reader, key in
            try keys.insert(key, reader: reader)
            let position = reader.position
            switch key {
            case "at": source = TallyMapping.ProductSource(at: try path(&reader, wildcards: true), position: position)
            case "kind":
                let text = try reader.readString()
                guard let value = ProductKind(rawValue: text) else {
                    throw reader.error("unknown kind \"\(text)\" (expected \(Self.kinds))", at: position)
                }
                kind = value
            default:
                throw TallyCatalogReader.unknownKey(key, in: "a products entry", allowed: Self.sourceKeys, reader: reader)
            }
        }
        guard var source else { throw reader.error("this products entry has no 'at' path", at: at) }
        source.kind = kind
        sources.append(source)
    }

    private func readFields(_ reader: inout TreeReader) throws -> TallyMapping.Fields {
        let start = reader.position
        var id: DocumentPath?
        var result = TallyMapping.Fields(id: try DocumentPath("id"))
        var keys = KeySet()
        try reader.forEachKey { reader, key in
            try keys.insert(key, reader: reader)
            switch key {
            case "id": id = try path(&reader)
            case "kind": result.kind = try path(&reader)
            case "name": result.name = try path(&reader)
            case "family_shareable": result.familyShareable = try path(&reader)
            case "price": result.price = try path(&reader)
            case "prices": result.prices = try readPrices(&reader)
            case "period": result.period = try path(&reader)
            case "group": result.group = try path(&reader)
            case "level": result.level = try path(&reader)
            case "introductory_offer": result.introductoryOffer = try readOffer(&reader)
            default:
                throw TallyCatalogReader.unknownKey(key, in: "fields", allowed: Self.fieldKeys, reader: reader)
            }
        }
        guard let id else { throw reader.error("fields has no id: say where each product's ID is, e.g. 'id: sku'", at: start) }
        if result.price != nil, result.prices != nil {
            throw reader.error("fields has both price and prices: use price for one price in default_territory, prices for one per territory", at: start)
        }
        result.id = id
        return result
    }

    private func readPrices(_ reader: inout TreeReader) throws -> TallyMapping.PriceList {
        let start = reader.position
        if try reader.peekKind() != .object { return TallyMapping.PriceList(at: try path(&reader)) }
        var at: DocumentPath?
        var list = TallyMapping.PriceList(at: try DocumentPath("prices"))
        var keys = KeySet()
        try reader.forEachKey { reader, key in
            try keys.insert(key, reader: reader)
            switch key {
            case "at": at = try path(&reader)
            case "territory": list.territory = try path(&reader)
            case "amount": list.amount = try path(&reader)
            default: throw TallyCatalogReader.unknownKey(key, in: "prices", allowed: Self.priceKeys, reader: reader)
            }
        }
        guard let at else { throw reader.error("prices has no 'at': the path of the prices inside a product", at: start) }
        list.at = at
        return list
    }

    private func readOffer(_ reader: inout TreeReader) throws -> TallyMapping.OfferFields {
        let start = reader.position
        var at: DocumentPath?
        var type: DocumentPath?
        var period: DocumentPath?
        var count: DocumentPath?
        var price: DocumentPath?
        var keys = KeySet()
        try reader.forEachKey { reader, key in
            try keys.insert(key, reader: reader)
            switch key {
            case "at": at = try path(&reader)
            case "type": type = try path(&reader)
            case "period": period = try path(&reader)
            case "count": count = try path(&reader)
            case "price": price = try path(&reader)
            default: throw TallyCatalogReader.unknownKey(key, in: "introductory_offer", allowed: Self.offerKeys, reader: reader)
            }
        }
        guard let type, let period else {
            throw reader.error("introductory_offer needs at least type and period (paths inside the offer)", at: start)
        }
        return TallyMapping.OfferFields(at: at, type: type, period: period, count: count, price: price)
    }

    private mutating func readValues(_ reader: inout TreeReader) throws {
        var keys = KeySet()
        try reader.forEachKey { reader, key in
            try keys.insert(key, reader: reader)
            switch key {
            case "kind": values.kind = try table(&reader, expected: Self.kinds) { ProductKind(rawValue: $0) }
            case "period": values.period = try table(&reader, expected: "an ISO 8601 period like P1M") { Period(iso8601: $0) }
            case "offer_type":
                values.offerType = try table(&reader, expected: "free-trial, pay-as-you-go or pay-up-front") { OfferMode(rawValue: $0) }
            case "territory":
                values.territory = try table(&reader, expected: "an App Store storefront code like USA") { Territory($0) }
            default:
                throw TallyCatalogReader.unknownKey(key, in: "values", allowed: Self.valueKeys, reader: reader)
            }
        }
    }

    /// A map of the server's words to Tally's values; a target Tally does not know is an error at its line.
    private func table<Value>(_ reader: inout TreeReader, expected: String, _ convert: (String) -> Value?) throws -> [String: Value] {
        var result: [String: Value] = [:]
        var keys = KeySet()
        try reader.forEachKey { reader, key in
            try keys.insert(key, reader: reader)
            let at = reader.position
            let text = try reader.readString()
            guard let value = convert(text) else {
                throw reader.error("\"\(key)\" maps to \"\(text)\", which is not \(expected)", at: at)
            }
            result[key] = value
        }
        return result
    }

    /// A key path; wildcards only where products are found.
    private func path(_ reader: inout TreeReader, wildcards: Bool = false) throws -> DocumentPath {
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
