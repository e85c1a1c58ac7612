import TallyDiff
import TallyModel

/// The JSON of a changed price (nearly every change in a large diff) from texts made once per
/// value: the product's ID and path, each side's file, each reason set, and for each pair of
/// old and new prices its value texts, summary and arithmetic. A change then costs a few copies
/// into the output buffer and a dictionary lookup, no allocation. The texts come from the same
/// code as every other change's (`DecimalFormat`, `Change.summary`, `PriceChange`), so the
/// bytes are the same as the general path writes.
struct PriceChangeJSON {
    private struct Pair: Hashable {
        var old: Money
        var new: Money
    }

    /// What one pair of prices writes.
    private struct Texts {
        var old: [UInt8]
        var new: [UInt8]
        var summary: [UInt8]
        /// `{"difference": …, "direction": ` and `, "new": …}`, around the direction.
        var priceHead: [UInt8]
        var priceTail: [UInt8]
        var direction: PriceChange.Direction
    }

    private var pairs: [Pair: Texts] = [:]
    /// `[...]` of every reason set met, by bit set (in `Attention.allCases` order).
    private var attentionTexts: [[UInt8]?] = Array(repeating: nil, count: 1 << Attention.allCases.count)
    private var productID: String?
    private var productText: [UInt8] = []
    /// `"product › prices › ` (no closing quote).
    private var pathHead: [UInt8] = []
    private let oldFile: [UInt8]
    private let newFile: [UInt8]
    private static let directions = Dictionary(uniqueKeysWithValues: PriceChange.Direction.allCases.map { ($0, JSONWriter.quoted($0.rawValue)) })

    init(_ diff: CatalogDiff) {
        oldFile = JSONWriter.quoted(diff.old.file)
        newFile = JSONWriter.quoted(diff.new.file)
    }

    /// Writes `change` when it is a changed price keyed by territory; false (and nothing
    /// written) for any other change.
    mutating func write(_ change: Change, _ json: inout JSONWriter) -> Bool {
        guard change.aspect == .price, change.action == .changed, let territory = change.territory, let id = change.productID,
              case .money(let old)? = change.old, case .money(let new)? = change.new, change.key == nil, change.note == nil else {
            return false
        }
        if id != productID {
            productID = id
            productText = JSONWriter.quoted(id)
            pathHead = JSONWriter.quoted(id + " › prices › ")
            pathHead.removeLast()
        }
        let texts = self.texts(old, new, change)
        let code = territory.code
        json.raw("{\"action\": \"changed\", \"aspect\": \"price\", \"attention\": ")
        json.raw(attention(change))
        json.raw(", \"key\": null, \"new\": ")
        side(change.newPosition, newFile, texts.new, &json)
        json.raw(", \"note\": null, \"old\": ")
        side(change.oldPosition, oldFile, texts.old, &json)
        json.raw(", \"path\": ")
        json.raw(pathHead)
        json.code(code)
        json.raw("\", \"price\": ")
        json.raw(texts.priceHead)
        json.raw(Self.directions[change.priceDirection ?? texts.direction] ?? [])
        json.raw(texts.priceTail)
        json.raw(", \"product\": ")
        json.raw(productText)
        json.raw(", \"summary\": ")
        json.raw(texts.summary)
        json.raw(", \"territory\": \"")
        json.code(code)
        json.raw("\"}")
        return true
    }

    /// As `DiffSource.location` places a position (a diff's sources are whole files).
    private func side(_ position: Position, _ file: [UInt8], _ value: [UInt8], _ json: inout JSONWriter) {
        json.raw("{\"column\": ")
        json.int(position.isKnown ? Int(position.column) : nil)
        json.raw(", \"file\": ")
        json.raw(file)
        json.raw(", \"line\": ")
        json.int(position.isKnown ? Int(position.line) : nil)
        json.raw(", \"path\": null, \"value\": ")
        json.raw(value)
        json.raw("}")
    }

    private mutating func attention(_ change: Change) -> [UInt8] {
        var bits = 0
        for (index, reason) in Attention.allCases.enumerated() where change.needsAttention(reason) { bits |= 1 << index }
        if let text = attentionTexts[bits] { return text }
        var json = JSONWriter()
        json.strings(change.attention.map(\.rawValue))
        attentionTexts[bits] = json.bytes
        return json.bytes
    }

    private mutating func texts(_ old: Money, _ new: Money, _ change: Change) -> Texts {
        let pair = Pair(old: old, new: new)
        if let texts = pairs[pair] { return texts }
        let price = PriceChange(old: old, new: new)
        var head = JSONWriter(), tail = JSONWriter()
        head.raw("{")
        head.key("difference", first: true)
        head.string(price.difference.map { DecimalFormat.plain($0.amount) })
        head.key("direction")
        tail.key("new")
        tail.string(DecimalFormat.plain(new.amount))
        tail.key("new_currency")
        tail.string(new.currency)
        tail.key("old")
        tail.string(DecimalFormat.plain(old.amount))
        tail.key("old_currency")
        tail.string(old.currency)
        tail.key("percent")
        tail.string(price.percent.map(DecimalFormat.plain))
        tail.raw("}")
        let texts = Texts(old: JSONWriter.quoted(DecimalFormat.money(old)), new: JSONWriter.quoted(DecimalFormat.money(new)),
                          summary: JSONWriter.quoted(change.summary), priceHead: head.bytes, priceTail: tail.bytes,
                          direction: price.direction)
        // Catalogues repeat a few hundred price points; the table is bounded all the same.
        if pairs.count >= 100_000 { pairs.removeAll(keepingCapacity: true) }
        pairs[pair] = texts
        return texts
    }
}

extension JSONWriter {
    /// A territory code: three capital letters, nothing to escape.
    mutating func code(_ code: String) {
        var code = code
        code.withUTF8 { raw($0) }
    }
}
