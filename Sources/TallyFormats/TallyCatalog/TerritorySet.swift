import TallyModel

/// A reusable set of territories as a bit per possible code (26³ bits): finding a territory
/// priced twice costs one pass, without hashing or sorting.
struct TerritorySet {
    private var bits = [UInt64](repeating: 0, count: (26 * 26 * 26 + 63) / 64)

    /// The first price whose territory appeared earlier in `prices`, if any. Leaves the set empty.
    mutating func firstRepeat(in prices: [Price]) -> Price? {
        var found: Price?
        for price in prices where found == nil {
            let slot = price.territory.slot
            let mask: UInt64 = 1 << UInt64(slot & 63)
            if bits[slot >> 6] & mask != 0 { found = price }
            bits[slot >> 6] |= mask
        }
        for price in prices { bits[price.territory.slot >> 6] = 0 }
        return found
    }
}
