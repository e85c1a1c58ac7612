import TallyModel

/// Territory codes as bytes, made once per territory.
struct TerritoryTexts {
    private var table = [[UInt8]?](repeating: nil, count: 26 * 26 * 26)

    mutating func text(_ territory: Territory) -> [UInt8] {
        let slot = territory.slot
        if let text = table[slot] { return text }
        let text = Array(territory.code.utf8)
        table[slot] = text
        return text
    }
}

/// A set of territories as a bit set by `Territory.slot`, cleared in time proportional to what it holds.
struct TerritorySet {
    private var bits = [UInt64](repeating: 0, count: (26 * 26 * 26 + 63) / 64)
    private var inserted: [Int] = []

    /// Inserts; false when the territory was already there.
    mutating func insert(_ territory: Territory) -> Bool {
        let slot = territory.slot
        let mask: UInt64 = 1 << UInt64(slot & 63)
        if bits[slot >> 6] & mask != 0 { return false }
        bits[slot >> 6] |= mask
        inserted.append(slot >> 6)
        return true
    }

    mutating func removeAll() {
        for word in inserted { bits[word] = 0 }
        inserted.removeAll(keepingCapacity: true)
    }
}

/// Territory codes as strings, made once per territory (`Territory.code` builds one each time).
struct TerritoryCodes {
    private var table = [String?](repeating: nil, count: 26 * 26 * 26)

    mutating func code(_ territory: Territory) -> String {
        let slot = territory.slot
        if let code = table[slot] { return code }
        let code = territory.code
        table[slot] = code
        return code
    }
}
