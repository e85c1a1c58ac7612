import Foundation
import TallyModel

/// Merges the rows of a CSV catalogue into products: one product per `product_id`, prices per
/// territory, every other value the same in all of a product's rows.
struct CSVProductMerger {
    let table: CSVTable
    let columns: CSVColumns
    private var order: [String] = []
    private var drafts: [String: Draft] = [:]
    private var issues: [SourceIssue] = []

    /// Columns whose value belongs to the product, not to a territory.
    static let productColumns = ["kind", "group", "level", "period", "intro_type", "intro_period", "intro_count"]

    init(table: CSVTable, columns: CSVColumns) {
        self.table = table
        self.columns = columns
    }

    /// One cell: its text and where it is.
    struct Cell {
        var text: String
        var row: Int
        var position: Position
    }

    private struct Draft {
        var idPosition: Position
        var values: [String: Cell] = [:]
        var territories: [Territory: Int] = [:]
        var prices: [(territory: Territory, cell: Cell)] = []
        var introPrices: [(territory: Territory, cell: Cell)] = []
    }

    mutating func add(_ row: CSVTable.Row) throws {
        guard let id = columns.value("product_id", in: row) else {
            throw error(row, "product_id", "product_id is empty (every row needs the product it prices)")
        }
        // Taken out of the dictionary while it is changed, so that its arrays are not shared and
        // grow in place (a copy per row would make a product priced in 175 territories quadratic).
        var draft: Draft
        if let existing = drafts.removeValue(forKey: id) {
            draft = existing
        } else {
            draft = Draft(idPosition: cell(row, "product_id").position)
            order.append(id)
        }
        defer { drafts[id] = draft }
        for name in Self.productColumns {
            guard let text = columns.value(name, in: row) else { continue }
            if let earlier = draft.values[name] {
                guard earlier.text == text else {
                    throw error(row, name, "\(id) has \(name) \"\(earlier.text)\" in row \(earlier.row) but \"\(text)\" in row \(row.number); "
                                + "the rows of one product may differ only in territory and prices")
                }
            } else {
                draft.values[name] = cell(row, name)
            }
        }
        var territory = Territory.usa
        if let code = columns.value("territory", in: row) {
            guard let parsed = Territory(code) else {
                throw error(row, "territory", Territory.notAStorefront(code))
            }
            territory = parsed
        }
        if let earlier = draft.territories[territory] {
            throw error(row, "territory", "\(id) has two rows for \(territory): rows \(earlier) and \(row.number)")
        }
        draft.territories[territory] = row.number
        if columns.value("price", in: row) != nil { draft.prices.append((territory, cell(row, "price"))) }
        if columns.value("intro_price", in: row) != nil { draft.introPrices.append((territory, cell(row, "intro_price"))) }
    }

    mutating func catalog() throws -> Catalog {
        var products: [Product] = []
        var groups: [SubscriptionGroup] = []
        var groupIndex: [String: Int] = [:]
        for id in order {
            guard let draft = drafts[id] else { continue }
            var product = try makeProduct(id, draft)
            if let group = draft.values["group"] {
                let index = groupIndex[group.text] ?? groups.count
                if index == groups.count {
                    groupIndex[group.text] = index
                    groups.append(SubscriptionGroup(id: group.text, position: group.position))
                }
                groups[index].productIDs.append(id)
                let level = try draft.values["level"].map { try whole($0, "level", atLeast: 1) } ?? groups[index].productIDs.count
                product.group = GroupMembership(groupID: group.text, level: level)
                product.fieldPositions[.group] = group.position
                if let cell = draft.values["level"] { product.fieldPositions[.level] = cell.position }
            } else if let level = draft.values["level"] {
                throw FormatError("row \(level.row), column level: \(id) has a level but no group", file: table.file, position: level.position)
            }
            products.append(product)
        }
        var known: Set<Field> = [.id]
        let byColumn: [(String, [Field])] = [("kind", [.kind]), ("price", [.prices]), ("period", [.period]),
                                             ("intro_type", [.introductoryOffer]), ("group", [.group, .level])]
        for (column, fields) in byColumn where columns.has(column) { known.formUnion(fields) }
        return Catalog(file: table.file, format: .csv, products: products, groups: groups, knownFields: known, issues: issues)
    }

