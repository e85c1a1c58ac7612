import TallyModel

/// Which source is compared with which: the one place that decides it, for `tally check`,
/// `TallyAssert` and the plugin alike (through `Gate.check(sources:)`).
public enum SourcePairing {
    /// The pairs to compare when Google Play sources are among `sources`, as indices into
    /// `sources` (the configuration's side first); nil without Google Play sources (`sides`
    /// decides then) or with nothing to compare. A Google Play source is compared with each
    /// server catalogue (the hub: `tally-catalog/1`, CSV, mapped files), standing on the left so
    /// that findings say "in Google Play ... in the catalogue"; without a server catalogue, with
    /// the first other source. The other sources pair among themselves as `sides` says.
    /// (Issue 10 moves pairing into TallyRun with the hub rule for every store; this is its
    /// Google Play part.)
    public static func googlePlayPairs(_ sources: [Catalog]) -> [(Int, Int)]? {
        let play = sources.indices.filter { sources[$0].format.store.pairsThroughServerCatalogue }
        guard !play.isEmpty else { return nil }
        let rest = sources.indices.filter { !sources[$0].format.store.pairsThroughServerCatalogue }
        var pairs = everyPair(of: rest, in: sources)
        let hubs = rest.filter { isServerCatalogue(sources[$0].format) }
        for index in play {
            if !hubs.isEmpty {
                pairs += hubs.map { (index, $0) }
            } else if let other = rest.first {
                pairs.append((index, other))
            } else if let first = play.first, index != first {
                pairs.append((first, index))
            }
        }
        return pairs.isEmpty ? nil : pairs
    }

    static func isServerCatalogue(_ format: SourceFormat) -> Bool {
        format.isServerCatalogue
    }
}

extension SourcePairing {
    /// The pairs to compare, as indices into `sources` (the configuration's side first); nil
    /// when there is nothing to compare (fewer than two sources).
    ///
    /// Every source is compared with every other (within a store; Google Play through the
    /// server catalogue, `googlePlayPairs`): no file is the reference, so the findings do not
    /// depend on the order the files come in, and a third source never hides what two show.
    public static func pairs(_ sources: [Catalog]) -> [(Int, Int)]? {
        if let play = googlePlayPairs(sources) { return play }
        guard sources.count >= 2 else { return nil }
        return everyPair(of: Array(sources.indices), in: sources)
    }

    /// Each two of `indices` once, a configuration on the left of a catalogue; two sources of
    /// one role in the order given.
    static func everyPair(of indices: [Int], in sources: [Catalog]) -> [(Int, Int)] {
        var pairs: [(Int, Int)] = []
        for (position, left) in indices.enumerated() {
            for right in indices[(position + 1)...] {
                // Files that together form one copy are not compared with each other.
                if let copy = sources[left].copy, copy == sources[right].copy { continue }
                let swap = sources[left].format.role != .configuration && sources[right].format.role == .configuration
                pairs.append(swap ? (right, left) : (left, right))
            }
        }
        return pairs
    }
}
