/// "Did you mean" suggestions: the closest candidate within a small edit distance, where
/// case and the `_`/`.`/`-` separators count as near-free differences.
public enum NearMatch {
    /// The best candidate for `text`, or nil when nothing is near enough.
    public static func best(for text: String, among candidates: some Sequence<String>) -> String? {
        var best: (candidate: String, distance: Int)?
        let folded = fold(text)
        let limit = max(1, min(3, folded.count / 4))
        for candidate in candidates where candidate != text {
            let other = fold(candidate)
            guard abs(other.count - folded.count) <= limit else { continue }
            let distance = editDistance(folded, other, limit: limit)
            guard distance <= limit else { continue }
            if best == nil || distance < best!.distance || (distance == best!.distance && candidate < best!.candidate) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
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
    /// work is small, and above that an index of folded forms and single deletions (so case,
    /// separator and one-character typos are still found in linear time).
    public struct Index: Sendable {
        private let candidates: [String]
        private let byFolded: [[UInt8]: [String]]
        private let byDeletion: [[UInt8]: [String]]
        /// Pairs compared by a full scan at most, per lookup batch, before the index takes over.
        public static let scanLimit = 2_000

        public init(_ candidates: [String]) {
            self.candidates = candidates
            guard candidates.count > Self.scanLimit else {
                byFolded = [:]
                byDeletion = [:]
                return
            }
            var folded: [[UInt8]: [String]] = [:]
            var deletions: [[UInt8]: [String]] = [:]
            for candidate in candidates {
                let key = NearMatch.fold(candidate)
                folded[key, default: []].append(candidate)
                for variant in Self.deletions(of: key) { deletions[variant, default: []].append(candidate) }
            }
            byFolded = folded
            byDeletion = deletions
        }

        public func best(for text: String) -> String? {
            guard candidates.count > Self.scanLimit else { return NearMatch.best(for: text, among: candidates) }
            let key = NearMatch.fold(text)
            var pool = byFolded[key] ?? []
            pool += byDeletion[key] ?? []
            for variant in Self.deletions(of: key) {
                pool += byFolded[variant] ?? []
                pool += byDeletion[variant] ?? []
            }
            return NearMatch.best(for: text, among: pool)
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
