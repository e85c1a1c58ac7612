import Foundation
import TallyModel

/// `price-points.json` in an App Store Connect snapshot: the price points `tally fetch
/// app-store-connect` read for each product in the territories it prices, as Apple gave them
/// (`customerPrice`, `proceeds`, and `proceedsYear2` for subscriptions), with the time they were
/// read. Identical lists (one territory's points, shared by many products) are written once and
/// named by their index:
///
/// ```json
/// {
///   "format": "tally-price-points/1",
///   "readAt": "2026-11-20T09:30:00Z",
///   "lists": [
///     {"territory": "DEU", "currency": "EUR", "type": "inAppPurchasePricePoints", "points": [
///       {"customerPrice": "0.29", "proceeds": "0.2"},
///       ...
///     ]}
///   ],
///   "products": [
///     {"type": "inAppPurchases", "id": "6444000001", "territories": {"DEU": 0}, "notFetched": ["AFG"]}
///   ]
/// }
/// ```
public struct PricePointsFile: Sendable, Hashable {
    public static let name = "price-points.json"
    public static let format = "tally-price-points/1"

    /// One price point as Apple gave it: the attributes' text, unchanged.
    public struct Point: Sendable, Hashable {
        public var customerPrice: String
        public var proceeds: String?
        public var proceedsYear2: String?

        public init(customerPrice: String, proceeds: String? = nil, proceedsYear2: String? = nil) {
            self.customerPrice = customerPrice
            self.proceeds = proceeds
            self.proceedsYear2 = proceedsYear2
        }
    }

    /// One territory's points (of one product, or of many with the same points).
    public struct List: Sendable, Hashable {
        public var territory: Territory
        public var currency: String?
        /// `inAppPurchasePricePoints` or `subscriptionPricePoints`.
        public var type: String
        public var points: [Point]
        /// Where the list is written (when read from a file).
        public var position: Position = .unknown

        public init(territory: Territory, currency: String?, type: String, points: [Point]) {
            self.territory = territory
            self.currency = currency
            self.type = type
            self.points = points
        }

        public static func == (lhs: List, rhs: List) -> Bool {
            lhs.territory == rhs.territory && lhs.currency == rhs.currency && lhs.type == rhs.type && lhs.points == rhs.points
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(territory)
            hasher.combine(currency)
            hasher.combine(type)
            hasher.combine(points)
        }
    }

    /// A product's lists by territory, and the territories it is priced in whose points were not fetched.
    public struct Product: Sendable, Hashable {
        /// `inAppPurchases` or `subscriptions`: the resource type in the snapshot's pages.
        public var type: String
        /// The resource's ID (Apple's, not the product ID).
        public var id: String
        public var territories: [(Territory, Int)]
        public var notFetched: [Territory]

        public init(type: String, id: String, territories: [(Territory, Int)] = [], notFetched: [Territory] = []) {
            self.type = type
            self.id = id
            self.territories = territories
            self.notFetched = notFetched
        }

        public static func == (lhs: Product, rhs: Product) -> Bool {
            lhs.type == rhs.type && lhs.id == rhs.id && lhs.notFetched == rhs.notFetched
                && lhs.territories.map(\.0) == rhs.territories.map(\.0) && lhs.territories.map(\.1) == rhs.territories.map(\.1)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(type)
            hasher.combine(id)
            hasher.combine(territories.map(\.0))
            hasher.combine(territories.map(\.1))
            hasher.combine(notFetched)
        }
    }

    /// ISO 8601, UTC: when the points were read.
    public var readAt: String
    public var lists: [List] = []
    public var products: [Product] = []

    public init(readAt: String) {
        self.readAt = readAt
    }

    /// Adds a product's points in one territory, sharing an identical list already held.
    public mutating func add(_ list: List, type: String, id: String) {
        let index: Int
        if let found = lists.firstIndex(of: list) {
            index = found
        } else {
            lists.append(list)
            index = lists.count - 1
        }
        product(type: type, id: id) { $0.territories.append((list.territory, index)) }
    }

    /// Records territories a product is priced in whose points were not fetched.
    public mutating func skip(_ territories: [Territory], type: String, id: String) {
        guard !territories.isEmpty else { return }
        product(type: type, id: id) { $0.notFetched += territories }
    }

    private mutating func product(type: String, id: String, _ change: (inout Product) -> Void) {
        if let found = products.firstIndex(where: { $0.type == type && $0.id == id }) {
            change(&products[found])
        } else {
            var product = Product(type: type, id: id)
            change(&product)
            products.append(product)
        }
    }

