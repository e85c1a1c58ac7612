/// "Did you mean" suggestions, ranked:
/// 1. the same text but for case and the `_`/`.`/`-` separators (`remove_ads` and `remove.ads`,
///    `ekme.TenScrolls.pack` and `ekme.Tenscrolls.pack`, `removeAds` and `remove_ads`): the
///    closest match, whatever an edit distance says;
/// 2. the closest candidate within a small edit distance, where case and separators are free.
///
/// Product IDs (`productID(for:among:)`) go on with two rungs: the same ID with another word for
/// its period (`plus.annual` and `Plus.yearly`), then a single ID that ends the same way after
/// another prefix (`com.lmglsl.subscription.monthly` and `com.layermapper.glsl.subscription.monthly`).
public enum NearMatch {
    /// The best candidate for `text`, or nil when nothing is near enough.
    public static func best(for text: String, among candidates: some Sequence<String>) -> String? {
        var best: (candidate: String, rank: Rank)?
        let folded = fold(text)
        let skeleton = Self.skeleton(folded)
        let limit = max(1, min(3, folded.count / 4))
        for candidate in candidates where candidate != text {
            let other = fold(candidate)
            let rank: Rank
            if Self.skeleton(other) == skeleton {
                // Only case and separators differ: ranked ahead of every edit.
                rank = Rank(tier: 0, distance: editDistance(folded, other, limit: max(folded.count, other.count)))
            } else {
                guard abs(other.count - folded.count) <= limit else { continue }
                let distance = editDistance(folded, other, limit: limit)
                guard distance <= limit else { continue }
                rank = Rank(tier: 1, distance: distance)
            }
            if let current = best, !(rank < current.rank || (rank == current.rank && candidate < current.candidate)) { continue }
            best = (candidate, rank)
        }
        return best?.candidate
    }

    /// The best candidate for a product ID: `best(for:among:)`, else the same ID with another
    /// word for its period, else the one candidate that ends with the same two parts.
    public static func productID(for id: String, among candidates: some Collection<String>) -> String? {
        if let near = best(for: id, among: candidates) { return near }
        let folded = periodFolded(id)
        if let same = candidates.filter({ $0 != id && periodFolded($0) == folded }).min() { return same }
        let tail = lastParts(id, 2)
        guard tail.count == 2 else { return nil }
        let sharing = candidates.filter { $0 != id && lastParts($0, 2) == tail }
        return sharing.count == 1 ? sharing.first : nil
    }

    /// How near a candidate is: a lower tier first, then fewer edits.
    struct Rank: Comparable {
        let tier: Int
        let distance: Int
        static func < (a: Rank, b: Rank) -> Bool { (a.tier, a.distance) < (b.tier, b.distance) }
    }

    /// Lower-cased bytes with `_`, `-` and `.` treated alike.
    static func fold(_ text: String) -> [UInt8] {
        text.utf8.map { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte + 32
            case UInt8(ascii: "_"), UInt8(ascii: "-"): return UInt8(ascii: ".")
            default: return byte
            }
        }
    }

    /// A folded text without its separators: two texts that differ only by case and separators
    /// have the same skeleton.
    static func skeleton(_ folded: [UInt8]) -> [UInt8] {
        folded.filter { $0 != UInt8(ascii: ".") }
    }

    /// Lower-cased parts with `_`, `-`, `.` alike and period words in one spelling.
    static func periodFolded(_ id: String) -> [String] {
        parts(id).map { periodWords[$0] ?? $0 }
    }

    static let periodWords: [String: String] = [
        "annual": "year", "annually": "year", "yearly": "year", "year": "year", "1year": "year", "12months": "year", "12month": "year", "1y": "year",
        "monthly": "month", "month": "month", "1month": "month", "1m": "month",
        "weekly": "week", "week": "week", "1week": "week", "1w": "week",
        "quarterly": "quarter", "3months": "quarter", "3month": "quarter", "quarter": "quarter",
        "semiannual": "halfyear", "6months": "halfyear", "6month": "halfyear",
    ]

    /// The last `count` lower-cased parts, when the ID has more than `count`.
    static func lastParts(_ id: String, _ count: Int) -> [String] {
        let parts = parts(id)
        return parts.count > count ? Array(parts.suffix(count)) : []
    }

    private static func parts(_ id: String) -> [String] {
        id.lowercased().split(whereSeparator: { $0 == "." || $0 == "_" || $0 == "-" }).map(String.init)
    }

    /// Edit distance where swapping two neighbouring characters counts as one edit, like an
    /// insertion, deletion or substitution (`levle` is one edit from `level`); stops early once
    /// every path exceeds `limit`.
    static func editDistance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return rowMinimum }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}

