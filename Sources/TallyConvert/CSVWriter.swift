import Foundation
import TallyModel

/// Writes the CSV catalogue: one row per product and territory, with the columns of the fields
/// the source knows (`product_id,kind,group,level,period,territory,price,intro_type,...`).
struct CSVWriter {
    let catalog: Catalog

    private func knows(_ field: Field) -> Bool { catalog.knownFields.contains(field) }

    /// The columns to write, in the documented order.
    var columns: [String] {
        var columns = ["product_id"]
        if knows(.kind) { columns.append("kind") }
        if knows(.group) { columns += knows(.level) ? ["group", "level"] : ["group"] }
        if knows(.period) { columns.append("period") }
        if knows(.prices) { columns += ["territory", "price"] }
        if knows(.introductoryOffer) { columns += ["intro_type", "intro_period", "intro_count", "intro_price"] }
        return columns
    }

    func text(notes: inout ConvertNotes) -> String {
        let columns = self.columns
        var lines = [columns.joined(separator: ",")]
        for product in catalog.products {
            noteLosses(product, notes: &notes)
            var shared: [String: String] = [:]
            if knows(.kind) { shared["kind"] = product.kind.rawValue }
            if knows(.group), let group = product.group, !group.groupID.isEmpty {
                shared["group"] = group.groupID
                if knows(.level), let level = group.level { shared["level"] = String(level) }
            }
            if knows(.period), let period = product.period { shared["period"] = period.literal }
            var offer: Offer?
            if knows(.introductoryOffer), let intro = product.introductoryOffer {
                offer = intro
                shared["intro_type"] = intro.mode.rawValue
                shared["intro_period"] = intro.period.literal
                shared["intro_count"] = String(intro.periods)
            }
            var rows: [[String: String]] = []
            if knows(.prices) {
                var seen = Set<Territory>()
                for price in product.prices where seen.insert(price.territory).inserted {
                    var row = shared
                    row["territory"] = price.territory.code
                    row["price"] = DecimalLiteral.text(price.money.amount)
                    rows.append(row)
                }
            }
            if let price = offer?.price {
                // The offer's price goes on the row of its territory (the default one when the source does not say).
                let territory = offer?.territory ?? catalog.defaultTerritory
                if let index = rows.firstIndex(where: { $0["territory"] == territory.code }) {
                    rows[index]["intro_price"] = DecimalLiteral.text(price.amount)
                } else {
                    var row = shared
                    row["territory"] = territory.code
                    row["intro_price"] = DecimalLiteral.text(price.amount)
                    rows.append(row)
                }
            }
            if rows.isEmpty { rows = [shared] }
            for row in rows {
                var cells = columns.map { row[$0] ?? "" }
                cells[0] = product.id
                lines.append(cells.map(Self.quoted).joined(separator: ","))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func noteLosses(_ product: Product, notes: inout ConvertNotes) {
        if knows(.referenceName), product.referenceName != nil { notes.add("reference names left out: the CSV catalogue has no name column", product.id) }
        if knows(.familyShareable), product.familyShareable != nil { notes.add("family sharing left out: the CSV catalogue has no column for it", product.id) }
        if knows(.localizations), !product.localizations.isEmpty { notes.add("localizations left out: the CSV catalogue has none", product.id) }
        if !product.promotionalOffers.isEmpty { notes.add("promotional offers left out: the CSV catalogue has none", product.id) }
        if !product.codeOffers.isEmpty { notes.add("offer codes left out: the CSV catalogue has none", product.id) }
        if !product.winbackOffers.isEmpty { notes.add("win-back offers left out: the CSV catalogue has none", product.id) }
        if !product.otherIntroductoryOffers.isEmpty { notes.add("introductory offers beyond the first left out", product.id) }
        if product.priceTier != nil, product.prices.isEmpty {
            notes.add("an App Store price tier left out: give --price-tiers FILE to turn tiers into prices", product.id)
        }
        if product.kind.isAutoRenewable, knows(.group), product.group?.groupID.isEmpty ?? true {
            notes.add("an auto-renewable subscription in no group", product.id)
        }
    }

    /// A cell, in double quotes when it holds a comma, a quote or a line break.
    static func quoted(_ cell: String) -> String {
        guard cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