    /// The points in a product's territory, by its resource.
    func list(type: String, id: String, territory: Territory) -> List? {
        guard let product = products.first(where: { $0.type == type && $0.id == id }),
              let index = product.territories.first(where: { $0.0 == territory })?.1, lists.indices.contains(index) else { return nil }
        return lists[index]
    }
}

// MARK: - Writing

extension PricePointsFile {
    /// The file's bytes: one point per line, so that a diff of two snapshots shows points that changed.
    public func encoded() -> Data {
        var text = "{\n  \"format\": \(Self.quoted(Self.format)),\n  \"readAt\": \(Self.quoted(readAt)),\n  \"lists\": ["
        for (index, list) in lists.enumerated() {
            text += index == 0 ? "\n" : ",\n"
            text += "    {\"territory\": \(Self.quoted(list.territory.code)), "
            if let currency = list.currency { text += "\"currency\": \(Self.quoted(currency)), " }
            text += "\"type\": \(Self.quoted(list.type)), \"points\": ["
            for (number, point) in list.points.enumerated() {
                text += number == 0 ? "\n" : ",\n"
                text += "      {\"customerPrice\": \(Self.quoted(point.customerPrice))"
                if let proceeds = point.proceeds { text += ", \"proceeds\": \(Self.quoted(proceeds))" }
                if let year2 = point.proceedsYear2 { text += ", \"proceedsYear2\": \(Self.quoted(year2))" }
                text += "}"
            }
            text += list.points.isEmpty ? "]}" : "\n    ]}"
        }
        text += lists.isEmpty ? "],\n  \"products\": [" : "\n  ],\n  \"products\": ["
        for (index, product) in products.enumerated() {
            text += index == 0 ? "\n" : ",\n"
            let territories = product.territories.map { "\(Self.quoted($0.0.code)): \($0.1)" }.joined(separator: ", ")
            text += "    {\"type\": \(Self.quoted(product.type)), \"id\": \(Self.quoted(product.id)), \"territories\": {\(territories)}"
            if !product.notFetched.isEmpty {
                text += ", \"notFetched\": [\(product.notFetched.map { Self.quoted($0.code) }.joined(separator: ", "))]"
            }
            text += "}"
        }
        text += products.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
        return Data(text.utf8)
    }

    private static func quoted(_ text: String) -> String {
        var sink = ByteSink()
        sink.appendJSONString(text)
        return String(decoding: sink.bytes, as: UTF8.self)
    }
}

// MARK: - Reading

extension PricePointsFile {
    /// Reads the file, every error located at its line and column.
    public static func read(bytes: [UInt8], file: String, maxDepth: Int = 256) throws -> PricePointsFile {
        var reader = try JSONReader(bytes: bytes, file: file, maxDepth: maxDepth)
        guard try reader.peekKind() == .object else {
            throw reader.error("a price points file (\(format)) is a JSON object; found \(try reader.peekKind().article)")
        }
        var result = PricePointsFile(readAt: "")
        var sawFormat = false
        var productRefs: [(index: Int, position: Position, path: String)] = []
        try reader.forEachKey { reader, key in
            switch key {
            case "format":
                let at = reader.position
                let value = try reader.readString()
                guard value == format else {
                    throw reader.error("\"format\" is \"\(value)\"; this version of Tally reads \"\(format)\" (fetch the snapshot again)", at: at)
                }
                sawFormat = true
            case "readAt":
                let at = reader.position
                let value = try reader.readString()
                guard DayText.isValid(String(value.prefix(10))) else {
                    throw reader.error("\"readAt\" must be an ISO 8601 time such as 2026-11-20T09:30:00Z, not \"\(value)\"", at: at)
                }
                result.readAt = value
            case "lists":
                try reader.forEachElement { reader, _ in result.lists.append(try readList(&reader)) }
            case "products":
                try reader.forEachElement { reader, _ in
                    result.products.append(try readProduct(&reader) { index, position, path in productRefs.append((index, position, path)) })
                }
            default:
                try reader.skipValue()
            }
        }
        try reader.finish()
        guard sawFormat else {
            throw FormatError("not a price points file: no \"format\": \"\(format)\"", file: file, position: Position(line: 1, column: 1))
        }
        guard !result.readAt.isEmpty else {
            throw FormatError("the price points file does not say when the points were read (\"readAt\")", file: file,
                              position: Position(line: 1, column: 1))
        }
        for ref in productRefs where !result.lists.indices.contains(ref.index) {
            let held = result.lists.isEmpty ? "no lists" : result.lists.count == 1 ? "1 list (0)" : "\(result.lists.count) lists (0 to \(result.lists.count - 1))"
            throw FormatError("list \(ref.index) does not exist: the file has \(held)", file: file, position: ref.position, path: ref.path)
        }
        return result
    }