    private mutating func makeProduct(_ id: String, _ draft: Draft) throws -> Product {
        var product = Product(id: id, kind: .nonConsumable, position: draft.idPosition, fieldPositions: [.id: draft.idPosition])
        if columns.has("kind") {
            guard let cell = draft.values["kind"] else {
                throw FormatError("\(id) has no kind in any of its rows (expected \(Self.kindWords))", file: table.file, position: draft.idPosition)
            }
            guard let kind = ProductKind(rawValue: cell.text) else {
                throw FormatError("row \(cell.row), column kind: unknown kind \"\(cell.text)\" (expected \(Self.kindWords))",
                                  file: table.file, position: cell.position)
            }
            product.kind = kind
            product.fieldPositions[.kind] = cell.position
        } else if draft.values["period"] != nil || draft.values["group"] != nil {
            product.kind = .autoRenewableSubscription
        }
        for (territory, cell) in draft.prices {
            guard let amount = decimal(cell.text) else {
                issues.append(SourceIssue(rule: "invalid-price", productID: id, field: .prices,
                                          message: "row \(cell.row): price \"\(cell.text)\" in \(territory) is not a decimal number",
                                          position: cell.position))
                continue
            }
            product.prices.append(Price(territory: territory, money: Money(amount: amount, currency: territory.currency), position: cell.position))
        }
        if let first = product.prices.first { product.fieldPositions[.prices] = first.position }
        if let cell = draft.values["period"] {
            product.fieldPositions[.period] = cell.position
            if let period = Period(iso8601: cell.text) {
                product.period = period
            } else {
                issues.append(SourceIssue(rule: "invalid-period", productID: id, field: .period,
                                          message: "row \(cell.row): period \"\(cell.text)\" is not an ISO 8601 period like P1M", position: cell.position))
            }
        }
        product.introductoryOffer = try introductoryOffer(id, draft)
        if let cell = draft.values["intro_type"] { product.fieldPositions[.introductoryOffer] = cell.position }
        return product
    }

    private mutating func introductoryOffer(_ id: String, _ draft: Draft) throws -> Offer? {
        guard let typeCell = draft.values["intro_type"] else {
            for name in ["intro_period", "intro_count"] {
                if let cell = draft.values[name] {
                    throw FormatError("row \(cell.row), column \(name): \(id) has \(name) but no intro_type", file: table.file, position: cell.position)
                }
            }
            if let cell = draft.introPrices.first?.cell {
                throw FormatError("row \(cell.row), column intro_price: \(id) has intro_price but no intro_type", file: table.file, position: cell.position)
            }
            return nil
        }
        guard let mode = OfferMode(rawValue: typeCell.text) else {
            throw FormatError("row \(typeCell.row), column intro_type: unknown offer type \"\(typeCell.text)\" (expected free-trial, pay-as-you-go or pay-up-front)",
                              file: table.file, position: typeCell.position)
        }
        guard let periodCell = draft.values["intro_period"] else {
            throw FormatError("row \(typeCell.row), column intro_period: \(id) has an introductory offer without a period (an ISO 8601 period like P1W)",
                              file: table.file, position: typeCell.position)
        }
        guard let period = Period(iso8601: periodCell.text) else {
            issues.append(SourceIssue(rule: "invalid-period", productID: id, field: .introductoryOffer,
                                      message: "row \(periodCell.row): intro_period \"\(periodCell.text)\" is not an ISO 8601 period like P1W",
                                      position: periodCell.position))
            return nil
        }
        let count = try draft.values["intro_count"].map { try whole($0, "intro_count", atLeast: 1) } ?? 1
        // One offer per product in the model: its price is the default territory's, else the first row's.
        let priced = draft.introPrices.first { $0.territory == .usa } ?? draft.introPrices.first
        var price: Money?
        if let priced {
            guard let amount = decimal(priced.cell.text) else {
                issues.append(SourceIssue(rule: "invalid-price", productID: id, field: .introductoryOffer,
                                          message: "row \(priced.cell.row): intro_price \"\(priced.cell.text)\" is not a decimal number",
                                          position: priced.cell.position))
                return nil
            }
            price = Money(amount: amount, currency: priced.territory.currency)
        }
        return Offer(mode: mode, period: period, periods: count, price: price, territory: priced?.territory ?? .usa,
                     position: typeCell.position)
    }

    static let kindWords = ProductKind.allCases.map(\.rawValue).joined(separator: ", ")

    private func whole(_ cell: Cell, _ column: String, atLeast minimum: Int) throws -> Int {
        guard let value = Int(cell.text), value >= minimum else {
            throw FormatError("row \(cell.row), column \(column): \"\(cell.text)\" is not a whole number of at least \(minimum)",
                              file: table.file, position: cell.position)
        }
        return value
    }

    /// An exact decimal; in a `;`-separated file, `1,99` is read as 1.99.
    private func decimal(_ text: String) -> Decimal? {
        if table.delimiter == ";", text.filter({ $0 == "," }).count == 1, !text.contains("."),
           let value = DecimalText.parse(text.replacingOccurrences(of: ",", with: ".")) {
            return value
        }
        return DecimalText.parse(text)
    }

    private func cell(_ row: CSVTable.Row, _ name: String) -> Cell {
        let index = columns.column(name) ?? 0
        let text = index < row.fields.count ? row.fields[index].trimmingCharacters(in: .whitespaces) : ""
        return Cell(text: text, row: row.number, position: table.position(row, index))
    }

    private func error(_ row: CSVTable.Row, _ name: String, _ message: String) -> FormatError {
        FormatError("row \(row.number), column \(name): \(message)", file: table.file, position: cell(row, name).position)
    }
}
