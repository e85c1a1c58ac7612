import Foundation
import TallyModel

/// Merges the rows of a CSV catalogue into products as they are read: one product per
/// `product_id`, prices per territory, every other value the same in all of a product's rows.
///
/// Rows of one product usually follow each other; the product being read is kept open (its
/// territories in a table, to find a territory priced twice) and closed when another product's
/// row comes. A product whose rows are scattered over the file is reopened: its table is rebuilt
/// once from its prices and kept from then on. Prices become `Price`s at once, so a product's
/// draft holds no text per row.
struct CSVProductMerger {
    let file: String
    let columns: CSVColumns
    /// `;`-separated files may write `1,99` for 1.99.
    let decimalComma: Bool
    private var order: [String] = []
    private var drafts: [String: Draft] = [:]
    private var openID = ""
    private var openBytes: [UInt8] = []
    private var open: Draft?
    private var issues: [SourceIssue] = []
    private let decimals = CSVDecimals()
    /// Records that span lines (a line break inside quotes), to find a row number from a line.
    private var spans: [(line: Int, lastLine: Int, row: Int)] = []
    /// How many prices the product read last had.
    private var lastPriceCount = 0

    /// Columns whose value belongs to the product, not to a territory.
    static let productColumns = ["kind", "group", "level", "period", "intro_type", "intro_period", "intro_count"]
    private static let kindSlot = 0, groupSlot = 1, levelSlot = 2, periodSlot = 3, introTypeSlot = 4, introPeriodSlot = 5, introCountSlot = 6

    init(file: String, columns: CSVColumns, decimalComma: Bool) {
        self.file = file
        self.columns = columns
        self.decimalComma = decimalComma
    }

    /// One cell: its text and where it is.
    struct Cell {
        var text: String
        var row: Int
        var position: Position
    }

    private struct Draft {
        var idPosition: Position
        /// `productColumns`' values, by slot.
        var values: [Cell?] = Array(repeating: nil, count: CSVProductMerger.productColumns.count)
        /// The row of each territory, while the product is open (or always, once it was reopened).
        var territories: [Territory: Int] = [:]
        var reopened = false
        var prices: [Price] = []
        /// Prices that are not decimal numbers, as lint issues in row order.
        var priceIssues: [SourceIssue] = []
        /// Territories of the rows that added no price (for rebuilding `territories`).
        var unpriced: [(territory: Territory, row: Int)] = []
        var introPrices: [(territory: Territory, cell: Cell)] = []

        init(idPosition: Position) { self.idPosition = idPosition }
    }

    mutating func add(_ row: CSVRecord) throws {
        try columns.checkUnnamed(row)
        if row.lastLine > row.line { spans.append((row.line, row.lastLine, row.number)) }
        let same = open != nil && row.withTrimmedBytes(columns.productID) { bytes in
            openBytes.withUnsafeBufferPointer { Self.equal($0, bytes) }
        }
        if !same { try switchProduct(row) }
        guard var draft = open else { return }
        open = nil  // taken out while it changes, so that its arrays grow in place
        defer { open = draft }
        let id = openID
        for (slot, column) in columns.productColumns {
            try row.withTrimmedBytes(column) { bytes in
                guard !bytes.isEmpty else { return }
                if let earlier = draft.values[slot] {
                    guard earlier.text.utf8.withContiguousStorageIfAvailable({ Self.equal($0, bytes) }) ?? earlier.text.utf8.elementsEqual(bytes) else {
                        let name = Self.productColumns[slot]
                        throw error(row, column, name, "\(id) has \(name) \"\(earlier.text)\" in row \(earlier.row) but \"\(String(decoding: bytes, as: UTF8.self))\" in row \(row.number); "
                                    + "the rows of one product may differ only in territory and prices")
                    }
                } else {
                    draft.values[slot] = Cell(text: String(decoding: bytes, as: UTF8.self), row: row.number, position: row.position(column))
                }
            }
        }
        var territory = Territory.usa
        if let column = columns.territory {
            territory = try row.withTrimmedBytes(column) { bytes in
                if bytes.isEmpty { return .usa }
                if bytes.count == 3, let parsed = Territory(bytes: bytes[0], bytes[1], bytes[2]) { return parsed }
                throw error(row, column, "territory", Territory.notAStorefront(String(decoding: bytes, as: UTF8.self)))
            }
        }
        if let earlier = draft.territories.updateValue(row.number, forKey: territory) {
            throw error(row, columns.territory ?? 0, "territory", "\(id) has two rows for \(territory): rows \(earlier) and \(row.number)")
        }
        var priced = false
        if let column = columns.price {
            row.withTrimmedBytes(column) { bytes in
                guard !bytes.isEmpty else { return }
                if let amount = decimals.parse(bytes, decimalComma: decimalComma) {
                    draft.prices.append(Price(territory: territory, money: Money(amount: amount, currency: territory.currency), position: row.position(column)))
                    priced = true
                } else {
                    draft.priceIssues.append(SourceIssue(rule: .invalidPrice, productID: id, field: .prices,
                                                         message: "row \(row.number): price \"\(String(decoding: bytes, as: UTF8.self))\" in \(territory) \(DecimalText.rejection(String(decoding: bytes, as: UTF8.self)))",
                                                         position: row.position(column)))
                }
            }
        }
        if !priced { draft.unpriced.append((territory, row.number)) }
        if let column = columns.introPrice {
            let text = row.text(column)
            if !text.isEmpty { draft.introPrices.append((territory, Cell(text: text, row: row.number, position: row.position(column)))) }
        }
    }