    private static func readList(_ reader: inout JSONReader) throws -> List {
        let start = reader.position
        var territory: Territory?
        var currency: String?
        var type: String?
        var points: [Point]?
        try reader.forEachKey { reader, key in
            switch key {
            case "territory":
                let at = reader.position
                let code = try reader.readString()
                guard let found = Territory(code) else { throw reader.error("\"\(code)\" is not a territory (three capital letters, such as DEU)", at: at) }
                territory = found
            case "currency": currency = try reader.readOptionalString()
            case "type": type = try reader.readString()
            case "points":
                var found: [Point] = []
                try reader.forEachElement { reader, _ in found.append(try readPoint(&reader)) }
                points = found
            default: try reader.skipValue()
            }
        }
        guard let territory, let points else {
            throw reader.error("a list needs a \"territory\" and its \"points\"", at: start)
        }
        var list = List(territory: territory, currency: currency, type: type ?? "", points: points)
        list.position = start
        return list
    }

    private static func readPoint(_ reader: inout JSONReader) throws -> Point {
        let start = reader.position
        var point = Point(customerPrice: "")
        try reader.forEachKey { reader, key in
            let at = reader.position
            switch key {
            case "customerPrice":
                guard try reader.peekKind() == .string else {
                    throw reader.error("\"customerPrice\" must be an amount in a string, such as \"4.99\"; found \(try reader.peekKind().article)", at: at)
                }
                let text = try reader.readString()
                guard let amount = DecimalText.parse(text), amount >= 0 else {
                    throw reader.error("\"customerPrice\" must be an amount such as \"4.99\", not \"\(text)\"", at: at)
                }
                point.customerPrice = text
            case "proceeds": point.proceeds = try reader.readOptionalString()
            case "proceedsYear2": point.proceedsYear2 = try reader.readOptionalString()
            default: try reader.skipValue()
            }
        }
        guard !point.customerPrice.isEmpty else { throw reader.error("a price point needs a \"customerPrice\"", at: start) }
        return point
    }

    private static func readProduct(_ reader: inout JSONReader, reference: (Int, Position, String) -> Void) throws -> Product {
        let start = reader.position
        var product = Product(type: "", id: "")
        try reader.forEachKey { reader, key in
            switch key {
            case "type": product.type = try reader.readString()
            case "id": product.id = try reader.readString()
            case "territories":
                try reader.forEachKey { reader, code in
                    let at = reader.keyPosition
                    guard let territory = Territory(code) else { throw reader.error("\"\(code)\" is not a territory (three capital letters, such as DEU)", at: at) }
                    let valueAt = reader.position
                    let index = try reader.readInt()
                    reference(index, valueAt, reader.path)
                    product.territories.append((territory, index))
                }
            case "notFetched":
                try reader.forEachElement { reader, _ in
                    let at = reader.position
                    let code = try reader.readString()
                    guard let territory = Territory(code) else { throw reader.error("\"\(code)\" is not a territory (three capital letters, such as DEU)", at: at) }
                    product.notFetched.append(territory)
                }
            default: try reader.skipValue()
            }
        }
        guard !product.type.isEmpty, !product.id.isEmpty else {
            throw reader.error("a product needs its \"type\" (inAppPurchases or subscriptions) and \"id\"", at: start)
        }
        return product
    }
}

// MARK: - Into the model

extension PricePointsFile {
    /// The points by product ID: each product resource of the snapshot's pages named by its
    /// `productId`. Products the pages do not hold are left out (nothing to check them against).
    func pricePoints(file: String, store: ResourceStore, today: String) -> PricePoints {
        var byProduct: [String: [Territory: PricePointList]] = [:]
        var notFetched: [String: [Territory]] = [:]
        let models = lists.map { list in
            PricePointList(currency: list.currency, prices: list.points.compactMap { DecimalText.parse($0.customerPrice) }, position: list.position)
        }
        for product in products {
            guard let id = store[ResourceKey(type: product.type, id: product.id)]?[attribute: "productId"]?.string else { continue }
            for (territory, index) in product.territories where models.indices.contains(index) {
                byProduct[id, default: [:]][territory] = models[index]
            }
            if !product.notFetched.isEmpty { notFetched[id, default: []] += product.notFetched }
        }
        return PricePoints(readAt: readAt, ageInDays: DayText.days(from: String(readAt.prefix(10)), to: today), file: file,
                           products: byProduct, notFetched: notFetched)
    }
}
