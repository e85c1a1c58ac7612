/// Long values in messages and table cells, shortened so that a 50 MB line or a 20 MB product ID
/// cannot become a 50 MB message or a 100 MB table: the value's start, `…`, and how long it was,
/// as in `com.example.aaaa…(20,000,000 characters)`. Only text for people is elided; the JSON,
/// SARIF and JUnit reports keep every value whole.
public enum Elision {
    /// A run of characters without white space or quotes longer than this is elided.
    public static let runLimit = 256
    /// How many characters of an elided value are kept.
    public static let kept = 40
    /// A line still longer than this after its long runs are elided is cut (a long line of short words).
    public static let lineLimit = 4_000

    /// The value itself when it has at most `limit` characters, else its start, `…` and its length.
    public static func value(_ text: String, limit: Int = runLimit) -> String {
        guard text.utf8.count > limit else { return text }
        var copy = text
        return copy.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return text }
            let length = scalarCount(base, 0, bytes.count)
            return length > limit ? cut(base, 0, bytes.count, keeping: kept, length: length) : text
        }
    }

    /// `text` with every run of characters other than white space and quotes (`"`, `'`, `` ` ``)
    /// longer than `runLimit` elided (a quoted value counts without its quotes), then
    /// every line still longer than `lineLimit` cut. Short text is returned as it is.
    public static func message(_ text: String) -> String {
        guard text.utf8.count > runLimit else { return text }
        var copy = text
        let elided = copy.withUTF8 { bytes -> String in
            guard let base = bytes.baseAddress else { return text }
            var out = ""
            var start = 0
            var offset = 0
            let count = bytes.count
            // Runs end at ASCII white space and quotes, so every boundary is a character boundary.
            while offset <= count {
                let byte: UInt8 = offset < count ? base[offset] : 0x0A
                if byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x22 || byte == 0x27 || byte == 0x60 {
                    let length = offset - start > runLimit ? scalarCount(base, start, offset) : 0
                    if length > runLimit {
                        out += cut(base, start, offset, keeping: kept, length: length)
                    } else {
                        out += String(decoding: UnsafeBufferPointer(start: base + start, count: offset - start), as: UTF8.self)
                    }
                    if offset < count { out.unicodeScalars.append(Unicode.Scalar(byte)) }
                    start = offset + 1
                }
                offset += 1
            }
            return out
        }
        guard elided.utf8.count > lineLimit else { return elided }
        return elided.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var line = String(line)
            guard line.utf8.count > lineLimit else { return line }
            return line.withUTF8 { bytes in
                guard let base = bytes.baseAddress else { return "" }
                let length = scalarCount(base, 0, bytes.count)
                return length > lineLimit ? cut(base, 0, bytes.count, keeping: lineLimit / 4, length: length)
                    : String(decoding: bytes, as: UTF8.self)
            }
        }.joined(separator: "\n")
    }

    /// The characters (Unicode scalars) in the UTF-8 bytes `start..<end`: every byte that does not continue one.
    private static func scalarCount(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        var count = 0
        var offset = start
        while offset < end {
            if base[offset] & 0xC0 != 0x80 { count += 1 }
            offset += 1
        }
        return count
    }

    private static func cut(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, keeping count: Int, length: Int) -> String {
        var stop = start
        var seen = 0
        while stop < end {
            if base[stop] & 0xC0 != 0x80 {
                if seen == count { break }
                seen += 1
            }
            stop += 1
        }
        return String(decoding: UnsafeBufferPointer(start: base + start, count: stop - start), as: UTF8.self)
            + "…(\(grouped(length)) characters)"
    }

    /// `20000000` as `20,000,000`.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        var out = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }
}