    @inline(__always)
    private static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let left = a.baseAddress, let right = b.baseAddress else { return true }
        return memcmp(left, right, a.count) == 0
    }

    /// Closes the open product and opens the one `row` belongs to.
    private mutating func switchProduct(_ row: CSVRecord) throws {
        let id = row.text(columns.productID)
        guard !id.isEmpty else {
            throw error(row, columns.productID, "product_id", "product_id is empty (every row needs the product it prices)")
        }
        if var closing = open {
            if !closing.reopened { closing.territories = [:] }
            lastPriceCount = closing.prices.count
            // Appending doubles an array's capacity: 175 prices would hold room for 256. The
            // catalogue is kept, so its arrays are made to fit.
            if closing.prices.capacity > closing.prices.count + closing.prices.count / 8 { closing.prices = Array(closing.prices[...]) }
            drafts[openID] = closing
        }
        if var existing = drafts.removeValue(forKey: id) {
            if !existing.reopened {
                existing.reopened = true
                for price in existing.prices { existing.territories[price.territory] = self.row(ofLine: Int(price.position.line)) }
                for (territory, number) in existing.unpriced { existing.territories[territory] = number }
            }
            open = existing
        } else {
            var draft = Draft(idPosition: row.position(columns.productID))
            // Products of one catalogue are mostly priced in the same territories.
            draft.prices.reserveCapacity(lastPriceCount)
            open = draft
            order.append(id)
        }
        openID = id
        openBytes = Array(id.utf8)
    }

    /// The row a line belongs to: the same number unless a record above spans lines.
    private func row(ofLine line: Int) -> Int {
        var low = 0, high = spans.count
        while low < high {
            let middle = (low + high) / 2
            if spans[middle].line <= line { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return line }
        let span = spans[low - 1]
        return line <= span.lastLine ? span.row : span.row + (line - span.lastLine)
    }

    mutating func catalog() throws -> Catalog {
        if let last = open { drafts[openID] = last }
        open = nil
        var products: [Product] = []
        var groups: [SubscriptionGroup] = []
        var groupIndex: [String: Int] = [:]
        for id in order {
            guard let draft = drafts.removeValue(forKey: id) else { continue }
            var product = try makeProduct(id, draft)
            if let group = draft.values[Self.groupSlot] {
                let index = groupIndex[group.text] ?? groups.count
                if index == groups.count {
                    groupIndex[group.text] = index
                    groups.append(SubscriptionGroup(id: group.text, position: group.position))
                }
                groups[index].productIDs.append(id)
                let level = try draft.values[Self.levelSlot].map { try whole($0, "level", atLeast: 1) } ?? groups[index].productIDs.count
                product.group = GroupMembership(groupID: group.text, level: level)
                product.fieldPositions[.group] = group.position
                if let cell = draft.values[Self.levelSlot] { product.fieldPositions[.level] = cell.position }
            } else if let level = draft.values[Self.levelSlot] {
                throw FormatError("row \(level.row), column level: \(id) has a level but no group", file: file, position: level.position)
            }
            products.append(product)
        }
        var known: Set<Field> = [.id]
        let byColumn: [(String, [Field])] = [("kind", [.kind]), ("price", [.prices]), ("period", [.period]),
                                             ("intro_type", [.introductoryOffer]), ("group", [.group, .level])]
        for (column, fields) in byColumn where columns.has(column) { known.formUnion(fields) }
        return Catalog(file: file, format: .csv, products: products, groups: groups, knownFields: known, issues: issues)
    }

    private mutating func makeProduct(_ id: String, _ draft: Draft) throws -> Product {
        var product = Product(id: id, kind: .nonConsumable, position: draft.idPosition, fieldPositions: [.id: draft.idPosition])
        if columns.has("kind") {
            guard let cell = draft.values[Self.kindSlot] else {
                throw FormatError("\(id) has no kind in any of its rows (expected \(Self.kindWords))", file: file, position: draft.idPosition)
            }
            guard let kind = ProductKind(rawValue: cell.text) else {
                throw FormatError("row \(cell.row), column kind: unknown kind \"\(cell.text)\" (expected \(Self.kindWords))",
                                  file: file, position: cell.position)
            }
            product.kind = kind
            product.fieldPositions[.kind] = cell.position
        } else if draft.values[Self.periodSlot] != nil || draft.values[Self.groupSlot] != nil {
            product.kind = .autoRenewableSubscription
        }
        product.prices = draft.prices
        issues.append(contentsOf: draft.priceIssues)
        if let first = product.prices.first { product.fieldPositions[.prices] = first.position }
        if let cell = draft.values[Self.periodSlot] {
            product.fieldPositions[.period] = cell.position
            if let period = Period(iso8601: cell.text) {
                product.period = period
            } else {
                issues.append(SourceIssue(rule: .invalidPeriod, productID: id, field: .period,
                                          message: "row \(cell.row): period \"\(cell.text)\" is not an ISO 8601 period like P1M", position: cell.position))
            }
        }
        product.introductoryOffer = try introductoryOffer(id, draft)
        if let cell = draft.values[Self.introTypeSlot] { product.fieldPositions[.introductoryOffer] = cell.position }
        return product
    }

    private mutating func introductoryOffer(_ id: String, _ draft: Draft) throws -> Offer? {
        guard let typeCell = draft.values[Self.introTypeSlot] else {
            for slot in [Self.introPeriodSlot, Self.introCountSlot] {
                if let cell = draft.values[slot] {
                    let name = Self.productColumns[slot]
                    throw FormatError("row \(cell.row), column \(name): \(id) has \(name) but no intro_type", file: file, position: cell.position)
                }
            }
            if let cell = draft.introPrices.first?.cell {
                throw FormatError("row \(cell.row), column intro_price: \(id) has intro_price but no intro_type", file: file, position: cell.position)
            }
            return nil
        }
        guard let mode = OfferMode(rawValue: typeCell.text) else {
            throw FormatError("row \(typeCell.row), column intro_type: unknown offer type \"\(typeCell.text)\" (expected free-trial, pay-as-you-go or pay-up-front)",
                              file: file, position: typeCell.position)
        }
        guard let periodCell = draft.values[Self.introPeriodSlot] else {
            throw FormatError("row \(typeCell.row), column intro_period: \(id) has an introductory offer without a period (an ISO 8601 period like P1W)",
                              file: file, position: typeCell.position)
        }
        guard let period = Period(iso8601: periodCell.text) else {
            issues.append(SourceIssue(rule: .invalidPeriod, productID: id, field: .introductoryOffer,
                                      message: "row \(periodCell.row): intro_period \"\(periodCell.text)\" is not an ISO 8601 period like P1W",
                                      position: periodCell.position))
            return nil
        }
        let count = try draft.values[Self.introCountSlot].map { try whole($0, "intro_count", atLeast: 1) } ?? 1
        // One offer per product in the model: its price is the default territory's, else the first row's.
        let priced = draft.introPrices.first { $0.territory == .usa } ?? draft.introPrices.first
        var price: Money?
        if let priced {
            guard let amount = decimal(priced.cell.text) else {
                issues.append(SourceIssue(rule: .invalidPrice, productID: id, field: .introductoryOffer,
                                          message: "row \(priced.cell.row): intro_price \"\(priced.cell.text)\" \(DecimalText.rejection(priced.cell.text))",
                                          position: priced.cell.position))
                return nil
            }
            price = Money(amount: amount, currency: priced.territory.currency)
        }
        let at = OfferPositions(mode: typeCell.position, period: periodCell.position,
                                periods: draft.values[Self.introCountSlot]?.position ?? .unknown, price: priced?.cell.position ?? .unknown)
        return Offer(mode: mode, period: period, periods: count, price: price, territory: priced?.territory ?? .usa,
                     position: typeCell.position, termPositions: at)
    }

    static let kindWords = ProductKind.allCases.map(\.rawValue).joined(separator: ", ")

    private func whole(_ cell: Cell, _ column: String, atLeast minimum: Int) throws -> Int {
        guard let value = Int(cell.text), value >= minimum else {
            throw FormatError("row \(cell.row), column \(column): \"\(cell.text)\" is not a whole number of at least \(minimum)",
                              file: file, position: cell.position)
        }
        return value
    }

    /// An exact decimal; in a `;`-separated file, `1,99` is read as 1.99.
    private func decimal(_ text: String) -> Decimal? {
        var text = text
        return text.withUTF8 { decimals.parse($0, decimalComma: decimalComma) }
    }

    private func error(_ row: CSVRecord, _ column: Int, _ name: String, _ message: String) -> FormatError {
        FormatError("row \(row.number), column \(name): \(message)", file: file, position: row.position(column))
    }
}