extension NearMatch {
    /// Suggestions over many candidates without comparing every pair: a full scan while the
    /// work is small, and above that an index of skeletons, folded forms and single deletions
    /// (so case, separator and one-character typos are still found in linear time), and for
    /// product IDs of period-folded forms and last parts.
    public struct Index: Sendable {
        private let candidates: [String]
        private let productIDs: Bool
        private let bySkeleton: [[UInt8]: [String]]
        private let byFolded: [[UInt8]: [String]]
        private let byDeletion: [[UInt8]: [String]]
        private let byPeriod: [[String]: [String]]
        private let byTail: [[String]: [String]]
        /// Pairs compared by a full scan at most, per lookup batch, before the index takes over.
        public static let scanLimit = 2_000

        /// - Parameter productIDs: whether lookups are product IDs (`NearMatch.productID`), not
        ///   other names.
        public init(_ candidates: [String], productIDs: Bool = false) {
            self.candidates = candidates
            self.productIDs = productIDs
            guard candidates.count > Self.scanLimit else {
                (bySkeleton, byFolded, byDeletion, byPeriod, byTail) = ([:], [:], [:], [:], [:])
                return
            }
            var skeletons: [[UInt8]: [String]] = [:]
            var folded: [[UInt8]: [String]] = [:]
            var deletions: [[UInt8]: [String]] = [:]
            var periods: [[String]: [String]] = [:]
            var tails: [[String]: [String]] = [:]
            for candidate in candidates {
                let key = NearMatch.fold(candidate)
                skeletons[NearMatch.skeleton(key), default: []].append(candidate)
                folded[key, default: []].append(candidate)
                for variant in Self.deletions(of: key) { deletions[variant, default: []].append(candidate) }
                if productIDs {
                    periods[NearMatch.periodFolded(candidate), default: []].append(candidate)
                    let tail = NearMatch.lastParts(candidate, 2)
                    if !tail.isEmpty { tails[tail, default: []].append(candidate) }
                }
            }
            (bySkeleton, byFolded, byDeletion, byPeriod, byTail) = (skeletons, folded, deletions, periods, tails)
        }

        public func best(for text: String) -> String? {
            guard candidates.count > Self.scanLimit else {
                return productIDs ? NearMatch.productID(for: text, among: candidates) : NearMatch.best(for: text, among: candidates)
            }
            let key = NearMatch.fold(text)
            var pool = bySkeleton[NearMatch.skeleton(key)] ?? []
            pool += byFolded[key] ?? []
            pool += byDeletion[key] ?? []
            for variant in Self.deletions(of: key) {
                pool += byFolded[variant] ?? []
                pool += byDeletion[variant] ?? []
            }
            if let near = NearMatch.best(for: text, among: pool) { return near }
            guard productIDs else { return nil }
            if let same = (byPeriod[NearMatch.periodFolded(text)] ?? []).filter({ $0 != text }).min() { return same }
            let tail = NearMatch.lastParts(text, 2)
            guard !tail.isEmpty else { return nil }
            let sharing = (byTail[tail] ?? []).filter { $0 != text }
            return sharing.count == 1 ? sharing.first : nil
        }

        private static func deletions(of key: [UInt8]) -> [[UInt8]] {
            guard key.count > 1 else { return [] }
            return key.indices.map { index in
                var variant = key
                variant.remove(at: index)
                return variant
            }
        }
    }
}
