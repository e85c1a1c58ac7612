import TallyModel

/// The errors of one read, collected so that one run reports every mistake of a file (up to
/// `FormatError.limit`), each located, not the first only. The catalogue, mapping and policy
/// readers share it: a mistake they can step over is `report`ed and the read goes on.
public struct FormatErrorLog: Sendable {
    public private(set) var errors: [FormatError] = []

    /// Thrown when `FormatError.limit` errors have been collected: the read stops there.
    public struct Stop: Error {}

    public init() {}

    public var isEmpty: Bool { errors.isEmpty }

    /// Records an error (each of a combined error's own); throws `Stop` at the limit.
    public mutating func report(_ error: FormatError) throws {
        errors += error.all.filter { !errors.contains($0) }
        if errors.count >= FormatError.limit { throw Stop() }
    }

    /// After a mistake in one value of a tree: reports it, goes back to where the value started
    /// and steps over it. Anything but a `FormatError` (the limit's `Stop`) goes on up.
    public mutating func recover(_ error: any Error, _ reader: inout TreeReader, from start: TreeReader) throws {
        guard let error = error as? FormatError else { throw error }
        try report(error)
        reader = start
        if reader.isAtValue { try reader.skipValue() }
    }

    /// Reports a repeated key (and skips its value); true when the key is new.
    mutating func firstTime<R: DocumentReader>(_ key: String, in keys: inout KeySet, _ reader: inout R) throws -> Bool {
        if keys.contains(key) {
            try report(reader.error("the key \"\(key)\" appears twice in the same object"))
            try reader.skipValue()
            return false
        }
        keys.add(key)
        return true
    }

    /// The errors in the order of the file (line, column, then the order found): a missing key is
    /// found only at the end of a read.
    public var sorted: [FormatError] {
        errors.enumerated().sorted { a, b in
            let left = (a.element.location.line ?? 0, a.element.location.column ?? 0, a.offset)
            let right = (b.element.location.line ?? 0, b.element.location.column ?? 0, b.offset)
            return left < right
        }.map(\.element)
    }

    /// The one error to throw for the read: every error collected (in file order) and `more`
    /// (an error that ended the read), or nil when there are none.
    public func combined(adding more: FormatError? = nil, stoppedAtLimit: Bool = false) -> FormatError? {
        var all = sorted
        if let more { all += more.all.filter { !errors.contains($0) } }
        return all.isEmpty ? nil : FormatError.combining(all, stoppedAtLimit: stoppedAtLimit)
    }
}
