import Foundation
import TallyDiff
import TallyModel

/// The JSON of a changed price (nearly every change in a large diff) from texts made once per
/// value: the product's ID and path, each side's file, each reason set, and for each pair of
/// old and new prices its value texts, summary and arithmetic. A change then costs a few copies
/// into the output buffer and a dictionary lookup, no allocation. The texts come from the same
/// code as every other change's (`DecimalFormat`, `Change.summary`, `PriceChange`), so the
/// bytes are the same as the general path writes.
struct PriceChangeJSON {
    private struct Pair {
        var old: Money
        var new: Money
    }

    /// What one pair of prices writes (a class: one reference to copy out of the table, not six).
    private final class Texts {
        var old: [UInt8]
        var new: [UInt8]
        var summary: [UInt8]
        /// `{"difference": …, "direction": ` and `, "new": …}`, around the direction.
        var priceHead: [UInt8]
        var priceTail: [UInt8]
        var direction: PriceChange.Direction

        init(old: [UInt8], new: [UInt8], summary: [UInt8], priceHead: [UInt8], priceTail: [UInt8], direction: PriceChange.Direction) {
            self.old = old
            self.new = new
            self.summary = summary
            self.priceHead = priceHead
            self.priceTail = priceTail
            self.direction = direction
        }
    }

    /// Texts by pair of prices, direct-mapped on the pair's bytes (no `Hasher` per change; two
    /// pairs in one slot only cost making a text again). Equal bytes are equal prices; equal
    /// prices written differently (`1.5`, `1.50`) just take two slots.
    private var pairs: [(key: Pair, texts: Texts)?] = Array(repeating: nil, count: 1 << 16)
    /// Territory codes as bytes, direct-mapped on the territory's bytes.
    private var codes: [(key: Territory, text: [UInt8])?] = Array(repeating: nil, count: 1 << 10)
    /// `[...]` of every reason set met, by bit set (in `Attention.allCases` order).
    private var attentionTexts: [[UInt8]?] = Array(repeating: nil, count: 1 << Attention.allCases.count)
    private var productID: String?
    private var productText: [UInt8] = []
    /// `"product › prices › ` (no closing quote).
    private var pathHead: [UInt8] = []
    private let oldFile: [UInt8]
    private let newFile: [UInt8]
    /// Whether both sides are whole files; a side read from several files (pages) places its
    /// positions through `DiffSource.location`, the general path.
    private let wholeFiles: Bool
    private static let up = JSONWriter.quoted(PriceChange.Direction.up.rawValue)
    private static let down = JSONWriter.quoted(PriceChange.Direction.down.rawValue)
    private static let otherCurrency = JSONWriter.quoted(PriceChange.Direction.otherCurrency.rawValue)
    private static let same = JSONWriter.quoted(PriceChange.Direction.same.rawValue)

    private static func text(_ direction: PriceChange.Direction) -> [UInt8] {
        switch direction {
        case .up: up
        case .down: down
        case .otherCurrency: otherCurrency
        case .same: same
        }
    }

    init(_ diff: CatalogDiff) {
        oldFile = JSONWriter.quoted(diff.old.file)
        newFile = JSONWriter.quoted(diff.new.file)
        wholeFiles = diff.old.parts.isEmpty && diff.new.parts.isEmpty
    }

    /// Writes `change` when it is a changed price keyed by territory; false (and nothing
    /// written) for any other change.
    mutating func write(_ change: Change, _ json: inout JSONWriter) -> Bool {
        guard wholeFiles, change.aspect == .price, change.action == .changed, let territory = change.territory, let id = change.productID,
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
        let code = self.code(territory)
        json.raw("{\"action\": \"changed\", \"aspect\": \"price\", \"attention\": ")
        json.raw(attention(change))
        json.raw(", \"key\": null, \"new\": ")
        side(change.newPosition, newFile, texts.new, &json)
        json.raw(", \"note\": null, \"old\": ")
        side(change.oldPosition, oldFile, texts.old, &json)
        json.raw(", \"path\": ")
        json.raw(pathHead)
        json.raw(code)
        json.raw("\", \"price\": ")
        json.raw(texts.priceHead)
        json.raw(Self.text(change.priceDirection ?? texts.direction))
        json.raw(texts.priceTail)
        json.raw(", \"product\": ")
        json.raw(productText)
        json.raw(", \"summary\": ")
        json.raw(texts.summary)
        json.raw(", \"territory\": \"")
        json.raw(code)
        json.raw("\"}")
        return true
    }

    /// As `DiffSource.location` places a position in a whole file.
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

    private mutating func code(_ territory: Territory) -> [UInt8] {
        let slot = Self.slot(territory, bits: 10)
        if let entry = codes[slot], Self.same(entry.key, territory) { return entry.text }
        let text = Array(territory.code.utf8)
        codes[slot] = (territory, text)
        return text
    }

    private mutating func texts(_ old: Money, _ new: Money, _ change: Change) -> Texts {
        let pair = Pair(old: old, new: new)
        let slot = Self.slot(pair, bits: 16)
        if let entry = pairs[slot], Self.same(entry.key, pair) { return entry.texts }
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
        pairs[slot] = (pair, texts)
        return texts
    }

    /// A slot for a plain value, from its bytes.
    private static func slot<Key>(_ key: Key, bits: Int) -> Int {
        var hash: UInt64 = 0
        withUnsafeBytes(of: key) { raw in
            var offset = 0
            while offset + 8 <= raw.count {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
                offset += 8
            }
            while offset < raw.count {
                hash = (hash ^ UInt64(raw[offset])) &* 0x9E37_79B9_7F4A_7C15
                offset += 1
            }
        }
        return Int(truncatingIfNeeded: hash >> UInt64(64 - bits))
    }

    /// Whether the tables may key on bytes: `Money` and `Territory` hold no references (so equal
    /// bytes are equal values). Were that to change, every lookup would miss and texts be made
    /// per change: slower, never wrong.
    private static let plainKeys = _isPOD(Pair.self) && _isPOD(Territory.self)

    /// The same bytes (so the same value).
    private static func same<Key>(_ a: Key, _ b: Key) -> Bool {
        guard plainKeys else { return false }
        return withUnsafeBytes(of: a) { left in
            withUnsafeBytes(of: b) { right in
                guard let l = left.baseAddress, let r = right.baseAddress else { return true }
                return memcmp(l, r, left.count) == 0
            }
        }
    }
}

