/// A file's UTF-8 bytes, searched for the names of purchase APIs: a byte loop, because
/// `String.contains` walks grapheme clusters and costs a few hundred milliseconds per name in
/// a large file.
struct ByteSearch {
    let bytes: [UInt8]

    init(_ text: String) { bytes = Array(text.utf8) }
    init(bytes: [UInt8]) { self.bytes = bytes }

    func contains(_ needle: String) -> Bool {
        let needle = Array(needle.utf8)
        guard let first = needle.first, needle.count <= bytes.count else { return needle.isEmpty }
        return bytes.withUnsafeBufferPointer { haystack in
            let last = haystack.count - needle.count
            var i = 0
            while i <= last {
                if haystack[i] == first {
                    var k = 1
                    while k < needle.count, haystack[i + k] == needle[k] { k += 1 }
                    if k == needle.count { return true }
                }
                i += 1
            }
            return false
        }
    }
}
