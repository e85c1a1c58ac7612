import Foundation
import TallyModel

/// Writes the CSV catalogue: one row per product and territory, with the columns of the fields
/// the source knows (`product_id,kind,group,level,period,territory,price,intro_type,...`).
/// Rows go to the sink as each product is written; a product's shared cells are made once and
/// each row copies them, so a price costs a copy of its territory and of its cached text.
struct CSVWriter {
    let catalog: Catalog

    private func knows(_ field: Field) -> Bool { catalog.knownFields.contains(field) }

    private enum Column { case productID, kind, group, level, period, territory, price, introType, introPeriod, introCount, introPrice }

    /// The columns to write, in the documented order.
    private var layout: [(name: String, column: Column)] {
        var columns: [(String, Column)] = [("product_id", .productID)]
        if knows(.kind) { columns.append(("kind", .kind)) }
        if knows(.group) { columns += knows(.level) ? [("group", .group), ("level", .level)] : [("group", .group)] }
        if knows(.period) { columns.append(("period", .period)) }
        if knows(.prices) { columns += [("territory", .territory), ("price", .price)] }
        if knows(.introductoryOffer) {
            columns += [("intro_type", .introType), ("intro_period", .introPeriod), ("intro_count", .introCount), ("intro_price", .introPrice)]
        }
        return columns
    }

    func write(to sink: inout ByteSink, notes: inout ConvertNotes) {
        let layout = self.layout
        for (index, column) in layout.enumerated() {
            if index > 0 { sink.append(UInt8(ascii: ",")) }
            Self.appendCell(column.name, to: &sink)
        }
        sink.append(UInt8(ascii: "\n"))
        // The cells after `price` (or after the shared ones when there is no price column).
        let rowStart = layout.firstIndex { $0.column == .territory } ?? layout.count
        var prices = DecimalTexts { Array(Self.quoted(DecimalLiteral.text($0)).utf8) }
        var territories = TerritoryTexts()
        var seen = TerritorySet()
        var shared = [[UInt8]](repeating: [], count: layout.count)
        var rows: [(territory: Territory?, price: [UInt8], introPrice: [UInt8])] = []
        for product in catalog.products {
            guard sink.isOpen else { return }
            noteLosses(product, notes: &notes)
            var offer: Offer?
            for (index, column) in layout.enumerated() {
                var cell = ""
                switch column.column {
                case .productID: cell = product.id
                case .kind: cell = product.kind.rawValue
                case .group:
                    if let group = product.group, !group.groupID.isEmpty { cell = group.groupID }
                case .level:
                    if let group = product.group, !group.groupID.isEmpty, let level = group.level { cell = String(level) }
                case .period: cell = product.period?.literal ?? ""
                case .introType, .introPeriod, .introCount:
                    if let intro = product.introductoryOffer {
                        offer = intro
                        cell = column.column == .introType ? intro.mode.rawValue
                            : column.column == .introPeriod ? intro.period.literal : String(intro.periods)
                    }
                case .territory, .price, .introPrice: break
                }
                shared[index] = Array(Self.quoted(cell).utf8)
            }
            rows.removeAll(keepingCapacity: true)
            if knows(.prices) {
                seen.removeAll()
                for price in product.prices where seen.insert(price.territory) {
                    rows.append((price.territory, prices.text(price.money.amount), []))
                }
            }
            if let price = offer?.price {
                // The offer's price goes on the row of its territory (the default one when the source does not say).
                let territory = offer?.territory ?? catalog.defaultTerritory
                let text = prices.text(price.amount)
                if let index = rows.firstIndex(where: { $0.territory == territory }) {
                    rows[index].introPrice = text
                } else {
                    rows.append((territory, [], text))
                }
            }
            if rows.isEmpty { rows.append((nil, [], [])) }
            for row in rows {
                for index in 0..<rowStart {
                    if index > 0 { sink.append(UInt8(ascii: ",")) }
                    sink.append(shared[index])
                }
                for index in rowStart..<layout.count {
                    if index > 0 { sink.append(UInt8(ascii: ",")) }
                    switch layout[index].column {
                    case .territory: if let territory = row.territory { sink.append(territories.text(territory)) }
                    case .price: sink.append(row.price)
                    case .introPrice: sink.append(row.introPrice)
                    default: sink.append(shared[index])
                    }
                }
                sink.append(UInt8(ascii: "\n"))
            }
            sink.flushIfFull()
        }
    }

    private func noteLosses(_ product: Product, notes: inout ConvertNotes) {
        if knows(.referenceName), product.referenceName != nil { notes.add("reference names left out: the CSV catalogue has no name column", product.id) }
        if knows(.familyShareable), product.familyShareable != nil { notes.add("family sharing left out: the CSV catalogue has no column for it", product.id) }
        if knows(.localizations), !product.localizations.isEmpty { notes.add("localizations left out: the CSV catalogue has none", product.id) }
        if !product.promotionalOffers.isEmpty { notes.add("promotional offers left out: the CSV catalogue has none", product.id) }
        if !product.codeOffers.isEmpty { notes.add("offer codes left out: the CSV catalogue has none", product.id) }
        if !product.winbackOffers.isEmpty { notes.add("win-back offers left out: the CSV catalogue has none", product.id) }
        if !product.otherIntroductoryOffers.isEmpty { notes.add("introductory offers beyond the first left out", product.id) }
        if !product.seatTiers.isEmpty || product.multiSeatStatus != nil || product.marketSettings != nil {
            notes.add("multi-seat status and seat tiers left out: the CSV catalogue has no columns for them", product.id)
        }
        if product.priceTier != nil, product.prices.isEmpty {
            notes.add("an App Store price tier left out: give --price-tiers FILE to turn tiers into prices", product.id)
        }
        if product.kind.isAutoRenewable, knows(.group), product.group?.groupID.isEmpty ?? true {
            notes.add("an auto-renewable subscription in no group", product.id)
        }
    }

    private static func appendCell(_ cell: String, to sink: inout ByteSink) {
        sink.append(utf8: quoted(cell))
    }

    /// A cell, in double quotes when it holds a comma, a quote or a line break; a cell a
    /// spreadsheet would run as a formula (`=HYPERLINK(…)`) starts with `'` (`SafeText.csvCell`).
    static func quoted(_ cell: String) -> String {
        // Text for people and spreadsheets: no control or bidirectional character either.
        let cell = SafeText.csvCell(SafeText.line(cell))
        // Most cells hold none of these bytes; the others are judged by character, as always.
        guard cell.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }),
              cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
        else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
