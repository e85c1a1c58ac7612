/// One file of a source that is read from several files, such as the pages of an App Store
/// Connect export. The catalogue numbers the lines of all its files in one sequence, so that a
/// `Position` stays two numbers: this file's line 1 is the catalogue's line `firstLine`.
public struct SourcePart: Sendable, Hashable, Codable {
    public var file: String
    /// The catalogue line that is this file's first line (1 for the first file).
    public var firstLine: Int

    public init(file: String, firstLine: Int) {
        self.file = file
        self.firstLine = firstLine
    }

    /// The part holding a catalogue line: the last one starting at or before it (parts are in
    /// line order). Nil when there are no parts.
    public static func containing(line: Int, in parts: [SourcePart]) -> SourcePart? {
        var low = 0, high = parts.count
        while low < high {
            let mid = (low + high) / 2
            if parts[mid].firstLine <= line { low = mid + 1 } else { high = mid }
        }
        return low > 0 ? parts[low - 1] : nil
    }
}
